/**
 * The project's own ESLint rules.
 *
 * resolver-auth-decision: every GraphQL root field (a method decorated with @Query, @Mutation or
 * @Subscription) must also carry an explicit auth decision, @Public() or @Authenticated().
 * The gateway's AuthDecisionGuard refuses undeclared fields at run time as well.
 */
const ROOT_FIELD_DECORATORS = new Set(['Query', 'Mutation', 'Subscription']);
const AUTH_DECISION_DECORATORS = new Set(['Public', 'Authenticated']);

function decoratorName(decorator) {
  const expression = decorator.expression;
  if (expression.type === 'CallExpression' && expression.callee.type === 'Identifier') {
    return expression.callee.name;
  }
  if (expression.type === 'Identifier') return expression.name;
  return undefined;
}

const resolverAuthDecision = {
  meta: {
    type: 'problem',
    docs: { description: 'GraphQL root fields must declare @Public() or @Authenticated().' },
    messages: {
      missing:
        "GraphQL field '{{name}}' has no auth decision: add @Public() or @Authenticated() from the gateway's auth module.",
    },
    schema: [],
  },
  create(context) {
    return {
      MethodDefinition(node) {
        const names = (node.decorators ?? []).map(decoratorName).filter(Boolean);
        if (!names.some((name) => ROOT_FIELD_DECORATORS.has(name))) return;
        if (names.some((name) => AUTH_DECISION_DECORATORS.has(name))) return;
        const name = node.key.type === 'Identifier' ? node.key.name : '(computed)';
        context.report({ node: node.key, messageId: 'missing', data: { name } });
      },
    };
  },
};

export default {
  meta: { name: 'debate' },
  rules: { 'resolver-auth-decision': resolverAuthDecision },
};
