import { readSettings } from './config.js';
import { createPlatform } from './platform.js';

// The Pulumi program (Pulumi.yaml runs dist/index.js): the stack's settings, the platform.
const platform = createPlatform(readSettings());

export const url = platform.webOrigin;
export const namespace = platform.namespace.metadata.name;
export const natsUrl = platform.nats.url;
