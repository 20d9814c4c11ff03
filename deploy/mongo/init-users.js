// Runs once, when the MongoDB container starts on an empty volume (docker-entrypoint-initdb.d):
// one user per service, each allowed only its own database (a service owns its collections).
// The passwords come from the container's environment (docker-compose.yml, .env).
//
// Each password also goes, as it is, into its service's mongodb:// URL (docker-compose.yml), so
// it must be URL-safe: a password with @ / : % or the like would break the URL, or be read as
// another one. Every password is checked before any user is created.
const services = ['identity', 'usage', 'generation', 'debates', 'community'];
const urlSafe = /^[A-Za-z0-9._~-]+$/;
const users = services.map((service) => {
  const variable = `MONGO_${service.toUpperCase()}_PASSWORD`;
  const password = process.env[variable];
  if (!password) throw new Error(`${variable} is not set: the ${service} service cannot sign in`);
  if (!urlSafe.test(password)) {
    throw new Error(
      `${variable} is not URL-safe: it goes into the ${service} service's MONGO_URL as it is. ` +
        'Use only letters, digits and - . _ ~ (e.g. openssl rand -hex 24), then remove the ' +
        'MongoDB volume (docker compose down, docker volume rm <project>_mongo-data) so that it ' +
        'is set up again',
    );
  }
  return { service, password };
});
for (const { service, password } of users) {
  db.getSiblingDB(service).createUser({
    user: service,
    pwd: password,
    roles: [{ role: 'readWrite', db: service }],
  });
}
