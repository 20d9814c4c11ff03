import { createLogger, LoggingModule, serviceClientProvider } from '@debate/nest';
import { type DynamicModule, Module } from '@nestjs/common';
import { createRemoteJWKSet } from 'jose';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { AuthDecisionGuard } from './auth/auth-decision.guard.js';
import { SubscriptionLimits } from './query-limits/subscription-limits.js';
import { RateLimitGuard } from './rate-limit/rate-limit.guard.js';
import { RateLimiter } from './rate-limit/rate-limiter.js';
import { TokenVerifier } from './auth/token-verifier.js';
import { CatalogResolver } from './catalog/catalog.resolver.js';
import { CommunityResolver } from './community/community.resolver.js';
import { DebatesResolver } from './debates/debates.resolver.js';
import { ServiceErrorsFilter } from './errors/service-errors.filter.js';
import { GenerationResolver } from './generation/generation.resolver.js';
import { JudgesResolver } from './judges/judges.resolver.js';
import { LeaderboardResolver } from './leaderboard/leaderboard.resolver.js';
import type { ResolvedGatewayOptions } from './gateway.options.js';
import { graphqlModule } from './graphql.module.js';
import { SessionCookies } from './session/session.cookies.js';
import { SessionResolver } from './session/session.resolver.js';
import { UsageResolver } from './usage/usage.resolver.js';

/** Every resolver of the API: the module's, and what schema.graphql is printed from. */
export const gatewayResolvers = [
  CatalogResolver,
  SessionResolver,
  GenerationResolver,
  UsageResolver,
  DebatesResolver,
  CommunityResolver,
  LeaderboardResolver,
  JudgesResolver,
] as const;

/** The gateway: GraphQL over the services, and nothing of their business. */
@Module({})
export class GatewayModule {
  static register(options: ResolvedGatewayOptions): DynamicModule {
    // One logger for the gateway's lines and for its GraphQL root fields' debug lines.
    const log = createLogger('gateway', options.logLevel);
    return {
      module: GatewayModule,
      imports: [
        LoggingModule.forDeployable('gateway', options.logLevel, log),
        graphqlModule(log, options.limits.query),
      ],
      providers: [
        serviceClientProvider(options.transport, 'gateway', options.requestTimeoutMs),
        // In this order: the rate limits count the user the auth decision found.
        { provide: APP_GUARD, useClass: AuthDecisionGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        {
          provide: RateLimiter,
          useValue: new RateLimiter(options.limits.rateLimits, options.transport),
        },
        {
          provide: SubscriptionLimits,
          useValue: new SubscriptionLimits(
            options.limits.subscriptionsPerConnection,
            options.limits.subscriptionsPerAccount,
          ),
        },
        { provide: APP_FILTER, useClass: ServiceErrorsFilter },
        {
          provide: SessionCookies,
          useValue: new SessionCookies(options.alwaysSecureCookies ?? false),
        },
        ...gatewayResolvers,
        ...(options.authIssuer
          ? [
              {
                provide: TokenVerifier,
                useValue: new TokenVerifier({
                  issuer: options.authIssuer,
                  ...(options.authJwksUrl
                    ? { jwks: createRemoteJWKSet(new URL(options.authJwksUrl)) }
                    : {}),
                }),
              },
            ]
          : []),
      ],
    };
  }
}
