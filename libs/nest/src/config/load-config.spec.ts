import { describe, expect, it } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import {
  ConfigError,
  loadConfig,
  natsSettingsOf,
  serviceEnvSchema,
  serviceMongoUrl,
} from './load-config.js';
import { natsConnectionOptions } from '../transport/nats.transport.js';

describe('loadConfig', () => {
  it('fills the defaults a fresh machine needs', () => {
    expect(loadConfig('usage', serviceEnvSchema, {})).toEqual({
      NATS_URL: 'nats://127.0.0.1:4222',
      MONGO_URL: 'mongodb://127.0.0.1:27017',
      LOG_LEVEL: 'info',
      NATS_REQUEST_TIMEOUT_MS: 5_000,
      DRAIN_TIMEOUT_MS: 10_000,
      OPS_PORT: 9464,
      OPS_HOST: '0.0.0.0',
    });
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig('usage', serviceEnvSchema, { LOG_LEVEL: '' }).LOG_LEVEL).toBe('info');
  });

  it('reads the values it is given', () => {
    const env = loadConfig('usage', serviceEnvSchema, {
      NATS_URL: 'nats://nats.internal:4222',
      MONGO_URL: 'mongodb://mongo.internal:27017/?replicaSet=rs0',
      LOG_LEVEL: 'debug',
      NATS_REQUEST_TIMEOUT_MS: '1500',
      DRAIN_TIMEOUT_MS: '120000',
      OPS_PORT: '9100',
      OPS_HOST: '10.0.0.5',
      JETSTREAM_REPLICAS: '3',
    });
    expect(env).toEqual({
      NATS_URL: 'nats://nats.internal:4222',
      MONGO_URL: 'mongodb://mongo.internal:27017/?replicaSet=rs0',
      LOG_LEVEL: 'debug',
      NATS_REQUEST_TIMEOUT_MS: 1_500,
      DRAIN_TIMEOUT_MS: 120_000,
      OPS_PORT: 9100,
      OPS_HOST: '10.0.0.5',
      JETSTREAM_REPLICAS: 3,
    });
  });

  it('takes a JetStream replica count from 1 to 5 (a NATS cluster of up to five)', () => {
    for (const value of ['0', '6', '2.5', 'three']) {
      expect(() => loadConfig('usage', serviceEnvSchema, { JETSTREAM_REPLICAS: value })).toThrow(
        /JETSTREAM_REPLICAS/,
      );
    }
    expect(
      loadConfig('usage', serviceEnvSchema, { JETSTREAM_REPLICAS: '5' }).JETSTREAM_REPLICAS,
    ).toBe(5);
  });

  it('puts MONGO_USERNAME and MONGO_PASSWORD into the MongoDB URL percent-encoded', () => {
    const env = loadConfig('usage', serviceEnvSchema, {
      MONGO_URL: 'mongodb://mongo-0.mongo-svc:27017,mongo-1.mongo-svc:27017/?authSource=usage',
      MONGO_USERNAME: 'usage',
      MONGO_PASSWORD: 'p@ss/w:rd%41',
    });
    const url = serviceMongoUrl(env);
    expect(url).toBe(
      'mongodb://usage:p%40ss%2Fw%3Ard%2541@mongo-0.mongo-svc:27017,mongo-1.mongo-svc:27017/?authSource=usage',
    );
    expect(decodeURIComponent(/:([^:@]+)@/.exec(url)?.[1] ?? '')).toBe('p@ss/w:rd%41');
    expect(serviceMongoUrl(loadConfig('usage', serviceEnvSchema, {}))).toBe(
      'mongodb://127.0.0.1:27017',
    );
  });

  it("connects as the deployable's NATS user when NATS_USER and NATS_PASSWORD are both set", () => {
    const caFile = fileURLToPath(import.meta.url);
    const env = loadConfig('usage', serviceEnvSchema, {
      NATS_USER: 'usage',
      NATS_PASSWORD: 'p"w\\d',
      NATS_TLS_CA_FILE: caFile,
    });
    expect(natsSettingsOf(env, 'usage')).toEqual({
      url: 'nats://127.0.0.1:4222',
      users: { usage: { user: 'usage', password: 'p"w\\d' } },
      tlsCaFile: caFile,
    });
    expect(natsSettingsOf(loadConfig('usage', serviceEnvSchema, {}), 'usage')).toEqual({
      url: 'nats://127.0.0.1:4222',
    });
  });

  it('refuses a NATS user without its password, a password without its user, and a missing CA file', () => {
    expect(() => loadConfig('usage', serviceEnvSchema, { NATS_USER: 'usage' })).toThrow(
      /NATS_PASSWORD: is required with NATS_USER/,
    );
    expect(() => loadConfig('usage', serviceEnvSchema, { NATS_PASSWORD: 'secret' })).toThrow(
      /NATS_USER: is required with NATS_PASSWORD/,
    );
    expect(() =>
      loadConfig('usage', serviceEnvSchema, { NATS_TLS_CA_FILE: '/nowhere/ca.pem' }),
    ).toThrow(/NATS_TLS_CA_FILE: must name a file that exists/);
  });

  it('refuses a MongoDB password without its user, and a user named twice', () => {
    expect(() => loadConfig('usage', serviceEnvSchema, { MONGO_PASSWORD: 'secret' })).toThrow(
      /MONGO_USERNAME: is required with MONGO_PASSWORD/,
    );
    expect(() =>
      loadConfig('usage', serviceEnvSchema, {
        MONGO_URL: 'mongodb://usage:secret@mongo:27017',
        MONGO_USERNAME: 'usage',
      }),
    ).toThrow(/MONGO_URL: must not name a user when MONGO_USERNAME is set/);
  });

  it("takes a cluster's servers in NATS_URL, separated by commas, and each client connects to any", () => {
    const env = loadConfig('usage', serviceEnvSchema, {
      NATS_URL: 'tls://nats-1:4222,tls://nats-2:4222,tls://nats-3:4222',
    });
    expect(natsConnectionOptions(natsSettingsOf(env, 'usage'), 'usage').servers).toEqual([
      'tls://nats-1:4222',
      'tls://nats-2:4222',
      'tls://nats-3:4222',
    ]);
    for (const NATS_URL of [
      'nats://a:4222,',
      'nats://a:4222,http://b:4222',
      'nats://a:4222 nats://b',
    ]) {
      expect(() => loadConfig('usage', serviceEnvSchema, { NATS_URL })).toThrow(/NATS_URL/);
    }
  });

  it('names every bad variable in one error', () => {
    let caught: unknown;
    try {
      loadConfig('usage', serviceEnvSchema, {
        NATS_URL: 'http://localhost:4222',
        MONGO_URL: 'postgres://localhost',
        LOG_LEVEL: 'loud',
        NATS_REQUEST_TIMEOUT_MS: 'soon',
        DRAIN_TIMEOUT_MS: '-1',
        OPS_PORT: '70000',
        JETSTREAM_REPLICAS: '6',
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const message = (caught as ConfigError).message;
    expect(message).toMatch(/^Invalid environment for usage: /);
    for (const variable of [
      'NATS_URL',
      'MONGO_URL',
      'LOG_LEVEL',
      'NATS_REQUEST_TIMEOUT_MS',
      'DRAIN_TIMEOUT_MS',
      'OPS_PORT',
      'JETSTREAM_REPLICAS',
    ]) {
      expect(message).toContain(variable);
    }
    expect((caught as ConfigError).problems).toHaveLength(7);
  });
});
