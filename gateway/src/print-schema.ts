import 'reflect-metadata';
import { writeFile } from 'node:fs/promises';
import { printGatewaySchema, schemaFile } from './gateway-schema.js';

// Rewrites gateway/schema.graphql from the resolvers (after a build: it runs from dist).
await writeFile(schemaFile, await printGatewaySchema());
process.stdout.write(`Wrote ${schemaFile}\n`);
