/**
 * The size a scenario runs at. Without `SIZE`, each scenario's full size (`npm run load`, or
 * `k6 run` by hand); with `-e SIZE=smoke`, the small one CI runs (`npm run load:smoke`): a few
 * VUs for 10 to 20 seconds, each scenario's own thresholds unchanged. A variable of the
 * scenario's own (`-e VUS=…`, `-e DURATION=…`) wins over both sizes.
 */
const SIZE = __ENV['SIZE'] ?? 'full';
if (SIZE !== 'full' && SIZE !== 'smoke') {
  throw new Error(`SIZE must be full or smoke, not ${SIZE}`);
}
export const SMOKE = SIZE === 'smoke';

/** The scenario's variable `name` when set, else its value at this size. */
export function setting(name: string, full: string, smoke: string): string {
  return __ENV[name] ?? (SMOKE ? smoke : full);
}

/** The same for a number; a variable that is not a positive number stops the run. */
export function numberSetting(name: string, full: number, smoke: number): number {
  const value = Number(setting(name, String(full), String(smoke)));
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`${name} must be a positive number, not ${__ENV[name] ?? ''}`);
  }
  return value;
}
