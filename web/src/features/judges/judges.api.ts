import { api, operation } from '../../app/api';
import { graphql } from '../../gql/gql';
import type { JudgesQuery } from '../../gql/graphql';

/** The judges' record as the Judges tab shows it. */
export type JudgesReport = JudgesQuery['judges'];
/** One judge's record, or every judge's together. */
export type JudgeRecord = JudgesReport['all'];
/** One figure: its value, its 95% interval and its count. */
export type JudgeFigure = JudgeRecord['positionConsistency'];

// One figure, as every field of a record below spreads it.
graphql(`
  fragment JudgeFigureFields on JudgeFigure {
    value
    low
    high
    count
  }
`);

graphql(`
  fragment JudgeRecordFields on JudgeRecord {
    judgeId
    label
    kind
    debates
    positionConsistency {
      ...JudgeFigureFields
    }
    firstShownMargin {
      ...JudgeFigureFields
    }
    pairwiseAgreement {
      ...JudgeFigureFields
    }
    fleissKappa {
      ...JudgeFigureFields
    }
    selfPreference {
      ...JudgeFigureFields
    }
    lengthSlope {
      ...JudgeFigureFields
    }
    readersMinds {
      agreement {
        ...JudgeFigureFields
      }
      kappa {
        ...JudgeFigureFields
      }
    }
    readersVotes {
      agreement {
        ...JudgeFigureFields
      }
      kappa {
        ...JudgeFigureFields
      }
    }
  }
`);

const JudgesDocument = graphql(`
  query Judges {
    judges {
      debates
      bootstrapRounds
      computedAt
      judges {
        ...JudgeRecordFields
      }
      all {
        ...JudgeRecordFields
      }
    }
  }
`);

const judgesApi = api.injectEndpoints({
  endpoints: (build) => ({
    // The record is recomputed in the background: a minute's cache is as fresh as it is.
    judges: build.query<JudgesReport, undefined>({
      query: () => operation(JudgesDocument),
      transformResponse: (data: JudgesQuery) => data.judges,
      keepUnusedDataFor: 60,
    }),
  }),
});

export const { useJudgesQuery } = judgesApi;
