/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> =
  T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** A reader's answer to 'where do you stand?' before reading: a stance or SKIPPED. */
export type BeforeAnswer = 'AGAINST' | 'FOR' | 'SKIPPED' | 'UNDECIDED';

export type DebateSettingsInput = {
  /** One of the catalog debate formats. */
  readonly debateFormat: string;
  readonly first: SpeakerSettingsInput;
  readonly moderatorEnabled: boolean;
  /** Set: the signed-in user writes this side's turns against the other side's model (its SpeakerSettingsInput.model is 'person'); their display name is taken from their account. Null: two models. */
  readonly person?: PersonSide | null | undefined;
  readonly second: SpeakerSettingsInput;
  /** The motion, 1 to 500 characters. */
  readonly topic: string;
};

/** A People board row that is no model: PERSON, a listed person; PEOPLE, every person's side pooled. */
export type LeaderboardRowKind = 'PEOPLE' | 'PERSON';

/** MODEL: the models that really wrote the debates; SETUP: each model as one completion or as a speaker team; STYLE: the rhetoric styles of the speakers; PEOPLE: the people who debated a model, against the models. */
export type LeaderboardSubject = 'MODEL' | 'PEOPLE' | 'SETUP' | 'STYLE';

/** The side the signed-in user takes in a debate against a model: the first speaker's or the second's. */
export type PersonSide = 'FIRST' | 'SECOND';

/** Today starts at the viewer's midnight (utcOffsetMinutes); a week is 7 days. */
export type RankingPeriod = 'ALL_TIME' | 'THIS_MONTH' | 'THIS_WEEK' | 'TODAY';

/** Most Popular: Wilson lower bound of For against Against; Most Recent: sharedAt; Most Controversial: (For + Against) ^ (min / max), 0 unless both have votes. */
export type RankingSort = 'MOST_CONTROVERSIAL' | 'MOST_POPULAR' | 'MOST_RECENT';

/** The accounts a user can sign in with besides e-mail and password. */
export type SignInProvider = 'GITHUB' | 'GOOGLE';

export type SpeakerSettingsInput = {
  /** The id of one of the catalog's models. */
  readonly model: string;
  /** Personality hints for the speaker. */
  readonly personality?: string;
  /** One of the catalog rhetoric styles. */
  readonly rhetoricStyle: string;
  /** -1 (against) to 1 (for), in steps of 0.1. */
  readonly stance: number;
};

/** Where a reader stands on the motion before reading the debate. */
export type StanceBefore = 'AGAINST' | 'FOR' | 'UNDECIDED';

/** One vote per user per debate. */
export type VoteKind = 'AGAINST' | 'FOR' | 'INTERESTING';

export type PeopleListingQueryVariables = Exact<{ [key: string]: never }>;

export type PeopleListingQuery = {
  readonly peopleListing: {
    readonly listed: boolean;
    readonly name: string | null;
    readonly ratedDebates: number;
  };
};

export type SetPeopleListingMutationVariables = Exact<{
  listed: boolean;
  name?: string | null | undefined;
}>;

export type SetPeopleListingMutation = {
  readonly setPeopleListing: {
    readonly listed: boolean;
    readonly name: string | null;
    readonly ratedDebates: number;
  };
};

export type UsageQueryVariables = Exact<{ [key: string]: never }>;

export type UsageQuery = {
  readonly usage: {
    readonly freeDebatesRemaining: number;
    readonly lastDebateStarted: string | null;
    readonly nextFreeDebateAt: string | null;
    readonly totalDebates: number;
    readonly memberSince: string;
    readonly tokensIn: number;
    readonly tokensOut: number;
  };
};

export type AuthSessionFieldsFragment = {
  readonly accessToken: string;
  readonly expiresIn: number;
  readonly user: {
    readonly id: string;
    readonly email: string;
    readonly displayName: string | null;
    readonly photoURL: string | null;
    readonly isPro: boolean;
    readonly createdAt: string | null;
    readonly mustVerifyEmail: boolean;
  };
};

export type RefreshSessionMutationVariables = Exact<{ [key: string]: never }>;

export type RefreshSessionMutation = {
  readonly refreshSession: {
    readonly accessToken: string;
    readonly expiresIn: number;
    readonly user: {
      readonly id: string;
      readonly email: string;
      readonly displayName: string | null;
      readonly photoURL: string | null;
      readonly isPro: boolean;
      readonly createdAt: string | null;
      readonly mustVerifyEmail: boolean;
    };
  } | null;
};

export type SignInMutationVariables = Exact<{
  email: string;
  password: string;
}>;

export type SignInMutation = {
  readonly signIn: {
    readonly accessToken: string;
    readonly expiresIn: number;
    readonly user: {
      readonly id: string;
      readonly email: string;
      readonly displayName: string | null;
      readonly photoURL: string | null;
      readonly isPro: boolean;
      readonly createdAt: string | null;
      readonly mustVerifyEmail: boolean;
    };
  };
};

export type SignUpMutationVariables = Exact<{
  email: string;
  password: string;
}>;

export type SignUpMutation = {
  readonly signUp: {
    readonly accessToken: string;
    readonly expiresIn: number;
    readonly user: {
      readonly id: string;
      readonly email: string;
      readonly displayName: string | null;
      readonly photoURL: string | null;
      readonly isPro: boolean;
      readonly createdAt: string | null;
      readonly mustVerifyEmail: boolean;
    };
  };
};

export type SignInWithProviderMutationVariables = Exact<{
  provider: SignInProvider;
}>;

export type SignInWithProviderMutation = { readonly signInWithProvider: string };

export type CompleteProviderSignInMutationVariables = Exact<{
  code: string;
  state: string;
}>;

export type CompleteProviderSignInMutation = {
  readonly completeProviderSignIn: {
    readonly accessToken: string;
    readonly expiresIn: number;
    readonly user: {
      readonly id: string;
      readonly email: string;
      readonly displayName: string | null;
      readonly photoURL: string | null;
      readonly isPro: boolean;
      readonly createdAt: string | null;
      readonly mustVerifyEmail: boolean;
    };
  };
};

export type SignOutMutationVariables = Exact<{ [key: string]: never }>;

export type SignOutMutation = { readonly signOut: boolean };

export type SendVerificationEmailMutationVariables = Exact<{ [key: string]: never }>;

export type SendVerificationEmailMutation = { readonly sendVerificationEmail: boolean };

export type CommunityDebatesQueryVariables = Exact<{
  category?: string | null | undefined;
  sort?: RankingSort | null | undefined;
  period?: RankingPeriod | null | undefined;
  starredOnly?: boolean | null | undefined;
  starredIds?: ReadonlyArray<string> | string | null | undefined;
  utcOffsetMinutes?: number | null | undefined;
  after?: string | null | undefined;
}>;

