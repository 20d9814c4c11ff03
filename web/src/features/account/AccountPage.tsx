import { Navigate } from 'react-router';
import { useAppSelector } from '../../app/hooks';

/** /account: profile, usage statistics and subscription, for signed-in users (issue #4, #5). */
export function AccountPage() {
  const auth = useAppSelector((state) => state.auth);
  if (auth.status === 'signedOut' || auth.status === 'error')
    return <Navigate to="/login" replace />;
  return (
    <section className="page" aria-labelledby="account-heading">
      <h1 id="account-heading">Account</h1>
      {auth.status === 'loading' ? <p>Checking your sign-in…</p> : <p>{auth.user?.email}</p>}
    </section>
  );
}
