import { TextDecoder, TextEncoder } from 'node:util';

// jsdom lacks the encoders React Router uses; Node's are the same standard API.
Object.assign(globalThis, { TextEncoder, TextDecoder });

// jsdom has no fetch. By default a request to the gateway stays pending, as on a slow network,
// so a component test sees the state it set up; a test that needs answers installs its own.
globalThis.fetch = (() => new Promise<never>(() => undefined)) as typeof fetch;
