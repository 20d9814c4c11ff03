import { TextDecoder, TextEncoder } from 'node:util';

// jsdom lacks the encoders React Router uses; Node's are the same standard API.
Object.assign(globalThis, { TextEncoder, TextDecoder });
