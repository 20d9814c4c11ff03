export default async function globalTeardown() {
  await globalThis.__MAILPIT__?.stop();
}
