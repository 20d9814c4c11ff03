import { processRegistry } from '@debate/nest';

/** A metric's value for these labels (0 when it has none yet), as /metrics would show it. */
export async function metricValue(name: string, labels: Record<string, string>): Promise<number> {
  const found = await processRegistry().getSingleMetric(name)?.get();
  const value = found?.values.find((entry) =>
    Object.entries(labels).every(([key, wanted]) => entry.labels[key] === wanted),
  );
  return value?.value ?? 0;
}
