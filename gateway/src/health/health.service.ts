import { healthContracts, serviceNames } from '@debate/contracts';
import { ServiceClient } from '@debate/nest';
import { Inject, Injectable } from '@nestjs/common';
import { type ServiceHealthModel, ServiceStatus } from './models/service-health.model.js';

export const HEALTH_TIMEOUT_MS = Symbol('HEALTH_TIMEOUT_MS');

/** Asks every service for its health over the transport, all at once. */
@Injectable()
export class HealthService {
  constructor(
    private readonly services: ServiceClient,
    @Inject(HEALTH_TIMEOUT_MS) private readonly timeoutMs: number,
  ) {}

  check(): Promise<ServiceHealthModel[]> {
    return Promise.all(
      serviceNames.map(async (service) => {
        const started = Date.now();
        try {
          await this.services.request(healthContracts[service], {}, { timeoutMs: this.timeoutMs });
          return {
            service,
            status: ServiceStatus.up,
            latencyMs: Date.now() - started,
            reason: null,
          };
        } catch (error) {
          return {
            service,
            status: ServiceStatus.down,
            latencyMs: null,
            reason: error instanceof Error ? error.message : String(error),
          };
        }
      }),
    );
  }
}
