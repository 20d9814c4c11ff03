import type { CodegenConfig } from '@graphql-codegen/cli';
import { fileURLToPath } from 'node:url';

// Absolute paths, so that `npx nx run web:codegen` and the spec that checks the output
// (src/codegen.spec.ts) read and write the same files wherever they run from.
const web = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The web app's GraphQL types, generated from the gateway's schema (gateway/schema.graphql,
 * printed from its resolvers) and the operations the app writes with `graphql(...)`. Run
 * `npx nx run web:codegen` after changing either.
 */
const config: CodegenConfig = {
  schema: web('../gateway/schema.graphql'),
  documents: [web('src/**/*.{ts,tsx}'), `!${web('src/**/*.spec.{ts,tsx}')}`],
  generates: {
    [web('src/gql/')]: {
      preset: 'client',
      presetConfig: {
        // The operations' results carry their fragments' fields: RTK Query hands them to
        // components as they are, with no unmasking step.
        fragmentMasking: false,
        // `graphql` comes from gql/gql.ts and the types from gql/graphql.ts. No index.ts: it
        // would only re-export gql.ts, and lint reports its eslint-disable line as unused.
        skipIndexFile: true,
      },
      config: {
        // Documents are strings (TypedDocumentString): the browser sends their text and needs
        // no graphql-js to build it.
        documentMode: 'string',
        // Enums as unions of their values ('MOST_RECENT' | …), which is what travels.
        enumType: 'string-literal',
        // Results are read, never written: RTK Query freezes them.
        immutableTypes: true,
        useTypeImports: true,
        // A custom scalar must be mapped here, never typed `any`.
        strictScalars: true,
      },
    },
  },
};

export default config;
