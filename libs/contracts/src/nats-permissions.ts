import { catalogContracts } from './catalog.contract.js';
import { communityDebateContracts } from './community.contract.js';
import type { EventContract, RequestContract, StreamContract } from './contract.js';
import { debatesContracts, debateSharedEvent, debateUnsharedEvent } from './debates.contract.js';
import { generationContracts, runLookupContract } from './generation.contract.js';
import { identityContracts, userCreatedEvent } from './identity.contract.js';
import { judgesContracts } from './judges.contract.js';
import { leaderboardContracts } from './leaderboard.contract.js';
import { rateLimitBuckets } from './rate-limits.js';
import { type EventStream, eventStreams, streamOf } from './streams.js';
import { type ServiceName, type Subject, serviceNames, subjects } from './subjects.js';
import { usageContracts } from './usage.contract.js';

/** Everything that connects to the broker: each its own NATS user, named after it. */
export const natsDeployables = [
  'gateway',
  'identity',
  'usage',
  'generation',
  'debates',
  'community',
] as const;
export type NatsDeployable = (typeof natsDeployables)[number];

/** The environment variables of a deployable's NATS identity (the user is the deployable's name). */
export const natsCredentialEnv = { user: 'NATS_USER', password: 'NATS_PASSWORD' } as const;

/** A nats-server user's permissions, in the server's own shape. */
export interface NatsPermissions {
  readonly publish: { readonly allow: string[] };
  readonly subscribe: { readonly allow: string[] };
  /**
   * Whether the user may answer the requests it receives, on their reply subjects only: the
   * server lets it publish `max` messages to each (-1: any number) within `expires`.
   */
  readonly allow_responses?: boolean | { readonly max: number; readonly expires?: string };
}

type Callable = RequestContract | StreamContract;

/** Every request and stream contract, by the subject it travels on. */
export const allCallContracts: readonly Callable[] = [
  ...Object.values(identityContracts),
  ...Object.values(usageContracts),
  ...Object.values(catalogContracts),
  ...Object.values(generationContracts),
  runLookupContract,
  ...Object.values(debatesContracts),
  ...Object.values(communityDebateContracts),
  ...Object.values(leaderboardContracts),
  ...Object.values(judgesContracts),
];

/**
 * Whom each deployable calls: the requests it sends to another owner. A service answers its own
 * subjects and never calls them. nats-permissions.spec.ts checks this against the code.
 */
export const natsCalls: Readonly<Record<NatsDeployable, readonly Callable[]>> = {
  gateway: [
    identityContracts.signIn,
    identityContracts.signUp,
    identityContracts.refresh,
    identityContracts.signOut,
    identityContracts.providers,
    identityContracts.startProvider,
    identityContracts.completeProvider,
    identityContracts.getUser,
    identityContracts.verificationStatus,
    identityContracts.sendVerification,
    usageContracts.stats,
    catalogContracts.generationCatalog,
    generationContracts.start,
    generationContracts.watch,
    generationContracts.stop,
    generationContracts.submitTurn,
    // Whether a silent watched run's instance is still there (endWhenInstanceLost).
    runLookupContract,
    debatesContracts.save,
    debatesContracts.list,
    debatesContracts.get,
    debatesContracts.unsaved,
    debatesContracts.share,
    debatesContracts.unshare,
    debatesContracts.delete,
    communityDebateContracts.get,
    communityDebateContracts.rank,
    communityDebateContracts.vote,
    communityDebateContracts.standBefore,
    communityDebateContracts.toggleStar,
    communityDebateContracts.mergeStars,
    leaderboardContracts.get,
    leaderboardContracts.getListing,
    leaderboardContracts.setListing,
    judgesContracts.get,
  ],
  identity: [],
  usage: [],
  generation: [
    usageContracts.consume,
    usageContracts.refund,
    usageContracts.settle,
    debatesContracts.keepRun,
  ],
  debates: [usageContracts.lastRun, runLookupContract],
  community: [],
};