export type CommunityDebatesQuery = {
  readonly communityDebates: {
    readonly next: string | null;
    readonly debates: ReadonlyArray<{
      readonly id: string;
      readonly topic: string;
      readonly categories: ReadonlyArray<string>;
      readonly userDisplayName: string;
      readonly sharedAt: string;
      readonly upvotes: number;
      readonly downvotes: number;
      readonly interesting: number;
      readonly views: number;
      readonly myVote: VoteKind | null;
      readonly starred: boolean;
      readonly example: boolean;
      readonly stopped: boolean;
      readonly model1: {
        readonly name: string;
        readonly stance: number;
        readonly rhetoricStyle: string;
        readonly writtenBy: {
          readonly kind: string;
          readonly modelId: string;
          readonly label: string;
          readonly serverModel: string | null;
          readonly tokensIn: number | null;
          readonly tokensOut: number | null;
          readonly firstTokenMs: number | null;
          readonly totalMs: number;
          readonly turns: number;
          readonly failedTurns: number;
        } | null;
      };
      readonly model2: {
        readonly name: string;
        readonly stance: number;
        readonly rhetoricStyle: string;
        readonly writtenBy: {
          readonly kind: string;
          readonly modelId: string;
          readonly label: string;
          readonly serverModel: string | null;
          readonly tokensIn: number | null;
          readonly tokensOut: number | null;
          readonly firstTokenMs: number | null;
          readonly totalMs: number;
          readonly turns: number;
          readonly failedTurns: number;
        } | null;
      };
      readonly verdict: {
        readonly winner: string | null;
        readonly tie: boolean;
        readonly firstTotal: number;
        readonly secondTotal: number;
      } | null;
      readonly mindsChanged: {
        readonly readers: number;
        readonly shares: {
          readonly winner: string;
          readonly before: {
            readonly for: number;
            readonly against: number;
            readonly undecided: number | null;
          };
          readonly after: { readonly for: number; readonly against: number };
          readonly gain: { readonly for: number; readonly against: number };
          readonly gainedReaders: { readonly for: number; readonly against: number };
        } | null;
      };
      readonly rating: { readonly text: string } | null;
    }>;
  };
};

export type CommunityDebateQueryVariables = Exact<{
  id: string;
}>;

export type CommunityDebateQuery = {
  readonly communityDebate: {
    readonly id: string;
    readonly topic: string;
    readonly categories: ReadonlyArray<string>;
    readonly userDisplayName: string;
    readonly sharedAt: string;
    readonly upvotes: number;
    readonly downvotes: number;
    readonly interesting: number;
    readonly views: number;
    readonly example: boolean;
    readonly stopped: boolean;
    readonly myVote: VoteKind | null;
    readonly standBefore: BeforeAnswer | null;
    readonly askBefore: boolean;
    readonly model1: {
      readonly name: string;
      readonly stance: number;
      readonly rhetoricStyle: string;
      readonly writtenBy: {
        readonly kind: string;
        readonly modelId: string;
        readonly label: string;
        readonly serverModel: string | null;
        readonly tokensIn: number | null;
        readonly tokensOut: number | null;
        readonly firstTokenMs: number | null;
        readonly totalMs: number;
        readonly turns: number;
        readonly failedTurns: number;
      } | null;
    };
    readonly model2: {
      readonly name: string;
      readonly stance: number;
      readonly rhetoricStyle: string;
      readonly writtenBy: {
        readonly kind: string;
        readonly modelId: string;
        readonly label: string;
        readonly serverModel: string | null;
        readonly tokensIn: number | null;
        readonly tokensOut: number | null;
        readonly firstTokenMs: number | null;
        readonly totalMs: number;
        readonly turns: number;
        readonly failedTurns: number;
      } | null;
    };
    readonly rounds: ReadonlyArray<{
      readonly speaker: string;
      readonly round: number;
      readonly text: string;
      readonly summary: string;
      readonly team: {
        readonly searched: boolean;
        readonly plan: string;
        readonly review: string;
        readonly fixes: ReadonlyArray<string>;
        readonly revised: boolean;
        readonly steps: number;
        readonly evidence: ReadonlyArray<{ readonly title: string; readonly url: string }>;
      } | null;
      readonly writtenBy: {
        readonly kind: string;
        readonly modelId: string;
        readonly label: string;
        readonly serverModel: string | null;
        readonly tokensIn: number | null;
        readonly tokensOut: number | null;
        readonly firstTokenMs: number | null;
        readonly totalMs: number;
        readonly turns: number;
        readonly failedTurns: number;
      } | null;
    }>;
    readonly verdict: {
      readonly winner: string | null;
      readonly tie: boolean;
      readonly tieReason: string | null;
      readonly firstTotal: number;
      readonly secondTotal: number;
      readonly scores: ReadonlyArray<{
        readonly speaker: string;
        readonly criterion: string;
        readonly score: number;
        readonly reason: string;
      }>;
      readonly readings: ReadonlyArray<{
        readonly order: string;
        readonly winner: string | null;
        readonly firstTotal: number;
        readonly secondTotal: number;
      }>;
      readonly judgedBy: {
        readonly kind: string;
        readonly modelId: string;
        readonly label: string;
        readonly serverModel: string | null;
        readonly tokensIn: number | null;
        readonly tokensOut: number | null;
        readonly firstTokenMs: number | null;
        readonly totalMs: number;
        readonly turns: number;
        readonly failedTurns: number;
      };
    } | null;
    readonly mindsChanged: {
      readonly readers: number;
      readonly shares: {
        readonly winner: string;
        readonly before: {
          readonly for: number;
          readonly against: number;
          readonly undecided: number | null;
        };
        readonly after: { readonly for: number; readonly against: number };
        readonly gain: { readonly for: number; readonly against: number };
        readonly gainedReaders: { readonly for: number; readonly against: number };
      } | null;
    };
    readonly rating: { readonly text: string } | null;
    readonly pairedWith: {
      readonly id: string;
      readonly isRematch: boolean;
      readonly model1: {
        readonly name: string;
        readonly stance: number;
        readonly rhetoricStyle: string;
        readonly writtenBy: {
          readonly kind: string;
          readonly modelId: string;
          readonly label: string;
          readonly serverModel: string | null;
          readonly tokensIn: number | null;
          readonly tokensOut: number | null;
          readonly firstTokenMs: number | null;
          readonly totalMs: number;
          readonly turns: number;
          readonly failedTurns: number;
        } | null;
      };
      readonly model2: {
        readonly name: string;
        readonly stance: number;
        readonly rhetoricStyle: string;
        readonly writtenBy: {
          readonly kind: string;
          readonly modelId: string;
          readonly label: string;
          readonly serverModel: string | null;
          readonly tokensIn: number | null;
          readonly tokensOut: number | null;
          readonly firstTokenMs: number | null;
          readonly totalMs: number;
          readonly turns: number;
          readonly failedTurns: number;
        } | null;
      };
      readonly verdict: {
        readonly winner: string | null;
        readonly tie: boolean;
        readonly firstTotal: number;
        readonly secondTotal: number;
      } | null;
    } | null;
  };
};

export type MindsChangedFieldsFragment = {
  readonly readers: number;
  readonly shares: {
    readonly winner: string;
    readonly before: {
      readonly for: number;
      readonly against: number;
      readonly undecided: number | null;
    };
    readonly after: { readonly for: number; readonly against: number };
    readonly gain: { readonly for: number; readonly against: number };
    readonly gainedReaders: { readonly for: number; readonly against: number };
  } | null;
};

export type VoteMutationVariables = Exact<{
  debateId: string;
  kind?: VoteKind | null | undefined;
}>;

