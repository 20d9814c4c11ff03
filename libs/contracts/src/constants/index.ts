// Plain values shared with the web app, which imports them from `@debate/contracts/constants`:
// nothing here may import zod or anything else, so that the browser's bundle takes only these.

/** At most this many locally kept stars are sent by a signed-out visitor or merged at sign-in. */
export const MAX_LOCAL_STARS = 500;

/** The speaker that needs no network: always in the model catalogue, under this id and label. */
export const OFFLINE_MODEL_ID = 'offline';
export const OFFLINE_MODEL_LABEL = 'Offline speaker';
/** A model's kind (in a catalogue entry and in what wrote a turn): a model, or the offline speaker. */
export const modelKinds = ['model', 'offline'] as const;
