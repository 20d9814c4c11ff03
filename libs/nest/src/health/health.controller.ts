import { type HealthCheckResponse, healthContracts, type ServiceName } from '@debate/contracts';
import { Controller, type Type } from '@nestjs/common';
import { HandleRequest } from '../rpc/handle.decorator.js';

/** Builds the controller that answers `<service>.health.check` for one service. */
export function createHealthController(service: ServiceName): Type<unknown> {
  const startedAt = Date.now();

  @Controller()
  class HealthController {
    @HandleRequest(healthContracts[service])
    check(): HealthCheckResponse {
      return { service, status: 'up', uptimeSeconds: Math.round((Date.now() - startedAt) / 1000) };
    }
  }

  Object.defineProperty(HealthController, 'name', { value: `${service}HealthController` });
  return HealthController;
}