export type VoteMutation = {
  readonly vote: {
    readonly debateId: string;
    readonly upvotes: number;
    readonly downvotes: number;
    readonly interesting: number;
    readonly myVote: VoteKind | null;
    readonly mindsChanged: {
      readonly readers: number;
      readonly shares: {
        readonly winner: string;
        readonly before: {
          readonly for: number;
          readonly against: number;
          readonly undecided: number | null;
        };
        readonly after: { readonly for: number; readonly against: number };
        readonly gain: { readonly for: number; readonly against: number };
        readonly gainedReaders: { readonly for: number; readonly against: number };
      } | null;
    };
  };
};

export type StandBeforeMutationVariables = Exact<{
  debateId: string;
  stance?: StanceBefore | null | undefined;
}>;

export type StandBeforeMutation = {
  readonly standBefore: {
    readonly debateId: string;
    readonly standBefore: BeforeAnswer;
    readonly mindsChanged: {
      readonly readers: number;
      readonly shares: {
        readonly winner: string;
        readonly before: {
          readonly for: number;
          readonly against: number;
          readonly undecided: number | null;
        };
        readonly after: { readonly for: number; readonly against: number };
        readonly gain: { readonly for: number; readonly against: number };
        readonly gainedReaders: { readonly for: number; readonly against: number };
      } | null;
    };
  };
};

export type ToggleStarMutationVariables = Exact<{
  debateId: string;
  starred?: boolean | null | undefined;
}>;

export type ToggleStarMutation = { readonly toggleStar: boolean };

export type CategoriesQueryVariables = Exact<{ [key: string]: never }>;

export type CategoriesQuery = { readonly categories: ReadonlyArray<string> };

export type MergeStarsMutationVariables = Exact<{
  debateIds: ReadonlyArray<string> | string;
}>;

export type MergeStarsMutation = { readonly mergeStars: ReadonlyArray<string> };

export type WrittenByFieldsFragment = {
  readonly kind: string;
  readonly modelId: string;
  readonly label: string;
  readonly serverModel: string | null;
  readonly tokensIn: number | null;
  readonly tokensOut: number | null;
  readonly firstTokenMs: number | null;
  readonly totalMs: number;
  readonly turns: number;
  readonly failedTurns: number;
};

export type TeamNotesFieldsFragment = {
  readonly searched: boolean;
  readonly plan: string;
  readonly review: string;
  readonly fixes: ReadonlyArray<string>;
  readonly revised: boolean;
  readonly steps: number;
  readonly evidence: ReadonlyArray<{ readonly title: string; readonly url: string }>;
};

export type DebateSpeakerFieldsFragment = {
  readonly name: string;
  readonly stance: number;
  readonly rhetoricStyle: string;
  readonly writtenBy: {
    readonly kind: string;
    readonly modelId: string;
    readonly label: string;
    readonly serverModel: string | null;
    readonly tokensIn: number | null;
    readonly tokensOut: number | null;
    readonly firstTokenMs: number | null;
    readonly totalMs: number;
    readonly turns: number;
    readonly failedTurns: number;
  } | null;
};

export type DebateRoundFieldsFragment = {
  readonly speaker: string;
  readonly round: number;
  readonly text: string;
  readonly summary: string;
  readonly team: {
    readonly searched: boolean;
    readonly plan: string;
    readonly review: string;
    readonly fixes: ReadonlyArray<string>;
    readonly revised: boolean;
    readonly steps: number;
    readonly evidence: ReadonlyArray<{ readonly title: string; readonly url: string }>;
  } | null;
  readonly writtenBy: {
    readonly kind: string;
    readonly modelId: string;
    readonly label: string;
    readonly serverModel: string | null;
    readonly tokensIn: number | null;
    readonly tokensOut: number | null;
    readonly firstTokenMs: number | null;
    readonly totalMs: number;
    readonly turns: number;
    readonly failedTurns: number;
  } | null;
};

export type DebateVerdictFieldsFragment = {
  readonly winner: string | null;
  readonly tie: boolean;
  readonly tieReason: string | null;
  readonly firstTotal: number;
  readonly secondTotal: number;
  readonly scores: ReadonlyArray<{
    readonly speaker: string;
    readonly criterion: string;
    readonly score: number;
    readonly reason: string;
  }>;
  readonly readings: ReadonlyArray<{
    readonly order: string;
    readonly winner: string | null;
    readonly firstTotal: number;
    readonly secondTotal: number;
  }>;
  readonly judgedBy: {
    readonly kind: string;
    readonly modelId: string;
    readonly label: string;
    readonly serverModel: string | null;
    readonly tokensIn: number | null;
    readonly tokensOut: number | null;
    readonly firstTokenMs: number | null;
    readonly totalMs: number;
    readonly turns: number;
    readonly failedTurns: number;
  };
};

export type VerdictSummaryFieldsFragment = {
  readonly winner: string | null;
  readonly tie: boolean;
  readonly firstTotal: number;
  readonly secondTotal: number;
};

export type MyDebatesQueryVariables = Exact<{
  search?: string | null | undefined;
  category?: string | null | undefined;
  order?: string | null | undefined;
  after?: string | null | undefined;
}>;

export type MyDebatesQuery = {
  readonly myDebates: {
    readonly total: number;
    readonly next: string | null;
    readonly debates: ReadonlyArray<{
      readonly id: string;
      readonly topic: string;
      readonly categories: ReadonlyArray<string>;
      readonly userDisplayName: string;
      readonly timestamp: string;
      readonly sharedAt: string | null;
      readonly isPublic: boolean;
      readonly upvotes: number;
      readonly downvotes: number;
      readonly rematchOf: string | null;
      readonly moderatorEnabled: boolean | null;
      readonly stopped: boolean;
      readonly model1: {
        readonly name: string;
        readonly stance: number;
        readonly rhetoricStyle: string;
        readonly writtenBy: {
          readonly kind: string;
          readonly modelId: string;
          readonly label: string;
          readonly serverModel: string | null;
          readonly tokensIn: number | null;
          readonly tokensOut: number | null;
          readonly firstTokenMs: number | null;
          readonly totalMs: number;
          readonly turns: number;
          readonly failedTurns: number;
        } | null;
      };
      readonly model2: {
        readonly name: string;
        readonly stance: number;
        readonly rhetoricStyle: string;
        readonly writtenBy: {
          readonly kind: string;
          readonly modelId: string;
          readonly label: string;
          readonly serverModel: string | null;
          readonly tokensIn: number | null;
          readonly tokensOut: number | null;
          readonly firstTokenMs: number | null;
          readonly totalMs: number;
          readonly turns: number;
          readonly failedTurns: number;
        } | null;
      };
      readonly verdict: {
        readonly winner: string | null;
        readonly tie: boolean;
        readonly firstTotal: number;
        readonly secondTotal: number;
      } | null;
    }>;
  };
};

export type MyDebateQueryVariables = Exact<{
  id: string;
}>;

