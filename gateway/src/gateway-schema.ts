import { NestFactory } from '@nestjs/core';
import { GraphQLSchemaBuilderModule, GraphQLSchemaFactory } from '@nestjs/graphql';
import { type GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { gatewayResolvers } from './gateway.module.js';

/** gateway/schema.graphql: the API as the web app and other clients read it. */
export const schemaFile = join(dirname(fileURLToPath(import.meta.url)), '../schema.graphql');

/** The command that rewrites schemaFile, for the messages that ask for it. */
export const printSchemaCommand = 'npm run schema';

const HEADER =
  `# The gateway's GraphQL schema, printed from its resolvers by \`${printSchemaCommand}\`:\n` +
  '# do not edit it by hand. gateway-schema.spec.ts fails when it is out of date.\n\n';

/**
 * The text of schemaFile for `schema`: SDL, types and fields sorted as the module sorts them,
 * formatted as `npm run format` formats the repository, which then leaves the file as it is.
 */
export async function schemaFileText(schema: GraphQLSchema): Promise<string> {
  const sdl = `${HEADER}${printSchema(lexicographicSortSchema(schema))}`;
  return format(sdl, { ...(await resolveConfig(schemaFile)), filepath: schemaFile });
}

/**
 * The gateway's schema file's text: the schema built from its resolvers by the factory its
 * GraphQL module uses (autoSchemaFile), with the same options, without a server.
 */
export async function printGatewaySchema(): Promise<string> {
  const context = await NestFactory.createApplicationContext(GraphQLSchemaBuilderModule, {
    logger: false,
  });
  try {
    return schemaFileText(await context.get(GraphQLSchemaFactory).create([...gatewayResolvers]));
  } finally {
    await context.close();
  }
}
