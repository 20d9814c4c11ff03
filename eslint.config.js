import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import debate from './tools/eslint/index.js';

/**
 * A subject looks like `<owner>.<entity>.<verb>` with one of the five owners. Such a string
 * may only be written in libs/contracts; everywhere else it is imported from there.
 */
const SUBJECT_OWNERS = '(identity|usage|generation|debates|community)';
const SUBJECT_LITERAL = `^${SUBJECT_OWNERS}\\.[a-zA-Z-]+\\.[a-zA-Z-]+`;
/** A template that builds a subject, e.g. `community.debate.${verb}`. */
const SUBJECT_TEMPLATE = `^${SUBJECT_OWNERS}\\.[a-zA-Z-]+\\.`;

/** Which kinds of project may import which (Nx tags). */
const depConstraints = [
  { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
  { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:contracts', 'type:lib'] },
  { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:contracts', 'type:lib'] },
  { sourceTag: 'type:gateway', onlyDependOnLibsWithTags: ['type:contracts', 'type:lib'] },
  { sourceTag: 'type:web', onlyDependOnLibsWithTags: ['type:contracts'] },
  // The Pulumi program describes the deployables and runs none of their code; it reads the
  // contracts (the usage settings' schema) to check a stack's values as the services would.
  { sourceTag: 'type:infra', onlyDependOnLibsWithTags: ['type:contracts'] },
  // The embedded store and issuer stand in for MongoDB and Keycloak in development and tests.
  { sourceTag: 'type:embedded', onlyDependOnLibsWithTags: ['type:contracts', 'type:lib'] },
  // What a service's integration tests start (libs/testing): the service on the embedded store.
  {
    sourceTag: 'type:testing',
    onlyDependOnLibsWithTags: ['type:contracts', 'type:lib', 'type:embedded'],
  },
  {
    sourceTag: 'type:launcher',
    onlyDependOnLibsWithTags: [
      'type:contracts',
      'type:lib',
      'type:embedded',
      'type:service',
      'type:gateway',
    ],
  },
];

/**
 * Tests may also start the embedded store and issuer and use libs/testing; a deployable's own code
 * may not (no test-only package is a runtime dependency of what ships in an image).
 */
const testDepConstraints = depConstraints.map((constraint) =>
  [
    'type:lib',
    'type:embedded',
    'type:service',
    'type:gateway',
    'type:web',
    'type:launcher',
  ].includes(constraint.sourceTag)
    ? {
        ...constraint,
        onlyDependOnLibsWithTags: [
          ...new Set([...constraint.onlyDependOnLibsWithTags, 'type:embedded', 'type:testing']),
        ],
      }
    : constraint,
);

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**', '.nx/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { '@nx': nx, debate },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'separate-type-imports' },
      ],
      '@typescript-eslint/no-extraneous-class': 'off',
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints,
        },
      ],
    },
  },
  {
    // Specs, each project's test/ tier and the browser tests (a harness on the server side,
    // using the realm's fakes of Google and GitHub and its mailbox).
    files: ['**/*.spec.ts', '**/*.spec.tsx', '**/test/**/*.ts', 'web/e2e/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        { enforceBuildableLibDependency: false, allow: [], depConstraints: testDepConstraints },
      ],
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ['libs/contracts/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `Literal[value=/${SUBJECT_LITERAL}/]`,
          message: 'NATS subjects are declared once in @debate/contracts: import the constant.',
        },
        {
          selector: `TemplateElement[value.raw=/${SUBJECT_TEMPLATE}/]`,
          message: 'NATS subjects are declared once in @debate/contracts: import the constant.',
        },
      ],
    },
  },
  {
    files: ['gateway/src/**/*.resolver.ts'],
    rules: { 'debate/resolver-auth-decision': 'error' },
  },
  {
    files: ['web/**/*.ts', 'web/**/*.tsx'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Decorated constructor parameters are value imports: NestJS reads their types at run time.
    files: ['services/**/*.ts', 'gateway/**/*.ts', 'libs/nest/**/*.ts', 'platform/**/*.ts'],
    rules: { '@typescript-eslint/consistent-type-imports': 'off' },
  },
  prettier,
);
