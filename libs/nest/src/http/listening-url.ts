import type { AddressInfo } from 'node:net';

/**
 * The http:// base URL a server that has started listening answers on, on the port the system
 * gave it (port 0), naming a wildcard host ('0.0.0.0', '::') as localhost.
 */
export function listeningUrl(
  server: { address(): string | AddressInfo | null },
  host: string,
): string {
  const address = server.address();
  if (!address || typeof address !== 'object') {
    throw new Error('The server is not listening on a TCP port');
  }
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return `http://${shown}:${address.port}`;
}
