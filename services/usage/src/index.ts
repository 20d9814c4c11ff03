export { type UsageServiceOptions, UsageServiceModule } from './usage-service.module.js';
export { usageEnvSchema, usageRulesEnvSchema } from './usage.config.js';
export { type Clock, UsageLedger, usageRules } from './allowance/ledger.js';