export type MyDebateQuery = {
  readonly myDebate: {
    readonly id: string;
    readonly topic: string;
    readonly categories: ReadonlyArray<string>;
    readonly userDisplayName: string;
    readonly sharedAt: string | null;
    readonly upvotes: number;
    readonly downvotes: number;
    readonly model1: {
      readonly name: string;
      readonly stance: number;
      readonly rhetoricStyle: string;
      readonly writtenBy: {
        readonly kind: string;
        readonly modelId: string;
        readonly label: string;
        readonly serverModel: string | null;
        readonly tokensIn: number | null;
        readonly tokensOut: number | null;
        readonly firstTokenMs: number | null;
        readonly totalMs: number;
        readonly turns: number;
        readonly failedTurns: number;
      } | null;
    };
    readonly model2: {
      readonly name: string;
      readonly stance: number;
      readonly rhetoricStyle: string;
      readonly writtenBy: {
        readonly kind: string;
        readonly modelId: string;
        readonly label: string;
        readonly serverModel: string | null;
        readonly tokensIn: number | null;
        readonly tokensOut: number | null;
        readonly firstTokenMs: number | null;
        readonly totalMs: number;
        readonly turns: number;
        readonly failedTurns: number;
      } | null;
    };
    readonly rounds: ReadonlyArray<{
      readonly speaker: string;
      readonly round: number;
      readonly text: string;
      readonly summary: string;
      readonly team: {
        readonly searched: boolean;
        readonly plan: string;
        readonly review: string;
        readonly fixes: ReadonlyArray<string>;
        readonly revised: boolean;
        readonly steps: number;
        readonly evidence: ReadonlyArray<{ readonly title: string; readonly url: string }>;
      } | null;
      readonly writtenBy: {
        readonly kind: string;
        readonly modelId: string;
        readonly label: string;
        readonly serverModel: string | null;
        readonly tokensIn: number | null;
        readonly tokensOut: number | null;
        readonly firstTokenMs: number | null;
        readonly totalMs: number;
        readonly turns: number;
        readonly failedTurns: number;
      } | null;
    }>;
    readonly verdict: {
      readonly winner: string | null;
      readonly tie: boolean;
      readonly tieReason: string | null;
      readonly firstTotal: number;
      readonly secondTotal: number;
      readonly scores: ReadonlyArray<{
        readonly speaker: string;
        readonly criterion: string;
        readonly score: number;
        readonly reason: string;
      }>;
      readonly readings: ReadonlyArray<{
        readonly order: string;
        readonly winner: string | null;
        readonly firstTotal: number;
        readonly secondTotal: number;
      }>;
      readonly judgedBy: {
        readonly kind: string;
        readonly modelId: string;
        readonly label: string;
        readonly serverModel: string | null;
        readonly tokensIn: number | null;
        readonly tokensOut: number | null;
        readonly firstTokenMs: number | null;
        readonly totalMs: number;
        readonly turns: number;
        readonly failedTurns: number;
      };
    } | null;
  };
};

export type UnsavedDebateQueryVariables = Exact<{ [key: string]: never }>;

export type UnsavedDebateQuery = {
  readonly unsavedDebate: {
    readonly runId: string;
    readonly topic: string;
    readonly moderatorEnabled: boolean | null;
    readonly rematchOf: string | null;
    readonly stopped: boolean;
    readonly model1: {
      readonly name: string;
      readonly stance: number;
      readonly rhetoricStyle: string;
      readonly writtenBy: {
        readonly kind: string;
        readonly modelId: string;
        readonly label: string;
        readonly serverModel: string | null;
        readonly tokensIn: number | null;
        readonly tokensOut: number | null;
        readonly firstTokenMs: number | null;
        readonly totalMs: number;
        readonly turns: number;
        readonly failedTurns: number;
      } | null;
    };
    readonly model2: {
      readonly name: string;
      readonly stance: number;
      readonly rhetoricStyle: string;
      readonly writtenBy: {
        readonly kind: string;
        readonly modelId: string;
        readonly label: string;
        readonly serverModel: string | null;
        readonly tokensIn: number | null;
        readonly tokensOut: number | null;
        readonly firstTokenMs: number | null;
        readonly totalMs: number;
        readonly turns: number;
        readonly failedTurns: number;
      } | null;
    };
    readonly rounds: ReadonlyArray<{
      readonly speaker: string;
      readonly round: number;
      readonly text: string;
      readonly summary: string;
      readonly team: {
        readonly searched: boolean;
        readonly plan: string;
        readonly review: string;
        readonly fixes: ReadonlyArray<string>;
        readonly revised: boolean;
        readonly steps: number;
        readonly evidence: ReadonlyArray<{ readonly title: string; readonly url: string }>;
      } | null;
      readonly writtenBy: {
        readonly kind: string;
        readonly modelId: string;
        readonly label: string;
        readonly serverModel: string | null;
        readonly tokensIn: number | null;
        readonly tokensOut: number | null;
        readonly firstTokenMs: number | null;
        readonly totalMs: number;
        readonly turns: number;
        readonly failedTurns: number;
      } | null;
    }>;
    readonly verdict: {
      readonly winner: string | null;
      readonly tie: boolean;
      readonly tieReason: string | null;
      readonly firstTotal: number;
      readonly secondTotal: number;
      readonly scores: ReadonlyArray<{
        readonly speaker: string;
        readonly criterion: string;
        readonly score: number;
        readonly reason: string;
      }>;
      readonly readings: ReadonlyArray<{
        readonly order: string;
        readonly winner: string | null;
        readonly firstTotal: number;
        readonly secondTotal: number;
      }>;
      readonly judgedBy: {
        readonly kind: string;
        readonly modelId: string;
        readonly label: string;
        readonly serverModel: string | null;
        readonly tokensIn: number | null;
        readonly tokensOut: number | null;
        readonly firstTokenMs: number | null;
        readonly totalMs: number;
        readonly turns: number;
        readonly failedTurns: number;
      };
    } | null;
  } | null;
};

export type SaveDebateMutationVariables = Exact<{
  runId: string;
  categories: ReadonlyArray<string> | string;
}>;

export type SaveDebateMutation = { readonly saveDebate: { readonly id: string } };

export type ShareDebateMutationVariables = Exact<{
  id: string;
}>;

export type ShareDebateMutation = {
  readonly shareDebate: { readonly id: string; readonly isPublic: boolean };
};

export type UnshareDebateMutationVariables = Exact<{
  id: string;
}>;

export type UnshareDebateMutation = {
  readonly unshareDebate: { readonly id: string; readonly isPublic: boolean };
};

export type CatalogQueryVariables = Exact<{ [key: string]: never }>;

export type CatalogQuery = {
  readonly catalog: {
    readonly categories: ReadonlyArray<string>;
    readonly rhetoricStyles: ReadonlyArray<string>;
    readonly debateFormats: ReadonlyArray<string>;
    readonly searcher: boolean;
    readonly roundTitles: ReadonlyArray<string>;
    readonly topics: ReadonlyArray<string>;
    readonly models: ReadonlyArray<{
      readonly id: string;
      readonly label: string;
      readonly kind: string;
      readonly status: string;
      readonly speakerMode: string;
    }>;
    readonly localModel: {
      readonly status: string;
      readonly name: string;
      readonly progress: number | null;
    } | null;
  };
};

export type StartDebateMutationVariables = Exact<{
  settings: DebateSettingsInput;
}>;

export type StartDebateMutation = { readonly startDebate: string };

export type StartRematchMutationVariables = Exact<{
  debateId: string;
}>;

export type StartRematchMutation = { readonly startRematch: string };

export type DebateRunSubscriptionVariables = Exact<{
  id: string;
}>;

