import {
  eventStreams,
  identityContracts,
  isRefusal,
  type Session,
  type SignInRefusal,
  subjects,
  userCreatedEvent,
} from '@debate/contracts';
import { start as startStore } from '@debate/embedded-mongo';
import {
  createClientProxy,
  InProcessEventLog,
  inProcessTransport,
  natsTransport,
  ServiceClient,
  startService,
  type TransportConfig,
} from '@debate/nest';
import { type RunningNats, startNatsServer } from '@debate/nest/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import type { INestMicroservice } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import mongoose from 'mongoose';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IdentityServiceModule } from '../identity-service.module.js';
import { serveEmbeddedIssuer, type ServedIssuer } from '../issuer/index.js';

function session(outcome: Session | SignInRefusal): Session {
  if (isRefusal(outcome)) throw new Error(`refused: ${outcome.refused} (${outcome.message})`);
  return outcome;
}

// The identity service as it runs: over real NATS (JetStream on), its documents in the embedded
// MongoDB-compatible server, signing in over HTTP against the embedded Keycloak-compatible issuer.
describe('the identity service', () => {
  let dataDir: string;
  let store: Awaited<ReturnType<typeof startStore>>;
  let nats: RunningNats;
  let issuer: ServedIssuer;
  let transport: TransportConfig;
  let service: INestMicroservice;
  let client: ServiceClient;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'identity-'));
    store = await startStore({ port: 0, dbPath: join(dataDir, 'mongo') });
    nats = await startNatsServer();
    issuer = await serveEmbeddedIssuer({
      mongoUrl: store.uri,
      dataDir,
      port: 0,
      host: '127.0.0.1',
    });
    transport = natsTransport(nats.url);
    service = await startService({
      service: 'identity',
      module: IdentityServiceModule.register({
        logLevel: 'silent',
        transport,
        mongoUrl: store.uri,
        keycloak: {
          baseUrl: issuer.baseUrl,
          realm: 'debate',
          webClientId: 'debate-web',
          serviceClientId: 'identity-service',
          serviceSecret: issuer.serviceSecret,
        },
      }),
      transport,
    });
    client = new ServiceClient(createClientProxy(transport, 'identity-test'), 10_000);
  }, 30_000);

  afterAll(async () => {
    await client?.close();
    await service?.close();
    await issuer?.close();
    await nats?.stop();
    await store?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const signUp = (email: string, password: string) =>
    client.request(identityContracts.signUp, { email, password });
  const signIn = (email: string, password: string) =>
    client.request(identityContracts.signIn, { email, password });

  it('signs a new user up, creating the user document with isPro false', async () => {
    const created = session(await signUp('ada@example.org', 'correct horse'));
    expect(created.user).toMatchObject({
      email: 'ada@example.org',
      displayName: null,
      photoURL: null,
      isPro: false,
    });
    expect(created.refreshToken).not.toBe('');
    const found = await client.request(identityContracts.getUser, { id: created.user.id });
    expect(found.user).toEqual(created.user);
  });

  it('signs the same user in later, keeping the document and its creation time', async () => {
    const first = session(await signIn('ada@example.org', 'correct horse'));
    const again = session(await signIn('ADA@example.org', 'correct horse'));
    expect(again.user).toEqual(first.user);
  });

  it("reports the realm's refusals with Keycloak's messages", async () => {
    expect(await signIn('ada@example.org', 'wrong horse')).toEqual({
      refused: 'invalid_credentials',
      message: 'Invalid user credentials',
    });
    expect(await signUp('ada@example.org', 'another horse')).toEqual({
      refused: 'email_taken',
      message: 'User exists with same email',
    });
    expect(await signUp('bo@example.org', 'short')).toEqual({
      refused: 'password_policy',
      message: 'Invalid password: minimum length 8.',
    });
    expect(await signIn('bo@example.org', 'short')).toMatchObject({
      refused: 'invalid_credentials',
    });
  });

  it('refreshes a session once per refresh token, and signs out', async () => {
    const signedIn = session(await signIn('ada@example.org', 'correct horse'));
    const refreshed = session(
      await client.request(identityContracts.refresh, { refreshToken: signedIn.refreshToken }),
    );
    expect(refreshed.user.id).toBe(signedIn.user.id);
    expect(
      await client.request(identityContracts.refresh, { refreshToken: signedIn.refreshToken }),
    ).toMatchObject({ refused: 'session_expired' });
    expect(
      await client.request(identityContracts.signOut, { refreshToken: refreshed.refreshToken }),
    ).toEqual({ signedOut: true });
    expect(
      await client.request(identityContracts.refresh, { refreshToken: refreshed.refreshToken }),
    ).toMatchObject({ refused: 'session_expired' });
  });

  it('announces a user exactly once under 20 concurrent first sign-ins', async () => {
    // The user exists in the realm but has never signed in to the platform.
    const admin = await fetch(`${issuer.realmUrl}/protocol/openid-connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'identity-service',
        client_secret: issuer.serviceSecret,
      }).toString(),
    });
    const { access_token: adminToken } = (await admin.json()) as { access_token: string };
    const created = await fetch(`${issuer.baseUrl}/admin/realms/debate/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
      body: JSON.stringify({
        email: 'cy@example.org',
        enabled: true,
        credentials: [{ type: 'password', value: 'twenty at once', temporary: false }],
      }),
    });
    expect(created.status).toBe(201);

    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => signIn('cy@example.org', 'twenty at once')),
    );
    const ids = new Set(outcomes.map((outcome) => session(outcome).user.id));
    expect(ids.size).toBe(1);
    const [userId] = ids;

    const nc = await connect({ servers: nats.url });
    try {
      const jsm = await jetstreamManager(nc);
      const stream = eventStreams.identity.name;
      // One event per user: ada (signed up above) and cy, whatever the concurrency.
      const info = await jsm.streams.info(stream);
      expect(info.state.messages).toBe(2);
      const last = await jsm.streams.getMessage(stream, {
        last_by_subj: subjects.identity.user.created,
      });
      expect(last?.json()).toMatchObject({ userId, email: 'cy@example.org' });
      expect(last?.header.get('Nats-Msg-Id')).toBe(userId);
    } finally {
      await nc.close();
    }
    const connection = await mongoose
      .createConnection(store.uri, { dbName: 'identity' })
      .asPromise();
    try {
      const users = await connection
        .collection('users')
        .find({ _id: userId as never })
        .toArray();
      expect(users).toHaveLength(1);
      expect(users[0]?.['announcedAt']).toBeInstanceOf(Date);
    } finally {
      await connection.close();
    }
  }, 60_000);
});

describe('the identity event log in single-process mode', () => {
  it('keeps one event per id within the window, as JetStream does', async () => {
    const transport = inProcessTransport();
    if (transport.kind !== 'in-process') throw new Error('unreachable');
    const received: string[] = [];
    transport.bus.subscribe(subjects.identity.user.created, undefined, (data) =>
      received.push(data),
    );
    const log = new InProcessEventLog(transport.bus);
    const payload = { userId: 'u1', email: 'u1@example.org', createdAt: new Date(0).toISOString() };
    const results = await Promise.all(
      Array.from({ length: 5 }, () => log.publish(userCreatedEvent, payload, 'u1')),
    );
    expect(results.filter((result) => !result.duplicate)).toHaveLength(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual([JSON.stringify(payload)]);
  });
});
