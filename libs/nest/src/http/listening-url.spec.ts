import { describe, expect, it } from '@jest/globals';
import { createServer } from 'node:net';
import { listeningUrl } from './listening-url.js';

describe(listeningUrl.name, () => {
  it('names the port the system picked, and a wildcard host as localhost', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      expect(listeningUrl(server, '127.0.0.1')).toBe(`http://127.0.0.1:${port}`);
      expect(listeningUrl(server, '0.0.0.0')).toBe(`http://localhost:${port}`);
    } finally {
      server.close();
    }
    expect(() => listeningUrl(server, '127.0.0.1')).toThrow('not listening');
  });
});
