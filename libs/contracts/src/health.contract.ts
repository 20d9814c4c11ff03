import { z } from 'zod';
import { defineRequest } from './contract.js';
import { serviceNames, subjects } from './subjects.js';

export const HealthCheckRequest = z.object({}).strict();

export const HealthCheckResponse = z
  .object({
    service: z.enum(serviceNames),
    status: z.literal('up'),
    uptimeSeconds: z.number().nonnegative(),
  })
  .strict();
export type HealthCheckResponse = z.output<typeof HealthCheckResponse>;

export const healthContracts = {
  identity: defineRequest(subjects.identity.health.check, HealthCheckRequest, HealthCheckResponse),
  usage: defineRequest(subjects.usage.health.check, HealthCheckRequest, HealthCheckResponse),
  generation: defineRequest(
    subjects.generation.health.check,
    HealthCheckRequest,
    HealthCheckResponse,
  ),
  debates: defineRequest(subjects.debates.health.check, HealthCheckRequest, HealthCheckResponse),
  community: defineRequest(
    subjects.community.health.check,
    HealthCheckRequest,
    HealthCheckResponse,
  ),
} as const;
