import { brokerEnvSchema, brokersFrom } from '@debate/embedded-keycloak';
import { describeBrokeredSignIn, WEB_ORIGIN } from './brokered-sign-in-suite.js';
import { startEmbeddedRealm } from './embedded-realm.js';

describeBrokeredSignIn('the embedded issuer', (providers) =>
  startEmbeddedRealm({
    brokers: brokersFrom(brokerEnvSchema.parse(providers.env())),
    webOrigins: [WEB_ORIGIN],
  }),
);
