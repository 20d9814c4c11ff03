import { inProcessTransport } from '@debate/nest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { InjectOptions } from 'fastify';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGateway } from '../create-gateway.js';
import { registerSecurityHeaders } from './security-headers.js';

const POLICY =
  "default-src 'self';connect-src 'self';script-src 'self';script-src-attr 'none';" +
  "style-src 'self';object-src 'none';base-uri 'self';form-action 'self';" +
  "frame-ancestors 'none'";

const answers: readonly [string, InjectOptions, number][] = [
  ['the web app', { method: 'GET', url: '/' }, 200],
  ['a deep link', { method: 'GET', url: '/history' }, 200],
  ["a shared debate's page", { method: 'GET', url: '/community/debate/not-a-debate' }, 200],
  ['a script of the web app', { method: 'GET', url: '/assets/index-abc123.js' }, 200],
  ['a missing file', { method: 'GET', url: '/assets/missing.js' }, 404],
  ['a page a launcher adds afterwards', { method: 'GET', url: '/auth/realms/debate/page' }, 200],
  [
    'the GraphQL API',
    { method: 'POST', url: '/graphql', payload: { query: '{ __typename }' } },
    200,
  ],
];

describe(registerSecurityHeaders.name, () => {
  let sut: NestFastifyApplication;
  let webDistDir: string;
  const inject = (request: InjectOptions) => sut.getHttpAdapter().getInstance().inject(request);

  beforeAll(async () => {
    webDistDir = mkdtempSync(join(tmpdir(), 'security-headers-'));
    mkdirSync(join(webDistDir, 'assets'));
    writeFileSync(
      join(webDistDir, 'index.html'),
      '<!doctype html><html><head><title>AI Debate</title></head><body></body></html>',
    );
    writeFileSync(join(webDistDir, 'assets/index-abc123.js'), 'console.log("app");');
    sut = await createGateway({
      transport: inProcessTransport(),
      logLevel: 'silent',
      webDistDir,
      trustProxy: true,
    });
    // As `npm start` adds the embedded issuer's routes.
    await sut
      .getHttpAdapter()
      .getInstance()
      .register(async (scope) => scope.get('/realms/debate/page', async () => 'a page'), {
        prefix: '/auth',
      });
    await sut.init();
  });

  afterAll(async () => {
    await sut?.close();
    rmSync(webDistDir, { recursive: true, force: true });
  });

  it.each(answers)('puts the CSP and the browser protections on %s', async (_, request, status) => {
    const response = await inject(request);

    expect(response.statusCode).toBe(status);
    expect(response.headers).toMatchObject({
      'content-security-policy': POLICY,
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
    });
    expect(response.headers).not.toHaveProperty('strict-transport-security');
  });

  it('still answers GraphQL and serves the files', async () => {
    const graphql = await inject({
      method: 'POST',
      url: '/graphql',
      payload: { query: '{ __typename }' },
    });
    const script = await inject({ method: 'GET', url: '/assets/index-abc123.js' });

    expect(graphql.json()).toEqual({ data: { __typename: 'Query' } });
    expect(script.body).toBe('console.log("app");');
    expect(script.headers['content-type']).toMatch(/javascript/);
  });

  it('asks for HTTPS from then on (HSTS) only when the request came over TLS', async () => {
    const overTls = await inject({
      method: 'GET',
      url: '/',
      headers: { 'x-forwarded-proto': 'https' },
    });
    const overHttp = await inject({
      method: 'GET',
      url: '/',
      headers: { 'x-forwarded-proto': 'http' },
    });

    expect(overTls.headers['strict-transport-security']).toBe(
      'max-age=31536000; includeSubDomains',
    );
    expect(overHttp.headers).not.toHaveProperty('strict-transport-security');
  });
});