export type DebateRunSubscription = {
  readonly debateRun: {
    readonly type: string;
    readonly seq: number;
    readonly at: number;
    readonly topic: string | null;
    readonly firstStance: number | null;
    readonly secondStance: number | null;
    readonly turn: number | null;
    readonly speaker: string | null;
    readonly round: number | null;
    readonly roundTitle: string | null;
    readonly text: string | null;
    readonly summary: string | null;
    readonly failed: boolean | null;
    readonly cutOff: boolean | null;
    readonly stage: string | null;
    readonly message: string | null;
    readonly freeDebateUsed: boolean | null;
    readonly minWords: number | null;
    readonly maxWords: number | null;
    readonly deadline: string | null;
    readonly stopReason: string | null;
    readonly firstModel: {
      readonly id: string;
      readonly label: string;
      readonly kind: string;
    } | null;
    readonly secondModel: {
      readonly id: string;
      readonly label: string;
      readonly kind: string;
    } | null;
    readonly model: { readonly id: string; readonly label: string; readonly kind: string } | null;
    readonly writtenBy: {
      readonly kind: string;
      readonly modelId: string;
      readonly label: string;
      readonly serverModel: string | null;
      readonly tokensIn: number | null;
      readonly tokensOut: number | null;
      readonly firstTokenMs: number | null;
      readonly totalMs: number;
      readonly turns: number;
      readonly failedTurns: number;
    } | null;
    readonly team: {
      readonly searched: boolean;
      readonly plan: string;
      readonly review: string;
      readonly fixes: ReadonlyArray<string>;
      readonly revised: boolean;
      readonly steps: number;
      readonly evidence: ReadonlyArray<{ readonly title: string; readonly url: string }>;
    } | null;
    readonly judge: { readonly id: string; readonly label: string; readonly kind: string } | null;
    readonly verdict: {
      readonly winner: string | null;
      readonly tie: boolean;
      readonly tieReason: string | null;
      readonly firstTotal: number;
      readonly secondTotal: number;
      readonly scores: ReadonlyArray<{
        readonly speaker: string;
        readonly criterion: string;
        readonly score: number;
        readonly reason: string;
      }>;
      readonly readings: ReadonlyArray<{
        readonly order: string;
        readonly winner: string | null;
        readonly firstTotal: number;
        readonly secondTotal: number;
      }>;
      readonly judgedBy: {
        readonly kind: string;
        readonly modelId: string;
        readonly label: string;
        readonly serverModel: string | null;
        readonly tokensIn: number | null;
        readonly tokensOut: number | null;
        readonly firstTokenMs: number | null;
        readonly totalMs: number;
        readonly turns: number;
        readonly failedTurns: number;
      };
    } | null;
  };
};

export type StopDebateMutationVariables = Exact<{
  runId: string;
}>;

export type StopDebateMutation = {
  readonly stopDebate: { readonly stopped: boolean; readonly freeDebateUsed: boolean };
};

export type SubmitTurnMutationVariables = Exact<{
  runId: string;
  turn: number;
  text: string;
}>;

export type SubmitTurnMutation = { readonly submitTurn: boolean };

export type JudgeFigureFieldsFragment = {
  readonly value: number | null;
  readonly low: number | null;
  readonly high: number | null;
  readonly count: number;
};

export type JudgeRecordFieldsFragment = {
  readonly judgeId: string | null;
  readonly label: string;
  readonly kind: string | null;
  readonly debates: number;
  readonly positionConsistency: {
    readonly value: number | null;
    readonly low: number | null;
    readonly high: number | null;
    readonly count: number;
  };
  readonly firstShownMargin: {
    readonly value: number | null;
    readonly low: number | null;
    readonly high: number | null;
    readonly count: number;
  };
  readonly pairwiseAgreement: {
    readonly value: number | null;
    readonly low: number | null;
    readonly high: number | null;
    readonly count: number;
  };
  readonly fleissKappa: {
    readonly value: number | null;
    readonly low: number | null;
    readonly high: number | null;
    readonly count: number;
  };
  readonly selfPreference: {
    readonly value: number | null;
    readonly low: number | null;
    readonly high: number | null;
    readonly count: number;
  };
  readonly lengthSlope: {
    readonly value: number | null;
    readonly low: number | null;
    readonly high: number | null;
    readonly count: number;
  };
  readonly readersMinds: {
    readonly agreement: {
      readonly value: number | null;
      readonly low: number | null;
      readonly high: number | null;
      readonly count: number;
    };
    readonly kappa: {
      readonly value: number | null;
      readonly low: number | null;
      readonly high: number | null;
      readonly count: number;
    };
  };
  readonly readersVotes: {
    readonly agreement: {
      readonly value: number | null;
      readonly low: number | null;
      readonly high: number | null;
      readonly count: number;
    };
    readonly kappa: {
      readonly value: number | null;
      readonly low: number | null;
      readonly high: number | null;
      readonly count: number;
    };
  };
};

export type JudgesQueryVariables = Exact<{ [key: string]: never }>;

export type JudgesQuery = {
  readonly judges: {
    readonly debates: number;
    readonly bootstrapRounds: number;
    readonly computedAt: string | null;
    readonly judges: ReadonlyArray<{
      readonly judgeId: string | null;
      readonly label: string;
      readonly kind: string | null;
      readonly debates: number;
      readonly positionConsistency: {
        readonly value: number | null;
        readonly low: number | null;
        readonly high: number | null;
        readonly count: number;
      };
      readonly firstShownMargin: {
        readonly value: number | null;
        readonly low: number | null;
        readonly high: number | null;
        readonly count: number;
      };
      readonly pairwiseAgreement: {
        readonly value: number | null;
        readonly low: number | null;
        readonly high: number | null;
        readonly count: number;
      };
      readonly fleissKappa: {
        readonly value: number | null;
        readonly low: number | null;
        readonly high: number | null;
        readonly count: number;
      };
      readonly selfPreference: {
        readonly value: number | null;
        readonly low: number | null;
        readonly high: number | null;
        readonly count: number;
      };
      readonly lengthSlope: {
        readonly value: number | null;
        readonly low: number | null;
        readonly high: number | null;
        readonly count: number;
      };
      readonly readersMinds: {
        readonly agreement: {
          readonly value: number | null;
          readonly low: number | null;
          readonly high: number | null;
          readonly count: number;
        };
        readonly kappa: {
          readonly value: number | null;
          readonly low: number | null;
          readonly high: number | null;
          readonly count: number;
        };
      };
      readonly readersVotes: {
        readonly agreement: {
          readonly value: number | null;
          readonly low: number | null;
          readonly high: number | null;
          readonly count: number;
        };
        readonly kappa: {
          readonly value: number | null;
          readonly low: number | null;
          readonly high: number | null;
          readonly count: number;
        };
      };
    }>;
    readonly all: {
      readonly judgeId: string | null;
      readonly label: string;
      readonly kind: string | null;
      readonly debates: number;
      readonly positionConsistency: {
        readonly value: number | null;
        readonly low: number | null;
        readonly high: number | null;
        readonly count: number;
      };
      readonly firstShownMargin: {
        readonly value: number | null;
        readonly low: number | null;
        readonly high: number | null;
        readonly count: number;
      };
      readonly pairwiseAgreement: {
        readonly value: number | null;
        readonly low: number | null;
        readonly high: number | null;
        readonly count: number;
      };
      readonly fleissKappa: {
        readonly value: number | null;
        readonly low: number | null;
        readonly high: number | null;
        readonly count: number;
      };
      readonly selfPreference: {
        readonly value: number | null;
        readonly low: number | null;
        readonly high: number | null;
        readonly count: number;
      };
      readonly lengthSlope: {
        readonly value: number | null;
        readonly low: number | null;
        readonly high: number | null;
        readonly count: number;
      };
      readonly readersMinds: {
        readonly agreement: {
          readonly value: number | null;
          readonly low: number | null;
          readonly high: number | null;
          readonly count: number;
        };
        readonly kappa: {
          readonly value: number | null;
          readonly low: number | null;
          readonly high: number | null;
          readonly count: number;
        };
      };
      readonly readersVotes: {
        readonly agreement: {
          readonly value: number | null;
          readonly low: number | null;
          readonly high: number | null;
          readonly count: number;
        };
        readonly kappa: {
          readonly value: number | null;
          readonly low: number | null;
          readonly high: number | null;
          readonly count: number;
        };
      };
    };
  };
};

