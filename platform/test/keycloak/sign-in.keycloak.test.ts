import { describeSignIn } from '../sign-in-suite.js';
import { keycloakRealm } from './keycloak-realm.js';

describeSignIn('Keycloak', async () => keycloakRealm());
