import { ServiceCoreModule, ServiceDataModule, type ServiceRuntimeOptions } from '@debate/nest';
import { type DynamicModule, Module } from '@nestjs/common';
import { KeycloakClient, type KeycloakSettings } from './keycloak/keycloak.client.js';
import { SessionsController } from './sessions/sessions.controller.js';
import {
  EMAIL_VERIFICATION,
  type EmailVerification,
  SessionsService,
} from './sessions/sessions.service.js';
import { UsersRepository } from './users/users.repository.js';

export interface IdentityServiceOptions extends ServiceRuntimeOptions {
  /** The realm: Keycloak in production, the embedded issuer otherwise (the same client). */
  readonly keycloak: KeycloakSettings;
  /** `required`: new e-mail accounts verify their address before their free debates. */
  readonly emailVerification?: EmailVerification;
}

/** The identity service: users, and sign-in through the realm. */
@Module({})
export class IdentityServiceModule {
  static register(options: IdentityServiceOptions): DynamicModule {
    return {
      module: IdentityServiceModule,
      imports: [
        ServiceCoreModule.forService('identity', options),
        ServiceDataModule.forService('identity', options),
      ],
      controllers: [SessionsController],
      providers: [
        { provide: KeycloakClient, useValue: new KeycloakClient(options.keycloak) },
        SessionsService,
        UsersRepository,
        { provide: EMAIL_VERIFICATION, useValue: options.emailVerification ?? 'off' },
      ],
    };
  }
}
