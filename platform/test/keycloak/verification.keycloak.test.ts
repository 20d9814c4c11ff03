import { describeEmailVerification } from '../verification-suite.js';
import { keycloakRealm } from './keycloak-realm.js';

describeEmailVerification('Keycloak', async () => keycloakRealm());