/** The events each deployable consumes (a durable consumer of the owner's stream). */
export const natsEventSubscriptions: Readonly<Record<NatsDeployable, readonly EventContract[]>> = {
  gateway: [],
  identity: [],
  usage: [userCreatedEvent],
  generation: [],
  debates: [],
  community: [debateSharedEvent, debateUnsharedEvent],
};

/** The JetStream key-value buckets each deployable keeps (the gateway's shared rate limits). */
const natsBuckets: Readonly<Record<NatsDeployable, readonly string[]>> = {
  gateway: Object.values(rateLimitBuckets),
  identity: [],
  usage: [],
  generation: [],
  debates: [],
  community: [],
};

/**
 * Where a deployable's replies arrive: `_INBOX_<deployable>` rather than nats.js's `_INBOX`, so
 * that each may read its own replies and no one else's.
 */
export function natsInboxPrefix(deployable: NatsDeployable): string {
  return `_INBOX_${deployable}`;
}

/**
 * Where the items of a streamed reply arrive, under the caller's inbox prefix (`inboxPrefix`,
 * nats.js's `_INBOX` for a client of no deployable): `<prefix>.streams.<unique>`. The service
 * that streams may publish there by name (natsPermissions), not by allow_responses: the server
 * grants a reply to the one connection the request was delivered to, so a responder that moves
 * to another server of the cluster (its server lost) could send no further item, and the stream
 * would stall for ever. It can publish nothing but stream items there: it is the author of what
 * it streams anyway.
 */
export function natsStreamInboxPrefix(inboxPrefix: string): string {
  return `${inboxPrefix}.streams`;
}

export function isNatsDeployable(name: string): name is NatsDeployable {
  return (natsDeployables as readonly string[]).includes(name);
}

function leaves(tree: object): Subject[] {
  return Object.values(tree).flatMap((value: unknown) =>
    typeof value === 'string' ? [value as Subject] : leaves(value as object),
  );
}

/**
 * The requests addressed to the instance that holds a run (see runInstanceKey), on
 * `<subject>.<instance key>`; nats-permissions.spec.ts checks the handlers say the same.
 */
export const instanceAddressedContracts: readonly Callable[] = [
  generationContracts.watch,
  generationContracts.stop,
  generationContracts.submitTurn,
  runLookupContract,
];

/** A request's subject, and its per-instance form when it has one. */
const addressed = (subject: Subject) =>
  instanceAddressedContracts.some((contract) => contract.subject === subject)
    ? [subject, `${subject}.*`]
    : [subject];

/** The request subjects a service answers: everything under its name that is not an event. */
function requestSubjectsOf(service: ServiceName): Subject[] {
  return leaves(subjects[service]).filter((subject) => !streamOf(subject));
}

function isService(deployable: NatsDeployable): deployable is ServiceName {
  return (serviceNames as readonly string[]).includes(deployable);
}

/**
 * The JetStream API of a stream its owner keeps: read it, and create it or bring it up to date
 * as declared (ensureStream in event-log.ts). Only the owner: UPDATE could seal a stream, shrink
 * its limits (a purge in effect) or add subjects to it.
 */
const ownedStreamApi = (stream: string) =>
  ['INFO', 'CREATE', 'UPDATE'].map((verb) => `$JS.API.STREAM.${verb}.${stream}`);

/** What a consumer may ask of a stream it does not own: whether it is there, nothing more. */
const consumedStreamApi = (stream: string) => [`$JS.API.STREAM.INFO.${stream}`];

/**
 * A durable consumer of `subject` on `stream`. The server names the consumer in one token, which
 * a permission can only match whole (`*`): the grant holds every consumer of that stream; the
 * filter, and so what can be read, is fixed to `subject`.
 */
const consumerApi = (stream: EventStream, subject: string) => [
  `$JS.API.CONSUMER.CREATE.${stream.name}.*.${subject}`,
  `$JS.API.CONSUMER.INFO.${stream.name}.*`,
  `$JS.API.CONSUMER.MSG.NEXT.${stream.name}.*`,
  `$JS.ACK.${stream.name}.*.>`,
];