export type LeaderboardRowFieldsFragment = {
  readonly id: string;
  readonly label: string;
  readonly kind: LeaderboardRowKind | null;
  readonly rating: number;
  readonly low: number;
  readonly high: number;
  readonly debates: number;
  readonly pairs: number;
  readonly audience: {
    readonly rating: number;
    readonly low: number;
    readonly high: number;
    readonly debates: number;
  } | null;
};

export type LeaderboardQueryVariables = Exact<{
  subject: LeaderboardSubject;
  pairsOnly: boolean;
  controlled: boolean;
}>;

export type LeaderboardQuery = {
  readonly leaderboard: {
    readonly subject: LeaderboardSubject;
    readonly pairsOnly: boolean;
    readonly controlled: boolean;
    readonly debates: number;
    readonly apartDebates: number;
    readonly bootstrapRounds: number;
    readonly computedAt: string | null;
    readonly notRated: {
      readonly sameSubject: number;
      readonly notRecorded: number;
      readonly personalityHints: number;
      readonly dailyLimit: number;
    };
    readonly rows: ReadonlyArray<{
      readonly id: string;
      readonly label: string;
      readonly kind: LeaderboardRowKind | null;
      readonly rating: number;
      readonly low: number;
      readonly high: number;
      readonly debates: number;
      readonly pairs: number;
      readonly audience: {
        readonly rating: number;
        readonly low: number;
        readonly high: number;
        readonly debates: number;
      } | null;
    }>;
    readonly apart: ReadonlyArray<{
      readonly id: string;
      readonly label: string;
      readonly kind: LeaderboardRowKind | null;
      readonly rating: number;
      readonly low: number;
      readonly high: number;
      readonly debates: number;
      readonly pairs: number;
      readonly audience: {
        readonly rating: number;
        readonly low: number;
        readonly high: number;
        readonly debates: number;
      } | null;
    }>;
  };
};

export type SignInProvidersQueryVariables = Exact<{ [key: string]: never }>;

export type SignInProvidersQuery = { readonly signInProviders: ReadonlyArray<SignInProvider> };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const AuthSessionFieldsFragmentDoc = new TypedDocumentString(
  `
    fragment AuthSessionFields on AuthSession {
  accessToken
  expiresIn
  user {
    id
    email
    displayName
    photoURL
    isPro
    createdAt
    mustVerifyEmail
  }
}
    `,
  { fragmentName: 'AuthSessionFields' },
) as unknown as TypedDocumentString<AuthSessionFieldsFragment, unknown>;
export const MindsChangedFieldsFragmentDoc = new TypedDocumentString(
  `
    fragment MindsChangedFields on MindsChanged {
  readers
  shares {
    before {
      for
      against
      undecided
    }
    after {
      for
      against
    }
    gain {
      for
      against
    }
    gainedReaders {
      for
      against
    }
    winner
  }
}
    `,
  { fragmentName: 'MindsChangedFields' },
) as unknown as TypedDocumentString<MindsChangedFieldsFragment, unknown>;
export const WrittenByFieldsFragmentDoc = new TypedDocumentString(
  `
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
    `,
  { fragmentName: 'WrittenByFields' },
) as unknown as TypedDocumentString<WrittenByFieldsFragment, unknown>;
export const DebateSpeakerFieldsFragmentDoc = new TypedDocumentString(
  `
    fragment DebateSpeakerFields on DebateSpeaker {
  name
  stance
  rhetoricStyle
  writtenBy {
    ...WrittenByFields
  }
}
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
}`,
  { fragmentName: 'DebateSpeakerFields' },
) as unknown as TypedDocumentString<DebateSpeakerFieldsFragment, unknown>;
export const TeamNotesFieldsFragmentDoc = new TypedDocumentString(
  `
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
    `,
  { fragmentName: 'TeamNotesFields' },
) as unknown as TypedDocumentString<TeamNotesFieldsFragment, unknown>;
export const DebateRoundFieldsFragmentDoc = new TypedDocumentString(
  `
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
}`,
  { fragmentName: 'DebateRoundFields' },
) as unknown as TypedDocumentString<DebateRoundFieldsFragment, unknown>;
export const DebateVerdictFieldsFragmentDoc = new TypedDocumentString(
  `
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
}`,
  { fragmentName: 'DebateVerdictFields' },
) as unknown as TypedDocumentString<DebateVerdictFieldsFragment, unknown>;
export const VerdictSummaryFieldsFragmentDoc = new TypedDocumentString(
  `
    fragment VerdictSummaryFields on DebateVerdict {
  winner
  tie
  firstTotal
  secondTotal
}
    `,
  { fragmentName: 'VerdictSummaryFields' },
) as unknown as TypedDocumentString<VerdictSummaryFieldsFragment, unknown>;
export const JudgeFigureFieldsFragmentDoc = new TypedDocumentString(
  `
    fragment JudgeFigureFields on JudgeFigure {
  value
  low
  high
  count
}
    `,
  { fragmentName: 'JudgeFigureFields' },
) as unknown as TypedDocumentString<JudgeFigureFieldsFragment, unknown>;
export const JudgeRecordFieldsFragmentDoc = new TypedDocumentString(
  `
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
    fragment JudgeFigureFields on JudgeFigure {
  value
  low
  high
  count
}`,
  { fragmentName: 'JudgeRecordFields' },
) as unknown as TypedDocumentString<JudgeRecordFieldsFragment, unknown>;
export const LeaderboardRowFieldsFragmentDoc = new TypedDocumentString(
  `
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
    `,
  { fragmentName: 'LeaderboardRowFields' },
) as unknown as TypedDocumentString<LeaderboardRowFieldsFragment, unknown>;
export const PeopleListingDocument = new TypedDocumentString(`
    query PeopleListing {
  peopleListing {
    listed
    name
    ratedDebates
  }
}
    `) as unknown as TypedDocumentString<PeopleListingQuery, PeopleListingQueryVariables>;
export const SetPeopleListingDocument = new TypedDocumentString(`
    mutation SetPeopleListing($listed: Boolean!, $name: String) {
  setPeopleListing(listed: $listed, name: $name) {
    listed
    name
    ratedDebates
  }
}
    `) as unknown as TypedDocumentString<
  SetPeopleListingMutation,
  SetPeopleListingMutationVariables
