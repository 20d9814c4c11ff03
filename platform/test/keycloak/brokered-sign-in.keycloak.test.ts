import { describeBrokeredSignIn } from '../brokered-sign-in-suite.js';
import { keycloakRealm, pointBrokersAt } from './keycloak-realm.js';

describeBrokeredSignIn('Keycloak', async (providers) => {
  await pointBrokersAt(providers);
  return keycloakRealm();
});
