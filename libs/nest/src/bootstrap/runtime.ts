import { setFlagsFromString } from 'node:v8';

/**
 * V8 settings every deployable runs with, set at the start of its process (so they hold however
 * it is started: image, compose, Kubernetes, start:cluster, npm start).
 *
 * `--no-allocation-site-pretenuring`: after a burst of concurrent requests (200 votes at once),
 * V8 saw the objects of the request path survive and began allocating them straight into the
 * old generation; it went on doing so once the burst was over, though they die young. The
 * community service then promoted ~2 MB per scavenge (3-7 ms each instead of ~1), ran a
 * Mark-Compact every second or two, and every request arriving meanwhile waited (bench:gateway's
 * p99). Without pretenuring, the same load after the same burst scavenges in ~1 ms.
 */
export function tuneRuntime(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
