import { type AuthUser, initialAuthState } from '../features/auth/auth.slice';
import type { RunEvent } from '../features/engine/engine.slice';

/** The store's state with Ada signed in; `user` overrides her account's fields. */
export function signedInState(user: Partial<AuthUser> = {}) {
  return {
    auth: {
      ...initialAuthState(),
      status: 'signedIn' as const,
      user: {
        uid: 'u1',
        email: 'ada@example.org',
        displayName: null,
        photoURL: null,
        isPro: false,
        creationTime: null,
        mustVerifyEmail: false,
        ...user,
      },
    },
  };
}

/** A debateRun event as the subscription sends it: every field null but what `fields` say. */
export function runEvent(seq: number, fields: Partial<RunEvent>): RunEvent {
  return {
    type: 'textDelta',
    seq,
    at: 0,
    topic: null,
    firstStance: null,
    secondStance: null,
    minWords: null,
    maxWords: null,
    deadline: null,
    stopReason: null,
    turn: null,
    speaker: null,
    round: null,
    roundTitle: null,
    text: null,
    summary: null,
    failed: null,
    cutOff: null,
    stage: null,
    team: null,
    message: null,
    freeDebateUsed: null,
    firstModel: null,
    secondModel: null,
    model: null,
    writtenBy: null,
    judge: null,
    verdict: null,
    ...fields,
  };
}
