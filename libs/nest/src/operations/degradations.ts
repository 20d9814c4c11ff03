/**
 * What works, but not well (a model whose last turns all failed): each part of the process
 * registers what it knows under a name, and every operations port of the process reports it on
 * /health/ready as `degraded` without failing readiness: a degraded deployable still takes
 * traffic. In `npm start`'s single process that is the gateway's port; in a cluster, the
 * generation service's.
 */
export type DegradationSource = () => readonly string[];

const sources = new Map<string, DegradationSource>();

/** Reports `source` under `name` (replacing an earlier one); the function returned stops it. */
export function reportDegradations(name: string, source: DegradationSource): () => void {
  sources.set(name, source);
  return () => {
    if (sources.get(name) === source) sources.delete(name);
  };
}

/** What is degraded now, by name; only names with something degraded. */
export function currentDegradations(): Record<string, readonly string[]> {
  return Object.fromEntries(
    [...sources.entries()].flatMap(([name, source]) => {
      const degraded = source();
      return degraded.length > 0 ? [[name, degraded]] : [];
    }),
  );
}
