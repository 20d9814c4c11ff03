import { serviceNames, type ServiceName } from '@debate/contracts';
import { createGateway, type GatewayOptions } from '@debate/gateway';
import {
  type Broker,
  type BrokerAlias,
  createEmbeddedIssuer,
  issuerRoutes,
  type MailSettings,
} from '@debate/embedded-keycloak';
import type { KeycloakSettings } from '@debate/identity-service';
import {
  createLogger,
  listeningUrl,
  type LogLevel,
  PinoLoggerService,
  startService,
} from '@debate/nest';
import type { INestMicroservice } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type PlatformServiceOptions, serviceModules } from './service-modules.js';

/**
 * What the platform starts from: the gateway's options (the launcher names the realm and the
 * framework logger itself), the services' (the identity service's realm comes from the issuer
 * started here, or from `keycloak`), where the gateway listens, and the embedded issuer's.
 */
export interface PlatformOptions
  extends
    Omit<GatewayOptions, 'authIssuer' | 'authJwksUrl' | 'frameworkLogger' | 'logLevel'>,
    Omit<PlatformServiceOptions, 'keycloak'> {
  readonly logLevel: LogLevel;
  readonly port: number;
  readonly host: string;
  /** Where the embedded issuer keeps its signing key and client secret. */
  readonly dataDir: string;
  /** Google and GitHub, where their OAuth app credentials are configured. */
  readonly brokers?: Partial<Record<BrokerAlias, Broker>>;
  /** The embedded issuer's SMTP server (SMTP_*), for the verification mail. */
  readonly mail?: MailSettings;
  /**
   * A Keycloak to sign in with instead of the embedded issuer: the identity service's settings
   * and the realm URL its tokens name as their issuer.
   */
  readonly keycloak?: { readonly settings: KeycloakSettings; readonly issuerUrl: string };
}

export interface RunningPlatform {
  /** The gateway's base URL, e.g. http://127.0.0.1:3000 */
  readonly url: string;
  readonly gateway: NestFastifyApplication;
  readonly services: Map<ServiceName, INestMicroservice>;
  /** Starts one service again (after `stopService`). */
  startService(service: ServiceName): Promise<void>;
  stopService(service: ServiceName): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the five services and the gateway on one transport, in this process, with the embedded
 * Keycloak-compatible issuer served by the gateway at /auth (realm `debate`), or signing in with
 * the Keycloak of `options.keycloak`.
 */
export async function startPlatform(options: PlatformOptions): Promise<RunningPlatform> {
  const services = new Map<ServiceName, INestMicroservice>();
  // NestJS's own messages are process-wide: one logger, labelled 'platform', for all six apps.
  // What the services and the gateway log themselves still carries their own name.
  const frameworkLogger = new PinoLoggerService(createLogger('platform', options.logLevel));
  // The address is known once the gateway listens (PORT=0): everything that names it asks late.
  let baseUrl = '';
  const embeddedRealmUrl = () => `${baseUrl}/auth/realms/debate`;
  let issuer: Awaited<ReturnType<typeof createEmbeddedIssuer>> | undefined;
  let keycloak: KeycloakSettings;
  if (options.keycloak) {
    keycloak = options.keycloak.settings;
  } else {
    issuer = await createEmbeddedIssuer({
      mongoUrl: options.mongoUrl,
      dataDir: options.dataDir,
      issuerUrl: embeddedRealmUrl,
      ...(options.brokers ? { brokers: options.brokers } : {}),
      ...(options.mail ? { mail: options.mail } : {}),
    });
    keycloak = {
      baseUrl: () => `${baseUrl}/auth`,
      realm: issuer.issuer.settings.name,
      webClientId: issuer.issuer.settings.webClientId,
      serviceClientId: issuer.issuer.settings.serviceClientId,
      serviceSecret: issuer.serviceSecret,
    };
  }
  const modules = serviceModules({ ...options, keycloak });
  const start = async (service: ServiceName) => {
    const app = await startService({
      service,
      module: modules[service],
      transport: options.transport,
      frameworkLogger,
    });
    services.set(service, app);
  };
  const stopOne = async (service: ServiceName) => {
    const app = services.get(service);
    services.delete(service);
    await app?.close();
  };

  await Promise.all(serviceNames.map(start));
  const gateway = await createGateway({
    ...options,
    authIssuer: options.keycloak?.issuerUrl ?? embeddedRealmUrl,
    frameworkLogger,
  });
  const embedded = issuer;
  if (embedded) {
    await gateway
      .getHttpAdapter()
      .getInstance()
      .register(async (scope) => issuerRoutes(scope, embedded.issuer), { prefix: '/auth' });
  }
  await gateway.listen({ port: options.port, host: options.host });
  baseUrl = listeningUrl(gateway.getHttpServer(), options.host);

  return {
    url: baseUrl,
    gateway,
    services,
    startService: start,
    stopService: stopOne,
    stop: async () => {
      await gateway.close();
      await Promise.all([...services.keys()].map(stopOne));
      await issuer?.close();
    },
  };
}
