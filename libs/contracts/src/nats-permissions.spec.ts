import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EventContract, RequestContract, StreamContract } from './contract.js';
import * as contracts from './index.js';
import {
  allCallContracts,
  instanceAddressedContracts,
  NATS_MAX_PINGS_OUT,
  NATS_PING_INTERVAL_SECONDS,
  natsAuthorization,
  natsClusterSettings,
  natsCalls,
  type NatsDeployable,
  natsDeployables,
  natsEventSubscriptions,
  natsPermissions,
} from './nats-permissions.js';
import { eventStreams } from './streams.js';
import { serviceNames, subjects } from './subjects.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

function leaves(node: unknown): string[] {
  if (typeof node === 'string') return [node];
  return Object.values(node as Record<string, unknown>).flatMap(leaves);
}

/** Whether a NATS subject pattern (`*` one token, `>` the rest) matches `subject`. */
function matches(pattern: string, subject: string): boolean {
  const want = pattern.split('.');
  const got = subject.split('.');
  for (const [i, token] of want.entries()) {
    if (token === '>') return got.length > i;
    if (i >= got.length || (token !== '*' && token !== got[i])) return false;
  }
  return want.length === got.length;
}

const mayPublish = (deployable: NatsDeployable, subject: string) =>
  natsPermissions(deployable).publish.allow.some((pattern) => matches(pattern, subject));
const maySubscribe = (deployable: NatsDeployable, subject: string) =>
  natsPermissions(deployable).subscribe.allow.some((pattern) => matches(pattern, subject));

/** The TypeScript sources of a deployable, tests left out. */
function sourcesOf(deployable: NatsDeployable): string {
  const dir = join(root, deployable === 'gateway' ? 'gateway/src' : `services/${deployable}/src`);
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'))
    .map((file) => readFileSync(join(dir, file), 'utf8'))
    .join('\n');
}

const exported = contracts as unknown as Record<string, unknown>;

/** The contract a source expression names (`usageContracts.consume`, `runLookupContract`). */
function contractNamed(expression: string): unknown {
  const [name, member] = expression.split('.');
  const value = exported[name ?? ''];
  return member ? (value as Record<string, unknown> | undefined)?.[member] : value;
}

function subjectsIn(source: string, pattern: RegExp): string[] {
  return [
    ...new Set(
      [...source.matchAll(pattern)]
        .map((match) => contractNamed(match[1] ?? ''))
        .filter((contract): contract is RequestContract | StreamContract | EventContract =>
          Boolean(contract && typeof contract === 'object' && 'subject' in contract),
        )
        .map((contract) => contract.subject),
    ),
  ].sort();
}

describe(natsPermissions.name, () => {
  it("keeps the community service's credentials off the usage service's requests and the debates service's", () => {
    for (const subject of leaves(subjects.usage)) {
      expect(mayPublish('community', subject)).toBe(false);
      expect(maySubscribe('community', subject)).toBe(false);
    }
    for (const subject of leaves(subjects.debates.debate)) {
      expect(maySubscribe('community', subject)).toBe(false);
    }
    expect(maySubscribe('community', '_INBOX.x')).toBe(false);
    expect(maySubscribe('community', '_INBOX_gateway.x')).toBe(false);
  });

  it('lets each service take its own requests only, and answer them on their reply subjects', () => {
    for (const service of serviceNames) {
      const mine = leaves(subjects[service]).filter(
        (subject) => !leaves(eventStreams).includes(subject),
      );
      for (const subject of mine) expect(maySubscribe(service, subject)).toBe(true);
      for (const other of serviceNames.filter((name) => name !== service)) {
        for (const subject of leaves(subjects[other])) {
          expect(maySubscribe(service, subject)).toBe(false);
        }
      }
      expect(natsPermissions(service).allow_responses).toBeTruthy();
    }
    expect(natsPermissions('gateway').allow_responses).toBeUndefined();
  });

  it('lets a deployable publish only its own events, and read replies only on its own inbox', () => {
    for (const stream of Object.values(eventStreams)) {
      for (const deployable of natsDeployables) {
        for (const subject of stream.subjects) {
          expect(mayPublish(deployable, subject)).toBe(deployable === stream.owner);
        }
      }
    }
    for (const deployable of natsDeployables) {
      for (const other of natsDeployables) {
        expect(maySubscribe(deployable, `_INBOX_${other}.abc.1`)).toBe(deployable === other);
      }
      expect(maySubscribe(deployable, '_INBOX.abc.1')).toBe(false);
      expect(mayPublish(deployable, '_INBOX_gateway.abc.1')).toBe(false);
      // A run's events reach the gateway's stream inboxes from the generation service alone, by
      // name: a reply granted by allow_responses ends when the responder changes servers.
      expect(mayPublish(deployable, '_INBOX_gateway.streams.abc')).toBe(
        deployable === 'generation',
      );
      expect(mayPublish(deployable, '_INBOX_identity.streams.abc')).toBe(false);
    }
  });

  it('gives a consumer of events the JetStream API of its own stream and filter only', () => {
    expect(
      mayPublish('community', '$JS.API.CONSUMER.CREATE.DEBATES_EVENTS.c.debates.debate.shared'),
    ).toBe(true);
    expect(
      mayPublish('community', '$JS.API.CONSUMER.CREATE.DEBATES_EVENTS.c.debates.debate.save'),
    ).toBe(false);
    expect(
      mayPublish('community', '$JS.API.CONSUMER.CREATE.IDENTITY_EVENTS.c.identity.user.created'),
    ).toBe(false);
    expect(mayPublish('community', '$JS.API.STREAM.DELETE.DEBATES_EVENTS')).toBe(false);
    expect(mayPublish('community', '$JS.API.STREAM.PURGE.DEBATES_EVENTS')).toBe(false);
    expect(mayPublish('community', '$KV.rate_limits.x')).toBe(false);
    expect(mayPublish('gateway', '$KV.rate_limits.x')).toBe(true);
  });

  it("lets only a stream's owner create or update it; its consumers may read its info", () => {
    const api = (verb: string, stream: string) => `$JS.API.STREAM.${verb}.${stream}`;
    for (const stream of Object.values(eventStreams)) {
      for (const deployable of natsDeployables) {
        const owner = deployable === stream.owner;
        const consumer = natsEventSubscriptions[deployable].some((event) =>
          (stream.subjects as readonly string[]).includes(event.subject),
        );
        expect(mayPublish(deployable, api('CREATE', stream.name))).toBe(owner);
        expect(mayPublish(deployable, api('UPDATE', stream.name))).toBe(owner);
        expect(mayPublish(deployable, api('INFO', stream.name))).toBe(owner || consumer);
      }
    }
    // The two consumers there are: neither may touch the stream it reads.
    expect(mayPublish('community', api('UPDATE', 'DEBATES_EVENTS'))).toBe(false);
    expect(mayPublish('usage', api('UPDATE', 'IDENTITY_EVENTS'))).toBe(false);
    expect(mayPublish('usage', api('CREATE', 'IDENTITY_EVENTS'))).toBe(false);
  });
});

