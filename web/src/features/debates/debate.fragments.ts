import { graphql } from '../../gql/gql';

// The selections the debate queries share. The generator appends a fragment's definition to
// every document that spreads it (src/gql/graphql.ts), so nothing imports this file at run
// time: it is here for codegen to read, and its types (DebateSpeakerFieldsFragment,
// DebateRoundFieldsFragment) are what the components take.
//
// `writtenBy` is written out in each, not spread from a fragment of its own: the gateway's depth
// limit (8) counts a spread as two levels, and myDebates { debates { model1 { ...{ writtenBy {
// ...{ kind } } } } } } would be 9.

graphql(`
  fragment DebateSpeakerFields on DebateSpeaker {
    name
    stance
    rhetoricStyle
    writtenBy {
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
  }
`);

graphql(`
  fragment DebateRoundFields on DebateRound {
    speaker
    round
    text
    summary
    team {
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
    writtenBy {
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
  }
`);

// The judges' scorecard, whole (the engine, a debate's page, the export). Spread at most one
// level deep and nothing spread inside it: myDebate { verdict { ...{ judgedBy { kind } } } }
// stays within the depth limit. The cards ask only for the winner and the totals
// (VerdictSummaryFields).
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
