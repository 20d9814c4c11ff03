import { Link } from 'react-router';
import { useAppSelector } from '../../app/hooks';

/** 'Your Account Activity': the user's own debates, listed with issue #6. */
export function HistoryTab() {
  const status = useAppSelector((state) => state.auth.status);
  return (
    <div className="tab-panel">
      <h2>Your Account Activity</h2>
      {status === 'signedIn' ? null : status === 'loading' ? (
        <p>Checking your sign-in…</p>
      ) : (
        <p>
          <Link to="/login">Sign in</Link> to see the debates you generated.
        </p>
      )}
    </div>
  );
}
