// The project's lint guarantees, checked against the real eslint.config.js: a GraphQL root field
// without an auth decision fails lint, and so does a NATS subject written outside libs/contracts.
import { ESLint, RuleTester } from 'eslint';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';
import debate from './index.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const ruleTester = new RuleTester({ languageOptions: { parser: tseslint.parser } });

ruleTester.run('resolver-auth-decision', debate.rules['resolver-auth-decision'], {
  valid: [
    'class R { @Public() @Query(() => String) health() { return "ok"; } }',
    'class R { @Authenticated() @Mutation(() => String) vote() { return "ok"; } }',
    'class R { @Subscription(() => String) @Public() ticks() { return "ok"; } }',
    'class R { @ResolveField(() => String) name() { return "not a root field"; } }',
    'class R { helper() { return 1; } }',
  ],
  invalid: [
    {
      code: 'class R { @Query(() => String) health() { return "ok"; } }',
      errors: [{ messageId: 'missing', data: { name: 'health' } }],
    },
    {
      code: 'class R { @Args() @Mutation(() => String) vote() { return "ok"; } }',
      errors: [{ messageId: 'missing', data: { name: 'vote' } }],
    },
    {
      code: 'class R { @Subscription(() => String) ticks() { return "ok"; } }',
      errors: [{ messageId: 'missing', data: { name: 'ticks' } }],
    },
  ],
});

const root = fileURLToPath(new URL('../..', import.meta.url));

async function ruleIdsFor(code, filePath) {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.map((message) => message.ruleId);
}

describe('the workspace lint configuration', () => {
  it('fails a resolver without an auth decision in the gateway', async () => {
    const code = [
      "import { Query, Resolver } from '@nestjs/graphql';",
      '@Resolver()',
      'export class OpenResolver {',
      '  @Query(() => String)',
      "  secret(): string { return 'x'; }",
      '}',
      '',
    ].join('\n');
    const ids = await ruleIdsFor(code, 'gateway/src/open/open.resolver.ts');
    assert.ok(ids.includes('debate/resolver-auth-decision'), `got ${ids.join(', ')}`);
  });

  for (const filePath of ['gateway/src/leak.ts', 'services/usage/src/leak.ts', 'web/src/leak.ts']) {
    it(`fails a subject string literal in ${filePath}`, async () => {
      const ids = await ruleIdsFor(
        "export const subject = 'usage.allowance.get';\nexport const other = `community.debate.${'vote'}`;\n",
        filePath,
      );
      assert.deepEqual(
        ids.filter((id) => id === 'no-restricted-syntax'),
        ['no-restricted-syntax', 'no-restricted-syntax'],
      );
    });
  }

  it('allows subject literals in libs/contracts, where they are declared', async () => {
    const ids = await ruleIdsFor(
      "export const subject = 'usage.allowance.get';\n",
      'libs/contracts/src/example.ts',
    );
    assert.deepEqual(ids, []);
  });
});

describe('module boundaries', () => {
  const cases = [
    [
      'web may not import the gateway',
      "import { createGateway } from '@debate/gateway';",
      'web/src/leak.ts',
    ],
    [
      'web may not import a service',
      "import { CatalogModule } from '@debate/generation-service';",
      'web/src/leak.ts',
    ],
    [
      'a service may not import another service',
      "import { CommunityServiceModule } from '@debate/community-service';",
      'services/generation/src/leak.ts',
    ],
    [
      'the gateway may not import a service',
      "import { CatalogModule } from '@debate/generation-service';",
      'gateway/src/leak.ts',
    ],
  ];
  for (const [name, code, filePath] of cases) {
    it(name, async () => {
      const ids = await ruleIdsFor(
        `${code}\nexport const used = [${code.match(/\{ (\w+) \}/)[1]}];\n`,
        filePath,
      );
      assert.ok(
        ids.includes('@nx/enforce-module-boundaries'),
        `got ${ids.join(', ') || 'nothing'}`,
      );
    });
  }

  it('every project may import the contracts', async () => {
    for (const filePath of ['web/src/ok.ts', 'services/usage/src/ok.ts', 'gateway/src/ok.ts']) {
      const ids = await ruleIdsFor(
        "import { serviceNames } from '@debate/contracts';\nexport const names = serviceNames;\n",
        filePath,
      );
      assert.deepEqual(ids, [], filePath);
    }
  });
});
