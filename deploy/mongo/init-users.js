// Runs once, when the MongoDB container starts on an empty volume (docker-entrypoint-initdb.d):
// one user per service, each allowed only its own database (a service owns its collections).
// The passwords come from the container's environment (docker-compose.yml, .env), and may hold
// any characters: a service gets its password as MONGO_PASSWORD, apart from its MONGO_URL, and
// puts it into the URL percent-encoded itself. Every password is checked to be set before any
// user is created.
/* global db -- mongosh's, where this runs */
const services = ['identity', 'usage', 'generation', 'debates', 'community'];
const users = services.map((service) => {
  const variable = `MONGO_${service.toUpperCase()}_PASSWORD`;
  const password = process.env[variable];
  if (!password) throw new Error(`${variable} is not set: the ${service} service cannot sign in`);
  return { service, password };
});
for (const { service, password } of users) {
  db.getSiblingDB(service).createUser({
    user: service,
    pwd: password,
    roles: [{ role: 'readWrite', db: service }],
  });
}
