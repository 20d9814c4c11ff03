export { type UsageServiceOptions, UsageServiceModule } from './usage-service.module.js';
export { usageEnvSchema, usageRulesEnvSchema } from './usage.config.js';
export { AllowanceService } from './allowance/allowance.service.js';
export { type Clock, usageRules } from './allowance/usage-rules.js';
