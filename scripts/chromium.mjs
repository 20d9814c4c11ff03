// Debian's Chromium, as the scripts that drive a browser start it: its path (CHROMIUM_PATH
// overrides) and the flags this project's machines need (the browser tests use the same ones,
// web/e2e/support/browser.ts).
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
