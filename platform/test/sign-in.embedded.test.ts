import { startEmbeddedRealm } from './embedded-realm.js';
import { describeSignIn } from './sign-in-suite.js';

// The embedded issuer held to the suite Keycloak passes (test/keycloak).
describeSignIn('the embedded issuer', () => startEmbeddedRealm());