/** A key-value bucket: its stream, its keys, and reading a key (direct or through the stream). */
const bucketApi = (bucket: string) => [
  ...ownedStreamApi(`KV_${bucket}`).filter((subject) => !subject.includes('.UPDATE.')),
  `$KV.${bucket}.>`,
  `$JS.API.DIRECT.GET.KV_${bucket}.>`,
  `$JS.API.STREAM.MSG.GET.KV_${bucket}`,
];

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/**
 * What `deployable` may publish and subscribe to on the broker, derived from the subjects map,
 * the contracts, the event streams and the calls above:
 * - a service subscribes to its own request subjects (and their per-instance form) and answers
 *   on the requests' reply subjects only, once each (allow_responses); a service that streams
 *   (the generation service, a run's events) publishes the items to its callers' stream inboxes
 *   (natsStreamInboxPrefix);
 * - every deployable publishes the requests it makes (natsCalls) and reads replies on its own
 *   inbox prefix only;
 * - an event's owner publishes it, and creates its stream or brings it up to date (at start-up,
 *   see event-log.ts); a consumer may only read the stream's info (it waits for the owner to
 *   create it), and creates, reads and acknowledges its durable consumers of the subjects it
 *   consumes; no one may delete or purge a stream;
 * - the gateway keeps its rate-limit buckets.
 */
export function natsPermissions(deployable: NatsDeployable): NatsPermissions {
  const service = isService(deployable) ? deployable : undefined;
  const owned = service ? requestSubjectsOf(service) : [];
  const ownStreams = Object.values(eventStreams as Record<string, EventStream>).filter(
    (stream) => stream.owner === deployable,
  );
  const consumed = natsEventSubscriptions[deployable];
  const consumedStreams = unique(
    consumed
      .map((event) => (streamOf(event.subject) as EventStream).name)
      .filter((name) => !ownStreams.some((stream) => stream.name === name)),
  );
  const buckets = natsBuckets[deployable];
  const usesJetStream = ownStreams.length + consumedStreams.length + buckets.length > 0;
  const publish = unique([
    ...natsCalls[deployable].flatMap((contract) => addressed(contract.subject)),
    ...ownStreams.flatMap((stream) => stream.subjects),
    ...(usesJetStream ? ['$JS.API.INFO'] : []),
    ...ownStreams.flatMap((stream) => ownedStreamApi(stream.name)),
    ...consumedStreams.flatMap(consumedStreamApi),
    ...consumed.flatMap((event) =>
      consumerApi(streamOf(event.subject) as EventStream, event.subject),
    ),
    ...buckets.flatMap(bucketApi),
  ]);
  const subscribe = unique([...owned.flatMap(addressed), `${natsInboxPrefix(deployable)}.>`]);
  // The inboxes of the callers of the streams it owns (natsStreamInboxPrefix).
  const streamInboxes = natsDeployables
    .filter((caller) =>
      natsCalls[caller].some(
        (contract) => contract.kind === 'stream' && contract.owner === deployable,
      ),
    )
    .map((caller) => `${natsStreamInboxPrefix(natsInboxPrefix(caller))}.>`);
  return {
    publish: { allow: [...publish, ...streamInboxes] },
    subscribe: { allow: subscribe },
    ...(service ? { allow_responses: true } : {}),
  };
}

/** Whether `deployable` streams replies to any request (owns a stream contract). */
function natsStreamsOf(deployable: NatsDeployable): boolean {
  return allCallContracts.some(
    (contract) => contract.kind === 'stream' && contract.owner === deployable,
  );
}

