import { graphql } from '../../gql/gql';

// The selections the debate queries share. The generator appends a fragment's definition to
// every document that spreads it (src/gql/graphql.ts), so nothing imports this file at run
// time: it is here for codegen to read, and its types (DebateSpeakerFieldsFragment,
// DebateRoundFieldsFragment) are what the components take.

graphql(`
  fragment DebateSpeakerFields on DebateSpeaker {
    name
    stance
    rhetoricStyle
  }
`);

graphql(`
  fragment DebateRoundFields on DebateRound {
    speaker
    round
    text
    summary
  }
`);
