/**
 * Every NATS subject of the platform, named `<owner>.<entity>.<verb>`.
 * This map is the only place a subject is written; everything else imports it.
 */
export const subjects = {
  identity: {
    session: {
      signIn: 'identity.session.signin',
      signUp: 'identity.session.signup',
      refresh: 'identity.session.refresh',
      signOut: 'identity.session.signout',
    },
    provider: {
      start: 'identity.provider.start',
      complete: 'identity.provider.complete',
      list: 'identity.provider.list',
    },
    user: { get: 'identity.user.get', created: 'identity.user.created' },
    verification: {
      status: 'identity.verification.status',
      send: 'identity.verification.send',
    },
  },
  usage: {
    stats: { get: 'usage.stats.get' },
    allowance: {
      consume: 'usage.allowance.consume',
      refund: 'usage.allowance.refund',
      settle: 'usage.allowance.settle',
    },
    lastRun: { get: 'usage.lastrun.get' },
  },
  generation: {
    catalog: { get: 'generation.catalog.get' },
    run: {
      start: 'generation.run.start',
      watch: 'generation.run.watch',
      get: 'generation.run.get',
      stop: 'generation.run.stop',
      submitTurn: 'generation.run.submitturn',
    },
    example: { write: 'generation.example.write' },
  },
  debates: {
    debate: {
      save: 'debates.debate.save',
      list: 'debates.debate.list',
      get: 'debates.debate.get',
      unsaved: 'debates.debate.unsaved',
      share: 'debates.debate.share',
      unshare: 'debates.debate.unshare',
      delete: 'debates.debate.delete',
      shared: 'debates.debate.shared',
      unshared: 'debates.debate.unshared',
    },
    run: { keep: 'debates.run.keep' },
  },
  community: {
    debate: { get: 'community.debate.get', rank: 'community.debate.rank' },
    vote: { cast: 'community.vote.cast' },
    star: { toggle: 'community.star.toggle', merge: 'community.star.merge' },
    minds: { before: 'community.minds.before' },
    leaderboard: { get: 'community.leaderboard.get' },
    // The judges' own record (the community hub's Judges tab).
    judges: { get: 'community.judges.get' },
    // A user's listing on the People board.
    listing: { get: 'community.listing.get', set: 'community.listing.set' },
  },
} as const;

/** The five services, each the owner of the subjects under its name. */
export const serviceNames = ['identity', 'usage', 'generation', 'debates', 'community'] as const;
export type ServiceName = (typeof serviceNames)[number];

type Leaves<T> = T extends string ? T : { [K in keyof T]: Leaves<T[K]> }[keyof T];
export type Subject = Leaves<typeof subjects>;