>;
export const UsageDocument = new TypedDocumentString(`
    query Usage {
  usage {
    freeDebatesRemaining
    lastDebateStarted
    nextFreeDebateAt
    totalDebates
    memberSince
    tokensIn
    tokensOut
  }
}
    `) as unknown as TypedDocumentString<UsageQuery, UsageQueryVariables>;
export const RefreshSessionDocument = new TypedDocumentString(`
    mutation RefreshSession {
  refreshSession {
    ...AuthSessionFields
  }
}
    fragment AuthSessionFields on AuthSession {
  accessToken
  expiresIn
  user {
    id
    email
    displayName
    photoURL
    isPro
    createdAt
    mustVerifyEmail
  }
}`) as unknown as TypedDocumentString<RefreshSessionMutation, RefreshSessionMutationVariables>;
export const SignInDocument = new TypedDocumentString(`
    mutation SignIn($email: String!, $password: String!) {
  signIn(email: $email, password: $password) {
    ...AuthSessionFields
  }
}
    fragment AuthSessionFields on AuthSession {
  accessToken
  expiresIn
  user {
    id
    email
    displayName
    photoURL
    isPro
    createdAt
    mustVerifyEmail
  }
}`) as unknown as TypedDocumentString<SignInMutation, SignInMutationVariables>;
export const SignUpDocument = new TypedDocumentString(`
    mutation SignUp($email: String!, $password: String!) {
  signUp(email: $email, password: $password) {
    ...AuthSessionFields
  }
}
    fragment AuthSessionFields on AuthSession {
  accessToken
  expiresIn
  user {
    id
    email
    displayName
    photoURL
    isPro
    createdAt
    mustVerifyEmail
  }
}`) as unknown as TypedDocumentString<SignUpMutation, SignUpMutationVariables>;
export const SignInWithProviderDocument = new TypedDocumentString(`
    mutation SignInWithProvider($provider: SignInProvider!) {
  signInWithProvider(provider: $provider)
}
    `) as unknown as TypedDocumentString<
  SignInWithProviderMutation,
  SignInWithProviderMutationVariables
>;
export const CompleteProviderSignInDocument = new TypedDocumentString(`
    mutation CompleteProviderSignIn($code: String!, $state: String!) {
  completeProviderSignIn(code: $code, state: $state) {
    ...AuthSessionFields
  }
}
    fragment AuthSessionFields on AuthSession {
  accessToken
  expiresIn
  user {
    id
    email
    displayName
    photoURL
    isPro
    createdAt
    mustVerifyEmail
  }
}`) as unknown as TypedDocumentString<
  CompleteProviderSignInMutation,
  CompleteProviderSignInMutationVariables
>;
export const SignOutDocument = new TypedDocumentString(`
    mutation SignOut {
  signOut
}
    `) as unknown as TypedDocumentString<SignOutMutation, SignOutMutationVariables>;
export const SendVerificationEmailDocument = new TypedDocumentString(`
    mutation SendVerificationEmail {
  sendVerificationEmail
}
    `) as unknown as TypedDocumentString<
  SendVerificationEmailMutation,
  SendVerificationEmailMutationVariables
>;
export const CommunityDebatesDocument = new TypedDocumentString(`
    query CommunityDebates($category: String, $sort: RankingSort, $period: RankingPeriod, $starredOnly: Boolean, $starredIds: [String!], $utcOffsetMinutes: Int, $after: String) {
  communityDebates(
    category: $category
    sort: $sort
    period: $period
    starredOnly: $starredOnly
    starredIds: $starredIds
    utcOffsetMinutes: $utcOffsetMinutes
    after: $after
    limit: 10
  ) {
    debates {
      id
      topic
      categories
      userDisplayName
      sharedAt
      upvotes
      downvotes
      interesting
      views
      myVote
      starred
      model1 {
        ...DebateSpeakerFields
      }
      model2 {
        ...DebateSpeakerFields
      }
      verdict {
        ...VerdictSummaryFields
      }
      mindsChanged {
        ...MindsChangedFields
      }
      example
      stopped
      rating {
        text
      }
    }
    next
  }
}
    fragment MindsChangedFields on MindsChanged {
  readers
  shares {
    before {
      for
      against
      undecided
    }
    after {
      for
      against
    }
    gain {
      for
      against
    }
    gainedReaders {
      for
      against
    }
    winner
  }
}
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
fragment DebateSpeakerFields on DebateSpeaker {
  name
  stance
  rhetoricStyle
  writtenBy {
    ...WrittenByFields
  }
}
fragment VerdictSummaryFields on DebateVerdict {
  winner
  tie
  firstTotal
  secondTotal
}`) as unknown as TypedDocumentString<CommunityDebatesQuery, CommunityDebatesQueryVariables>;
export const CommunityDebateDocument = new TypedDocumentString(`
    query CommunityDebate($id: String!) {
  communityDebate(id: $id) {
    id
    topic
    categories
    userDisplayName
    sharedAt
    upvotes
    downvotes
    interesting
    views
    model1 {
      ...DebateSpeakerFields
    }
    model2 {
      ...DebateSpeakerFields
    }
    rounds {
      ...DebateRoundFields
    }
    verdict {
      ...DebateVerdictFields
    }
    mindsChanged {
      ...MindsChangedFields
    }
    example
    stopped
    rating {
      text
    }
    myVote
    standBefore
    askBefore
    pairedWith {
      id
      isRematch
      model1 {
        ...DebateSpeakerFields
      }
      model2 {
        ...DebateSpeakerFields
      }
      verdict {
        ...VerdictSummaryFields
      }
    }
  }
}
    fragment MindsChangedFields on MindsChanged {
  readers
  shares {
    before {
      for
      against
      undecided
    }
    after {
      for
      against
    }
    gain {
      for
      against
    }
    gainedReaders {
      for
      against
    }
    winner
  }
}
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
fragment DebateSpeakerFields on DebateSpeaker {
  name
  stance
  rhetoricStyle
  writtenBy {
    ...WrittenByFields
  }
}
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
fragment VerdictSummaryFields on DebateVerdict {
  winner
  tie
  firstTotal
  secondTotal
}`) as unknown as TypedDocumentString<CommunityDebateQuery, CommunityDebateQueryVariables>;
export const VoteDocument = new TypedDocumentString(`
    mutation Vote($debateId: String!, $kind: VoteKind) {
  vote(debateId: $debateId, kind: $kind) {
    debateId
    upvotes
    downvotes
    interesting
    myVote
    mindsChanged {
      ...MindsChangedFields
    }
  }
}
    fragment MindsChangedFields on MindsChanged {
  readers
  shares {
    before {
      for
      against
      undecided
    }
    after {
      for
      against
    }
    gain {
      for
      against
    }
    gainedReaders {
      for
      against
    }
    winner
  }
}`) as unknown as TypedDocumentString<VoteMutation, VoteMutationVariables>;
export const StandBeforeDocument = new TypedDocumentString(`
    mutation StandBefore($debateId: String!, $stance: StanceBefore) {
  standBefore(debateId: $debateId, stance: $stance) {
    debateId
    standBefore
    mindsChanged {
      ...MindsChangedFields
    }
  }
}
    fragment MindsChangedFields on MindsChanged {
  readers
  shares {
    before {
      for
      against
      undecided
    }
    after {
      for
      against
    }
    gain {
      for
      against
    }
    gainedReaders {
      for
      against
    }
    winner
  }
}`) as unknown as TypedDocumentString<StandBeforeMutation, StandBeforeMutationVariables>;
export const ToggleStarDocument = new TypedDocumentString(`
    mutation ToggleStar($debateId: String!, $starred: Boolean) {
  toggleStar(debateId: $debateId, starred: $starred)
}
    `) as unknown as TypedDocumentString<ToggleStarMutation, ToggleStarMutationVariables>;
