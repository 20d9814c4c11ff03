import {
  natsAuthorization,
  natsCredentialEnv,
  type NatsDeployable,
  natsDeployables,
} from '@debate/contracts';
import { start as startStore } from '@debate/embedded-mongo';
import { natsTransport, type TransportConfig } from '@debate/nest';
import { type RunningNatsCluster, startNatsCluster, startNatsServer } from '@debate/nest/testing';
import { defaultGatewayLimits, type GatewayLimits } from '@debate/gateway';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type PlatformOptions,
  type RunningPlatform,
  startPlatform,
} from '../src/start-platform.js';

export interface TestPlatform {
  readonly platform: RunningPlatform;
  readonly mongoUrl: string;
  teardown(): Promise<void>;
}

/**
 * The platform as `npm start` runs it, on `transport`, with a fresh embedded store and data
 * directory (or the MongoDB of MONGO_URL).
 */
export interface NatsTestPlatform extends TestPlatform {
  readonly natsUrl: string;
  /** Each deployable's NATS password (its user is its name). */
  readonly natsPasswords: Readonly<Record<NatsDeployable, string>>;
}

export type ExtraOptions = Partial<
  Pick<
    PlatformOptions,
    | 'speakers'
    | 'testAccountEmail'
    | 'trustProxy'
    | 'abandonedRunAfterMs'
    | 'startsPerMinute'
    | 'keycloak'
    | 'limits'
    | 'emailVerification'
  >
>;

/**
 * The gateway's limits in the tests: as shipped, without the rate limits (every test signs up
 * from 127.0.0.1). The rate-limit tests pass the shipped ones.
 */
export const testLimits = (): GatewayLimits => ({ ...defaultGatewayLimits(), rateLimits: 'off' });

/** A new random password for each deployable's NATS user. */
export function newNatsPasswords(): Record<NatsDeployable, string> {
  return Object.fromEntries(
    natsDeployables.map((deployable) => [deployable, randomBytes(18).toString('base64url')]),
  ) as Record<NatsDeployable, string>;
}

/**
 * The broker of the system tier, as start:cluster runs it: each deployable its own user with
 * its permissions (natsPermissions). The tests' own clients, which play a caller of any service
 * (or a forger of events), connect without credentials as the unrestricted `harness` user;
 * nats-permissions.test.ts runs the platform on the production configuration, without it.
 */
export function systemTierNatsConfig(passwords: Record<NatsDeployable, string>): string {
  const harness = { user: 'harness', password: randomBytes(18).toString('base64url') };
  return `no_auth_user: "harness"\n${natsAuthorization(passwords, [harness])}`;
}

/**
 * The platform with each service and the gateway as its own NestJS application, each
 * connecting as its own NATS user, over a real nats-server (JetStream on) of its own
 * (`config`: its authorization, by default systemTierNatsConfig); teardown stops both.
 */
export async function startTestPlatformOverNats(
  extra: ExtraOptions = {},
  natsConfig: (passwords: Record<NatsDeployable, string>) => string = systemTierNatsConfig,
): Promise<NatsTestPlatform> {
  const natsPasswords = newNatsPasswords();
  const nats = await startNatsServer({ config: natsConfig(natsPasswords) });
  return overBroker(nats, natsPasswords, extra);
}

/**
 * The platform over three nats-servers clustered as production runs them, its streams and
 * key-value buckets at 3 replicas (JETSTREAM_REPLICAS), with the system tier's authorization
 * on each server; `cluster` lets a test kill and restart each server.
 */
export async function startTestPlatformOverNatsCluster(
  extra: ExtraOptions = {},
): Promise<NatsTestPlatform & { readonly cluster: RunningNatsCluster }> {
  const natsPasswords = newNatsPasswords();
  const cluster = await startNatsCluster({ config: systemTierNatsConfig(natsPasswords) });
  return { ...(await overBroker(cluster, natsPasswords, extra, 3)), cluster };
}

