import { graphql } from '../../gql/gql';

// The selections the debate operations share. The generator appends a fragment's definition to
// every document that spreads it (src/gql/graphql.ts), so nothing imports this file at run
// time: it is here for codegen to read, and its types (DebateSpeakerFieldsFragment,
// WrittenByFieldsFragment, …) are what the components take. The gateway's depth limit counts
// the fields inside a fragment, not the spread, so fragments may spread one another.

// What wrote a turn, a speaker's turns or the verdict (WrittenBy in provenance.ts).
graphql(`
  fragment WrittenByFields on WrittenBy {
    kind
    modelId
    label
    serverModel
    tokensIn
    tokensOut
    firstTokenMs
    totalMs
    turns
    failedTurns
  }
`);

// How a speaker team made a speech (team-notes.tsx).
graphql(`
  fragment TeamNotesFields on TeamNotes {
    searched
    evidence {
      title
      url
    }
    plan
    review
    fixes
    revised
    steps
  }
`);

graphql(`
  fragment DebateSpeakerFields on DebateSpeaker {
    name
    stance
    rhetoricStyle
    writtenBy {
      ...WrittenByFields
    }
  }
`);

graphql(`
  fragment DebateRoundFields on DebateRound {
    speaker
    round
    text
    summary
    team {
      ...TeamNotesFields
    }
    writtenBy {
      ...WrittenByFields
    }
  }
`);

// The judges' scorecard, whole (the engine, a debate's page, the export). The cards ask only for
// the winner and the totals (VerdictSummaryFields).
graphql(`
  fragment DebateVerdictFields on DebateVerdict {
    winner
    tie
    tieReason
    firstTotal
    secondTotal
    scores {
      speaker
      criterion
      score
      reason
    }
    readings {
      order
      winner
      firstTotal
      secondTotal
    }
    judgedBy {
      ...WrittenByFields
    }
  }
`);

// A card's line of the verdict (the ranking, the history, a debate's pair): winner and totals.
graphql(`
  fragment VerdictSummaryFields on DebateVerdict {
    winner
    tie
    firstTotal
    secondTotal
  }
`);
