import { RequireAuth } from '../auth/RequireAuth';

/** /history: the 'Personal Library', for signed-in users only (spec §2 route table). */
export function HistoryPage() {
  return (
    <section className="page" aria-labelledby="library-heading">
      <h1 id="library-heading">Personal Library</h1>
      <RequireAuth pending={<p>Checking your sign-in…</p>}>
        <div className="library-area" />
      </RequireAuth>
    </section>
  );
}