async function overBroker(
  nats: { readonly url: string; stop(): Promise<void> },
  natsPasswords: Record<NatsDeployable, string>,
  extra: ExtraOptions,
  jetstreamReplicas?: number,
): Promise<NatsTestPlatform> {
  try {
    const users = Object.fromEntries(
      natsDeployables.map((user) => [user, { user, password: natsPasswords[user] }]),
    );
    const running = await startTestPlatform(
      natsTransport(nats.url, { users, ...(jetstreamReplicas ? { jetstreamReplicas } : {}) }),
      extra,
    );
    return {
      ...running,
      natsUrl: nats.url,
      natsPasswords,
      teardown: async () => {
        await running.teardown();
        await nats.stop();
      },
    };
  } catch (error) {
    await nats.stop();
    throw error;
  }
}

export async function startTestPlatform(
  transport: TransportConfig,
  extra: ExtraOptions = {},
): Promise<TestPlatform> {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-test-'));
  const store = process.env['MONGO_URL']
    ? undefined
    : await startStore({ port: 0, dbPath: join(dataDir, 'mongo') });
  const mongoUrl = store?.uri ?? process.env['MONGO_URL'] ?? '';
  try {
    const platform = await startPlatform({
      transport,
      port: 0,
      host: '127.0.0.1',
      logLevel: 'silent',
      mongoUrl,
      dataDir,
      limits: testLimits(),
      ...extra,
    });
    return {
      platform,
      mongoUrl,
      teardown: async () => {
        await platform.stop();
        await store?.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await store?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

export interface DeployableProcess {
  readonly child: ChildProcess;
  /** Its exit code once it exits (null when a signal ended it). */
  readonly exited: Promise<number | null>;
  /** What it has written to stdout so far. */
  output(): string;
}

export type GenerationProcess = DeployableProcess;

/**
 * A deployable's built entry point as a process of its own, as its own NATS user,
 * on the platform's NATS and store, with `env` added to this process's environment. Resolves
 * once its stdout matches `ready`, with the match.
 */
async function startDeployableProcess(
  running: NatsTestPlatform,
  deployable: NatsDeployable,
  env: Record<string, string>,
  ready: RegExp,
): Promise<DeployableProcess & { readonly ready: RegExpExecArray }> {
  const entry =
    deployable === 'gateway' ? 'gateway/dist/main.js' : `services/${deployable}/dist/main.js`;
  const child = spawn(process.execPath, [entry], {
    cwd: fileURLToPath(new URL('../../', import.meta.url)),
    env: {
      ...process.env,
      NATS_URL: running.natsUrl,
      [natsCredentialEnv.user]: deployable,
      [natsCredentialEnv.password]: running.natsPasswords[deployable],
      MONGO_URL: running.mongoUrl,
      OPS_PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let output = '';
  const found = await new Promise<RegExpExecArray>((resolve, reject) => {
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = ready.exec(output);
      if (match) resolve(match);
    });
    void exited.then((code) => reject(new Error(`${entry} exited (${code}): ${output}`)));
  });
  return { child, exited, output: () => output, ready: found };
}

/**
 * Another instance of the generation service beside the one the platform runs, with `env`
 * added. Resolves once it listens.
 */
export async function startGenerationProcess(
  running: NatsTestPlatform,
  env: Record<string, string>,
): Promise<GenerationProcess> {
  return startDeployableProcess(running, 'generation', env, /microservice successfully started/);
}

/**
 * Another gateway beside the platform's (a second replica): the built gateway as a process of
 * its own on the platform's NATS, accepting the platform's tokens, with `env` added (by default
 * without rate limits, as testLimits). Resolves once it listens.
 */
export async function startGatewayProcess(
  running: NatsTestPlatform,
  env: Record<string, string> = {},
): Promise<DeployableProcess & { readonly url: string }> {
  const gateway = await startDeployableProcess(
    running,
    'gateway',
    {
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      AUTH_ISSUER_URL: `${running.platform.url}/auth/realms/debate`,
      RATE_LIMITS: 'off',
      ...env,
    },
    /The gateway is listening at (http:\/\/[^,\s"]+)/,
  );
  return { ...gateway, url: gateway.ready[1] ?? '' };
}
