import type { TransportConfig } from '@debate/nest';
import { createLogger, LoggingModule, type LogLevel, serviceClientProvider } from '@debate/nest';
import { type DynamicModule, Module } from '@nestjs/common';
import { createRemoteJWKSet } from 'jose';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { AuthDecisionGuard } from './auth/auth-decision.guard.js';
import type { GatewayLimits } from './config/gateway.config.js';
import { SubscriptionLimits } from './query-limits/subscription-limits.js';
import { RateLimitGuard } from './rate-limit/rate-limit.guard.js';
import { RateLimiter } from './rate-limit/rate-limiter.js';
import { TokenVerifier } from './auth/token-verifier.js';
import { CatalogResolver } from './catalog/catalog.resolver.js';
import { CommunityResolver } from './community/community.resolver.js';
import { ServiceErrorsFilter } from './errors/service-errors.filter.js';
import { graphqlModule, type GraphqlDriverName } from './graphql.module.js';
import { HealthController } from './health/health.controller.js';
import { HealthResolver } from './health/health.resolver.js';
import { HEALTH_TIMEOUT_MS, HealthService } from './health/health.service.js';
import { DebateResolver } from './debates/debate.resolver.js';
import { SavedDebatesResolver } from './debates/saved-debates.resolver.js';
import { SessionResolver } from './session/session.resolver.js';

export interface GatewayOptions {
  readonly transport: TransportConfig;
  readonly logLevel: LogLevel;
  readonly driver: GraphqlDriverName;
  readonly requestTimeoutMs: number;
  readonly healthTimeoutMs: number;
  /** The realm whose access tokens @Authenticated() operations accept; none: nobody signs in. */
  readonly authIssuer?: string | (() => string);
  /** The realm's JWKS URL, when it is not under the issuer URL as the gateway reaches it. */
  readonly authJwksUrl?: string;
  readonly limits: GatewayLimits;
}

/** The gateway: GraphQL over the services, and nothing of their business. */
@Module({})
export class GatewayModule {
  static async register(options: GatewayOptions): Promise<DynamicModule> {
    // One logger for the gateway's lines and for its GraphQL root fields' debug lines.
    const log = createLogger('gateway', options.logLevel);
    return {
      module: GatewayModule,
      imports: [
        LoggingModule.forDeployable('gateway', options.logLevel, log),
        await graphqlModule(options.driver, log, options.limits.query),
      ],
      controllers: [HealthController],
      providers: [
        serviceClientProvider(options.transport, 'gateway', options.requestTimeoutMs),
        { provide: HEALTH_TIMEOUT_MS, useValue: options.healthTimeoutMs },
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
        HealthService,
        HealthResolver,
        CatalogResolver,
        SessionResolver,
        DebateResolver,
        SavedDebatesResolver,
        CommunityResolver,
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
