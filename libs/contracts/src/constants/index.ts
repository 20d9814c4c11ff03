// Plain values shared with the web app, which imports them from `@debate/contracts/constants`:
// nothing here may import zod or anything else, so that the browser's bundle takes only these.

/** At most this many locally kept stars are sent by a signed-out visitor or merged at sign-in. */
export const MAX_LOCAL_STARS = 500;
