// The one entry point of `start:cluster --replicas N`: a TCP proxy that hands each new
// connection (HTTP or WebSocket alike) to the next gateway in turn, as a Kubernetes Service or a
// load balancer would. A gateway that refuses the connection (killed, restarting) is skipped for
// the next one, so a client meets an error only for a connection that was already open on it.
import { createConnection, createServer } from 'node:net';

/**
 * Listens on `host`:`port` and spreads connections over `upstreams()` (a function, read for
 * every connection: the list may change as gateways restart). Resolves with the server once it
 * listens.
 */
export function startRoundRobin({ host, port, upstreams }) {
  let next = 0;
  const server = createServer((client) => {
    client.pause();
    const targets = upstreams();
    const tryFrom = (attempt) => {
      if (attempt >= targets.length) {
        client.destroy();
        return;
      }
      const target = targets[(next + attempt) % targets.length];
      const upstream = createConnection({ host: '127.0.0.1', port: target });
      let connected = false;
      upstream.on('error', () => {
        // Refused before a byte went through: the next gateway takes the connection.
        if (connected) client.destroy();
        else tryFrom(attempt + 1);
      });
      upstream.once('connect', () => {
        connected = true;
        next = (next + attempt + 1) % targets.length;
        client.on('error', () => upstream.destroy());
        client.pipe(upstream).pipe(client);
        client.resume();
      });
    };
    tryFrom(0);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
