import { Navigate } from 'react-router';
import { useAppSelector } from '../../app/hooks';

/** /history: the 'Personal Library', for signed-in users only (spec §2 route table). */
export function HistoryPage() {
  const status = useAppSelector((state) => state.auth.status);
  if (status === 'signedOut' || status === 'error') return <Navigate to="/login" replace />;
  return (
    <section className="page" aria-labelledby="library-heading">
      <h1 id="library-heading">Personal Library</h1>
      {status === 'loading' ? <p>Checking your sign-in…</p> : <div className="library-area" />}
    </section>
  );
}
