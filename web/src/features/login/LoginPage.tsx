/** /login. The e-mail, Google and GitHub sign-in arrive with the identity service (issue #4). */
export function LoginPage() {
  return (
    <section className="page narrow" aria-labelledby="login-heading">
      <h1 id="login-heading">Welcome Back</h1>
      <p>Signing in is not available yet.</p>
    </section>
  );
}