export const CategoriesDocument = new TypedDocumentString(`
    query Categories {
  categories
}
    `) as unknown as TypedDocumentString<CategoriesQuery, CategoriesQueryVariables>;
export const MergeStarsDocument = new TypedDocumentString(`
    mutation MergeStars($debateIds: [String!]!) {
  mergeStars(debateIds: $debateIds)
}
    `) as unknown as TypedDocumentString<MergeStarsMutation, MergeStarsMutationVariables>;
export const MyDebatesDocument = new TypedDocumentString(`
    query MyDebates($search: String, $category: String, $order: String, $after: String) {
  myDebates(
    search: $search
    category: $category
    order: $order
    after: $after
    limit: 10
  ) {
    debates {
      id
      topic
      categories
      userDisplayName
      timestamp
      sharedAt
      isPublic
      upvotes
      downvotes
      model1 {
        ...DebateSpeakerFields
      }
      model2 {
        ...DebateSpeakerFields
      }
      verdict {
        ...VerdictSummaryFields
      }
      rematchOf
      moderatorEnabled
      stopped
    }
    total
    next
  }
}
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
fragment DebateSpeakerFields on DebateSpeaker {
  name
  stance
  rhetoricStyle
  writtenBy {
    ...WrittenByFields
  }
}
fragment VerdictSummaryFields on DebateVerdict {
  winner
  tie
  firstTotal
  secondTotal
}`) as unknown as TypedDocumentString<MyDebatesQuery, MyDebatesQueryVariables>;
export const MyDebateDocument = new TypedDocumentString(`
    query MyDebate($id: String!) {
  myDebate(id: $id) {
    id
    topic
    categories
    userDisplayName
    sharedAt
    upvotes
    downvotes
    model1 {
      ...DebateSpeakerFields
    }
    model2 {
      ...DebateSpeakerFields
    }
    rounds {
      ...DebateRoundFields
    }
    verdict {
      ...DebateVerdictFields
    }
  }
}
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
fragment DebateSpeakerFields on DebateSpeaker {
  name
  stance
  rhetoricStyle
  writtenBy {
    ...WrittenByFields
  }
}
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
}`) as unknown as TypedDocumentString<MyDebateQuery, MyDebateQueryVariables>;
export const UnsavedDebateDocument = new TypedDocumentString(`
    query UnsavedDebate {
  unsavedDebate {
    runId
    topic
    model1 {
      ...DebateSpeakerFields
    }
    model2 {
      ...DebateSpeakerFields
    }
    rounds {
      ...DebateRoundFields
    }
    verdict {
      ...DebateVerdictFields
    }
    moderatorEnabled
    rematchOf
    stopped
  }
}
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
fragment DebateSpeakerFields on DebateSpeaker {
  name
  stance
  rhetoricStyle
  writtenBy {
    ...WrittenByFields
  }
}
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
}`) as unknown as TypedDocumentString<UnsavedDebateQuery, UnsavedDebateQueryVariables>;
export const SaveDebateDocument = new TypedDocumentString(`
    mutation SaveDebate($runId: String!, $categories: [String!]!) {
  saveDebate(runId: $runId, categories: $categories) {
    id
  }
}
    `) as unknown as TypedDocumentString<SaveDebateMutation, SaveDebateMutationVariables>;
export const ShareDebateDocument = new TypedDocumentString(`
    mutation ShareDebate($id: String!) {
  shareDebate(id: $id) {
    id
    isPublic
  }
}
    `) as unknown as TypedDocumentString<ShareDebateMutation, ShareDebateMutationVariables>;
export const UnshareDebateDocument = new TypedDocumentString(`
    mutation UnshareDebate($id: String!) {
  unshareDebate(id: $id) {
    id
    isPublic
  }
}
    `) as unknown as TypedDocumentString<UnshareDebateMutation, UnshareDebateMutationVariables>;
export const CatalogDocument = new TypedDocumentString(`
    query Catalog {
  catalog {
    categories
    rhetoricStyles
    debateFormats
    models {
      id
      label
      kind
      status
      speakerMode
    }
    searcher
    localModel {
      status
      name
      progress
    }
    roundTitles
    topics
  }
}
    `) as unknown as TypedDocumentString<CatalogQuery, CatalogQueryVariables>;
export const StartDebateDocument = new TypedDocumentString(`
    mutation StartDebate($settings: DebateSettingsInput!) {
  startDebate(settings: $settings)
}
    `) as unknown as TypedDocumentString<StartDebateMutation, StartDebateMutationVariables>;
export const StartRematchDocument = new TypedDocumentString(`
    mutation StartRematch($debateId: String!) {
  startRematch(debateId: $debateId)
}
    `) as unknown as TypedDocumentString<StartRematchMutation, StartRematchMutationVariables>;
export const DebateRunDocument = new TypedDocumentString(`
    subscription DebateRun($id: String!) {
  debateRun(id: $id) {
    type
    seq
    at
    topic
    firstStance
    secondStance
    firstModel {
      id
      label
      kind
    }
    secondModel {
      id
      label
      kind
    }
    model {
      id
      label
      kind
    }
    writtenBy {
      ...WrittenByFields
    }
    turn
    speaker
    round
    roundTitle
    text
    summary
    failed
    cutOff
    stage
    team {
      ...TeamNotesFields
    }
    judge {
      id
      label
      kind
    }
    verdict {
      ...DebateVerdictFields
    }
    message
    freeDebateUsed
    minWords
    maxWords
    deadline
    stopReason
  }
}
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
}`) as unknown as TypedDocumentString<DebateRunSubscription, DebateRunSubscriptionVariables>;
export const StopDebateDocument = new TypedDocumentString(`
    mutation StopDebate($runId: String!) {
  stopDebate(runId: $runId) {
    stopped
    freeDebateUsed
  }
}
    `) as unknown as TypedDocumentString<StopDebateMutation, StopDebateMutationVariables>;
export const SubmitTurnDocument = new TypedDocumentString(`
    mutation SubmitTurn($runId: String!, $turn: Int!, $text: String!) {
  submitTurn(runId: $runId, turn: $turn, text: $text)
}
    `) as unknown as TypedDocumentString<SubmitTurnMutation, SubmitTurnMutationVariables>;
export const JudgesDocument = new TypedDocumentString(`
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
    fragment JudgeFigureFields on JudgeFigure {
  value
  low
  high
  count
}
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
}`) as unknown as TypedDocumentString<JudgesQuery, JudgesQueryVariables>;
export const LeaderboardDocument = new TypedDocumentString(`
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
}`) as unknown as TypedDocumentString<LeaderboardQuery, LeaderboardQueryVariables>;
export const SignInProvidersDocument = new TypedDocumentString(`
    query SignInProviders {
  signInProviders
}
    `) as unknown as TypedDocumentString<SignInProvidersQuery, SignInProvidersQueryVariables>;
