import { describeSignIn } from '../sign-in-suite.js';
import { keycloakRealm, tokenOfAnotherClient } from './keycloak-realm.js';

describeSignIn('Keycloak', async () => keycloakRealm(), tokenOfAnotherClient);