describe('the NATS call graph', () => {
  it('has a contract for every request subject of the subjects map', () => {
    const called = allCallContracts.map((contract) => contract.subject).sort();
    const requests = leaves(subjects).filter((subject) => !leaves(eventStreams).includes(subject));
    expect(called).toEqual(requests.sort());
  });

  it.each(natsDeployables)(
    'lists what %s calls of other owners, as its code does',
    (deployable) => {
      const referenced = subjectsIn(
        sourcesOf(deployable),
        /\b([a-z][A-Za-z]*Contracts\.[A-Za-z]+|runLookupContract)\b/g,
      ).filter((subject) => !subject.startsWith(`${deployable}.`));
      expect(natsCalls[deployable].map((contract) => contract.subject).sort()).toEqual(referenced);
    },
  );

  it.each(natsDeployables)('lists the events %s consumes, as its code does', (deployable) => {
    const consumed = subjectsIn(sourcesOf(deployable), /events\.subscribe\(\s*(\w+)/g);
    expect(natsEventSubscriptions[deployable].map((event) => event.subject).sort()).toEqual(
      consumed,
    );
  });

  it('lists the requests answered on the instance that holds a run, as the handlers say', () => {
    const handlers = subjectsIn(
      serviceNames.map(sourcesOf).join('\n'),
      /@HandleRequest\(\s*([\w.]+),\s*\{\s*onThisInstance: true/g,
    );
    expect(instanceAddressedContracts.map((contract) => contract.subject).sort()).toEqual(handlers);
  });
});

describe(natsAuthorization.name, () => {
  const passwords = Object.fromEntries(
    natsDeployables.map((deployable) => [deployable, `secret of ${deployable}`]),
  ) as Record<NatsDeployable, string>;

  it('names one user per deployable, with its permissions', () => {
    const sut = natsAuthorization(passwords);
    for (const deployable of natsDeployables) {
      expect(sut).toContain(`user: "${deployable}"`);
      expect(sut).toContain(`password: "secret of ${deployable}"`);
    }
    expect(sut).toContain('"_INBOX_community.>"');
  });

  it("lets the services that stream reply to a harness's streams only where it has one", () => {
    const streamsToHarness = '"_INBOX.streams.>"';
    expect(natsAuthorization(passwords)).not.toContain(streamsToHarness);
    const sut = natsAuthorization(passwords, [{ user: 'harness', password: 'harness secret' }]);
    // Once: in the generation service's publish permissions, the one service that streams.
    expect(sut.split(streamsToHarness)).toHaveLength(2);
    const generation = sut.slice(sut.indexOf('user: "generation"'), sut.indexOf('user: "debates"'));
    expect(generation).toContain(streamsToHarness);
  });

  it('quotes a password with quotes and backslashes so that it stays one string', () => {
    const sut = natsAuthorization({ ...passwords, usage: 'a"b\\c' });
    expect(sut).toContain('password: "a\\"b\\\\c"');
  });

  it('refuses a password the server would read otherwise', () => {
    expect(() => natsAuthorization({ ...passwords, usage: 'line\nbreak' })).toThrow(/control/);
    expect(() => natsAuthorization({ ...passwords, usage: '$2a$11$abc' })).toThrow(/bcrypt/);
    expect(() => natsAuthorization({ ...passwords, usage: '' })).toThrow(/must be set/);
  });
});

describe(natsClusterSettings.name, () => {
  it('names the server, sets the pings and routes it to every member of the debate cluster', () => {
    const routes = ['nats-route://nats-1:6222', 'nats-route://nats-2:6222'];
    expect(natsClusterSettings({ serverName: 'nats-1', listen: '0.0.0.0:6222', routes })).toBe(
      [
        'server_name: "nats-1"',
        `ping_interval: "${NATS_PING_INTERVAL_SECONDS}s"`,
        `ping_max: ${NATS_MAX_PINGS_OUT}`,
        'cluster {',
        '  name: "debate"',
        '  listen: "0.0.0.0:6222"',
        '  routes: [',
        '    "nats-route://nats-1:6222"',
        '    "nats-route://nats-2:6222"',
        '  ]',
        '}',
        '',
      ].join('\n'),
    );
  });
});
