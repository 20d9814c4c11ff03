import { api, operation } from '../../app/api';
import { graphql } from '../../gql/gql';
import type { LeaderboardQuery, LeaderboardSubject } from '../../gql/graphql';

/** A board as the leaderboard tab shows it. */
export type Leaderboard = LeaderboardQuery['leaderboard'];
/** One row of a board: a model, a setup, a style, a person or the people pooled. */
export type LeaderboardRow = Leaderboard['rows'][number];

interface LeaderboardArgs {
  readonly subject: LeaderboardSubject;
  readonly pairsOnly: boolean;
  /** Controlled for length and for where the room started. */
  readonly controlled: boolean;
}

// A board's row, as the query below spreads it.
graphql(`
  fragment LeaderboardRowFields on LeaderboardRow {
    id
    label
    kind
    rating
    low
    high
    debates
    pairs
    audience {
      rating
      low
      high
      debates
    }
  }
`);

const LeaderboardDocument = graphql(`
  query Leaderboard($subject: LeaderboardSubject!, $pairsOnly: Boolean!, $controlled: Boolean!) {
    leaderboard(subject: $subject, pairsOnly: $pairsOnly, controlled: $controlled) {
      subject
      pairsOnly
      controlled
      debates
      apartDebates
      bootstrapRounds
      computedAt
      notRated {
        sameSubject
        notRecorded
        personalityHints
        dailyLimit
      }
      rows {
        ...LeaderboardRowFields
      }
      apart {
        ...LeaderboardRowFields
      }
    }
  }
`);

const leaderboardApi = api.injectEndpoints({
  endpoints: (build) => ({
    // The boards are recomputed in the background: a minute's cache is as fresh as they are.
    leaderboard: build.query<Leaderboard, LeaderboardArgs>({
      query: (args) => operation(LeaderboardDocument, args),
      transformResponse: (data: LeaderboardQuery) => data.leaderboard,
      keepUnusedDataFor: 60,
    }),
  }),
});

export const { useLeaderboardQuery } = leaderboardApi;
