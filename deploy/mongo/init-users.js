// Runs once, when the MongoDB container starts on an empty volume (docker-entrypoint-initdb.d):
// one user per service, each allowed only its own database (a service owns its collections).
// The passwords come from the container's environment (docker-compose.yml, .env).
const services = ['identity', 'usage', 'generation', 'debates', 'community'];
for (const service of services) {
  const variable = `MONGO_${service.toUpperCase()}_PASSWORD`;
  const password = process.env[variable];
  if (!password) throw new Error(`${variable} is not set: the ${service} service cannot sign in`);
  db.getSiblingDB(service).createUser({
    user: service,
    pwd: password,
    roles: [{ role: 'readWrite', db: service }],
  });
}