/** A string in nats-server's configuration syntax: double-quoted, `"` and `\` escaped. */
function quoted(value: string): string {
  // The server's lexer knows \" \\ \t \n \r; a control character in a password is refused here
  // rather than written in a form the server might read differently.
  if ([...value].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) {
    throw new Error('A NATS password must not contain control characters');
  }
  return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

function renderValue(value: unknown, indent: string): string {
  if (typeof value === 'string') return quoted(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const inner = `${indent}  `;
    return `[\n${value.map((item) => `${inner}${renderValue(item, inner)}`).join('\n')}\n${indent}]`;
  }
  const inner = `${indent}  `;
  const entries = Object.entries(value as Record<string, unknown>).map(
    ([key, item]) => `${inner}${key}: ${renderValue(item, inner)}`,
  );
  return `{\n${entries.join('\n')}\n${indent}}`;
}

/** A user beside the deployables' (a test harness's), with every permission unless given some. */
export interface NatsExtraUser {
  readonly user: string;
  readonly password: string;
  readonly permissions?: NatsPermissions;
}

function checkedPassword(user: string, password: string): string {
  // The server reads a password starting with `$2` as a bcrypt hash.
  if (!password || password.startsWith('$2')) {
    throw new Error(`The NATS password of ${user} must be set and not look like a bcrypt hash`);
  }
  return password;
}

/**
 * The `authorization { users = [ … ] }` block of a nats-server configuration: one user per
 * deployable, named after it, with its password and natsPermissions (and `extra` users after
 * them). Passwords are quoted; one with a control character, or that the server would take for
 * a bcrypt hash, is refused.
 */
export function natsAuthorization(
  passwords: Record<NatsDeployable, string>,
  extra: readonly NatsExtraUser[] = [],
): string {
  // A user with every permission (a test harness) may call every stream, on nats.js's own
  // inbox prefix: the services that stream may send it the items.
  const harnessStreams = extra.some((user) => !user.permissions)
    ? [`${natsStreamInboxPrefix('_INBOX')}.>`]
    : [];
  const users = [
    ...natsDeployables.map((deployable) => {
      const permissions = natsPermissions(deployable);
      const streams = natsStreamsOf(deployable) ? harnessStreams : [];
      return {
        user: deployable,
        password: checkedPassword(deployable, passwords[deployable]),
        permissions: {
          ...permissions,
          publish: { allow: [...permissions.publish.allow, ...streams] },
        },
      };
    }),
    ...extra.map(({ user, password, permissions }) => ({
      user,
      password: checkedPassword(user, password),
      ...(permissions ? { permissions } : {}),
    })),
  ];
  return `authorization ${renderValue({ users }, '')}\n`;
}

/**
 * How often every NATS client and server pings the other end, and after how many unanswered
 * pings it gives the connection up. A process that dies closes its sockets at once; a machine
 * that is lost does not, and nats.js and nats-server both default to 2 minutes × 2. At 20 s × 3 a
 * client moves to another server, and a server drops a lost instance from its queue groups (the
 * requests routed to it fail until then), within a minute.
 */
export const NATS_PING_INTERVAL_SECONDS = 20;
export const NATS_MAX_PINGS_OUT = 3;
/** The name every server of the platform's NATS cluster gives its cluster. */
export const NATS_CLUSTER_NAME = 'debate';

/** The lines of a nats-server configuration that set its pings (NATS_PING_INTERVAL_SECONDS). */
export function natsPingSettings(): string {
  return `ping_interval: "${NATS_PING_INTERVAL_SECONDS}s"\nping_max: ${NATS_MAX_PINGS_OUT}\n`;
}

/** One server of a NATS cluster: its name, where its routes listen and the routes it opens. */
export interface NatsClusterMember {
  /** Unique in the cluster: JetStream's clustering needs every server named. */
  readonly serverName: string;
  /** `host:port` the cluster's routes connect to (e.g. `0.0.0.0:6222`). */
  readonly listen: string;
  /** Every server's route URL (`nats-route://host:port`), its own among them or not. */
  readonly routes: readonly string[];
  /** The routes over TLS: the server's certificate, its key and the authority of the others'. */
  readonly tls?: {
    readonly cert_file: string;
    readonly key_file: string;
    readonly ca_file: string;
  };
}

/**
 * The lines of a nats-server configuration that make it a member of the platform's cluster:
 * its name, the pings, and the `cluster` block (NATS_CLUSTER_NAME, its routes).
 */
export function natsClusterSettings(member: NatsClusterMember): string {
  const cluster = {
    name: NATS_CLUSTER_NAME,
    listen: member.listen,
    ...(member.tls ? { tls: { ...member.tls } } : {}),
    routes: [...member.routes],
  };
  return `server_name: ${quoted(member.serverName)}\n${natsPingSettings()}cluster ${renderValue(cluster, '')}\n`;
}
