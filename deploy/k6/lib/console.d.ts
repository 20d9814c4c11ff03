// k6 gives every script a console (its output goes to k6's log, with the VU's messages);
// @types/k6 does not declare it, and the DOM library would bring far more than k6 has.
declare const console: {
  log(...data: unknown[]): void;
  info(...data: unknown[]): void;
  warn(...data: unknown[]): void;
  error(...data: unknown[]): void;
  debug(...data: unknown[]): void;
};
