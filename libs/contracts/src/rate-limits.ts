import { z } from 'zod';

// The gateway's rate limits (docs/limits.md): the gateway reads RATE_LIMITS with this schema, and
// the Pulumi program checks a stack's `debate:rateLimits` with the same one.

/**
 * The operations the gateway limits, named as their GraphQL fields; `openWebSocket` is a
 * WebSocket connection to /graphql (its address at the upgrade, its account at connection_init).
 */
export const RateLimitedAction = z.enum([
  'signUp',
  'signIn',
  'refreshSession',
  'startDebate',
  'submitTurn',
  'vote',
  'toggleStar',
  'mergeStars',
  'setPeopleListing',
  'sendVerificationEmail',
  'openWebSocket',
]);
export type RateLimitedAction = z.output<typeof RateLimitedAction>;

/**
 * Who a limit counts: the client's address, the account (the signed-in user, or for sign-in the
 * address signed into), or everyone at once (a ceiling on what the deployment does per period).
 */
export const RateLimitScope = z.enum(['address', 'account', 'global']);
export type RateLimitScope = z.output<typeof RateLimitScope>;

const UNIT_SECONDS = { s: 1, m: 60, h: 3_600, d: 86_400 } as const;

/** The longest period a rule may have: the shared store keeps a counter this long at most. */
export const LONGEST_PERIOD_SECONDS = UNIT_SECONDS.d;

/**
 * The JetStream key-value buckets of the shared store: the counters every gateway replica
 * counts in, and the key their names are made with (kept for good: no TTL).
 */
export const rateLimitBuckets = { counters: 'rate_limits', key: 'rate_limit_key' } as const;

/** `points` requests per `seconds`, counted in fixed windows that start with the first. */
export interface RateLimitRule {
  readonly points: number;
  readonly seconds: number;
}

/** A rule as written in configuration: `"5/10m"` is 5 per 10 minutes (units s, m, h, d). */
export const RateLimitRuleText = z
  .string()
  .regex(/^\d+\/\d*[smhd]$/, 'must read like 5/10m: a count, a slash, a period in s, m, h or d')
  .transform((text, context): RateLimitRule => {
    const [count = '', period = ''] = text.split('/');
    const unit = period.slice(-1) as keyof typeof UNIT_SECONDS;
    const seconds = Number(period.slice(0, -1) || '1') * UNIT_SECONDS[unit];
    const points = Number(count);
    if (points < 1 || seconds < 1 || seconds > LONGEST_PERIOD_SECONDS) {
      context.addIssue({
        code: 'custom',
        message: 'needs a count of at least 1 and a period from 1s to 1d',
      });
      return z.NEVER;
    }
    return { points, seconds };
  });

const ActionLimitsText = z.partialRecord(RateLimitScope, RateLimitRuleText.nullable());

/** Every action's rules by scope; a scope without a rule is not limited. */
export type RateLimits = Readonly<
  Record<RateLimitedAction, Partial<Readonly<Record<RateLimitScope, RateLimitRule>>>>
>;

/**
 * The defaults, for a deployment on the open internet. Sign-up is the costly one (the realm
 * hashes a password) and the one a script farms for free debates: a handful per address, and a
 * ceiling for all addresses together, so a flood from many addresses cannot take the CPU that
 * everybody else's requests need. The rest leave a person room and stop a script.
 */
export const DEFAULT_RATE_LIMITS = {
  signUp: { address: '5/1h', global: '5/10s' },
  signIn: { address: '30/10m', account: '10/10m' },
  refreshSession: { address: '60/1m' },
  startDebate: { address: '20/1h', account: '30/1d' },
  // A person writes three turns a debate, each minutes apart; a refusal lets them try again.
  submitTurn: { account: '20/1m' },
  vote: { address: '300/1m', account: '60/1m' },
  toggleStar: { address: '300/1m', account: '60/1m' },
  // The web app merges a visitor's stars once per page that shows them, after sign-in: a person
  // opens a few such pages a minute; each merge may carry 500 ids.
  mergeStars: { address: '300/1m', account: '20/1m' },
  // Listing changes recompute every board: a person changes theirs a few times at most.
  setPeopleListing: { account: '10/1m' },
  sendVerificationEmail: { address: '10/1h', account: '3/1h' },
  // The web app opens one connection per debate it follows (and tries again up to 5 times).
  openWebSocket: { address: '60/1m', account: '30/1m' },
} as const satisfies Record<RateLimitedAction, Partial<Record<RateLimitScope, string>>>;

/**
 * RATE_LIMITS: a JSON object over the defaults, action by action and scope by scope, e.g.
 * `{"signUp":{"address":"3/1h"},"vote":{"account":null}}` (null lifts that rule), or `off`
 * (no limits at all: a load test's own cluster, never a public deployment).
 */
export const rateLimitsSchema = z
  .string()
  .transform((text, context): unknown => {
    if (text.trim() === 'off') return 'off';
    try {
      return JSON.parse(text) as unknown;
    } catch {
      context.addIssue({ code: 'custom', message: 'must be JSON or off' });
      return z.NEVER;
    }
  })
  .pipe(z.union([z.literal('off'), z.partialRecord(RateLimitedAction, ActionLimitsText)]))
  .transform((overrides): RateLimits | 'off' => {
    if (overrides === 'off') return 'off';
    return resolveRateLimits(overrides);
  });

function resolveRateLimits(
  overrides: Partial<
    Record<RateLimitedAction, Partial<Record<RateLimitScope, RateLimitRule | null>>>
  >,
): RateLimits {
  const limits = {} as Record<RateLimitedAction, Partial<Record<RateLimitScope, RateLimitRule>>>;
  for (const action of RateLimitedAction.options) {
    const rules: Partial<Record<RateLimitScope, RateLimitRule>> = {};
    for (const scope of RateLimitScope.options) {
      const override = overrides[action]?.[scope];
      if (override === null) continue;
      const text = (DEFAULT_RATE_LIMITS[action] as Partial<Record<RateLimitScope, string>>)[scope];
      const rule = override ?? (text === undefined ? undefined : RateLimitRuleText.parse(text));
      if (rule) rules[scope] = rule;
    }
    limits[action] = rules;
  }
  return limits;
}

/** The defaults, parsed. */
export const defaultRateLimits = (): RateLimits => resolveRateLimits({});
