import { allowanceTexts } from '@debate/contracts/constants';
import { type ReactNode, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Dialog } from '../../components/Dialog';
import { useAuth } from '../auth/AuthProvider';
import { RequireAuth } from '../auth/RequireAuth';
import { formatTokens } from '../debates/provenance';
import { longDate, NextFreeDebate } from './NextFreeDebate';
import { PeopleListingSection } from './PeopleListingSection';
import { useUsageQuery } from './usage.api';

/** The plan names of the Account Type row. */
const FREE_PLAN = 'Free Plan';
const PRO_PLAN = 'PRO';

const TOKENS_USED = 'Tokens used by your debates';

/** '12,480 in / 3,210 out': what the models read (prompts) and wrote for the user's debates. */
export function tokensUsed(usage: { tokensIn: number; tokensOut: number }): string {
  return `${formatTokens(usage.tokensIn)} in / ${formatTokens(usage.tokensOut)} out`;
}

function formatDate(iso: string | null): string {
  return iso ? longDate(iso) : '—';
}

/**
 * A term explained when it is hovered or focused: the explanation floats over the page (nothing
 * moves), is its description for a screen reader, and Escape hides it until the pointer or focus
 * comes back. Said once: no `title` beside it, which would show a second tooltip.
 */
function Tooltip({ term, text }: { term: ReactNode; text: string }) {
  const id = useId();
  const [dismissed, setDismissed] = useState(false);
  return (
    <span
      className={`tooltip${dismissed ? ' dismissed' : ''}`}
      onMouseEnter={() => setDismissed(false)}
    >
      <span
        className="tooltip-term"
        tabIndex={0}
        aria-describedby={id}
        onFocus={() => setDismissed(false)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setDismissed(true);
        }}
      >
        {term}
      </span>
      <span id={id} role="tooltip" className="tooltip-text">
        {text}
      </span>
    </span>
  );
}

/** PRO cannot be bought yet: the dialog says so, and nothing pretends to take a payment. */
function UpgradeDialog({ onClose }: { onClose: () => void }) {
  return (
    <Dialog labelledBy="upgrade-heading" onClose={onClose}>
      <h2 id="upgrade-heading">Upgrade to Pro</h2>
      <p>
        PRO accounts are not on sale yet. When they are, you will be able to upgrade here. Nothing
        has been charged.
      </p>
      <button type="button" className="button" autoFocus onClick={onClose}>
        Close
      </button>
    </Dialog>
  );
}

/**
 * Member Since, Free Debates Remaining (with its tooltip and refresh note), Last Debate, Total,
 * and the tokens the models read and wrote for the user's debates.
 */
function UsageStatistics({ memberSince }: { memberSince: string | null }) {
  const { data: usage, error } = useUsageQuery(undefined);
  return (
    <section className="card" aria-labelledby="usage-heading">
      <h2 id="usage-heading">Usage Statistics</h2>
      {error ? (
        <p className="hint">Your usage could not be read just now.</p>
      ) : (
        <dl className="facts">
          <dt>Member Since</dt>
          <dd>{formatDate(usage?.memberSince ?? memberSince)}</dd>
          <dt>
            <Tooltip term="Free Debates Remaining" text={allowanceTexts.refillTooltip} />
          </dt>
          <dd>
            {usage ? usage.freeDebatesRemaining : '…'}
            {usage && usage.freeDebatesRemaining === 0 && usage.lastDebateStarted ? (
              <>
                <span className="hint"> {allowanceTexts.refillNote}</span>
                <NextFreeDebate usage={usage} />
              </>
            ) : null}
          </dd>
          <dt>Last Debate</dt>
          <dd>
            {usage
              ? usage.lastDebateStarted
                ? formatDate(usage.lastDebateStarted)
                : 'None yet'
              : '…'}
          </dd>
          <dt>Total Debates Generated</dt>
          <dd>
            <Link to="/community/history">{usage ? usage.totalDebates : '…'}</Link>
          </dd>
          <dt>{TOKENS_USED}</dt>
          <dd>{usage ? tokensUsed(usage) : '…'}</dd>
        </dl>
      )}
    </section>
  );
}

function Account() {
  const { user, signOut } = useAuth();
  const navigate = useNavigate();
  const [upgrading, setUpgrading] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  if (!user) return null;

  const leave = async () => {
    setSigningOut(true);
    try {
      await signOut();
    } catch {
      // Recorded in the auth state ('Failed to sign out'); the session is gone either way.
    }
    navigate('/login', { replace: true });
  };

  return (
    <>
      <section className="card" aria-labelledby="profile-heading">
        <h2 id="profile-heading">Profile</h2>
        <dl className="facts">
          <dt>Email</dt>
          <dd>{user.email}</dd>
          <dt>Account Type</dt>
          <dd>{user.isPro ? PRO_PLAN : FREE_PLAN}</dd>
        </dl>
      </section>
      <UsageStatistics memberSince={user.creationTime} />
      <PeopleListingSection displayName={user.displayName} />
      <section className="card" aria-labelledby="subscription-heading">
        <h2 id="subscription-heading">Subscription</h2>
        <button type="button" className="button" onClick={() => setUpgrading(true)}>
          Upgrade to Pro
        </button>
      </section>
      <button
        type="button"
        className="button secondary"
        disabled={signingOut}
        onClick={() => void leave()}
      >
        Sign Out
      </button>
      {upgrading && <UpgradeDialog onClose={() => setUpgrading(false)} />}
    </>
  );
}

/** /account: profile, usage, the People board listing and subscription, for signed-in users. */
export function AccountPage() {
  return (
    <section className="page" aria-labelledby="account-heading">
      <h1 id="account-heading">Account</h1>
      <RequireAuth pending={<p>Checking your sign-in…</p>}>
        <Account />
      </RequireAuth>
    </section>
  );
}
