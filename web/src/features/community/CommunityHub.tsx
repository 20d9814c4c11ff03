import { Suspense, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { COMMUNITY_NAME } from '../navigation/NavBar';
import { chooseTagline, HISTORY_TAGLINE } from './tagline';

const tabs = [
  { to: '/community/ranking', label: 'Community Forum' },
  { to: '/community/history', label: 'Account Activity' },
  { to: '/community/leaderboard', label: 'Leaderboard' },
  { to: '/community/judges', label: 'Judges' },
] as const;

/** The community hub: heading, tagline and its tabs (spec §2, the leaderboard and the judges). */
export function CommunityHub() {
  const { pathname } = useLocation();
  const [tagline] = useState(() => chooseTagline(Math.random()));
  const onHistory = pathname.startsWith('/community/history');

  return (
    <section className="page" aria-labelledby="community-heading">
      <h1 id="community-heading">{COMMUNITY_NAME}</h1>
      <p className="tagline">{onHistory ? HISTORY_TAGLINE : tagline}</p>
      <nav className="tabs" aria-label="Community sections">
        {tabs.map((tab) => {
          const current = pathname.startsWith(tab.to);
          return (
            <Link
              key={tab.to}
              to={tab.to}
              className={current ? 'tab active' : 'tab'}
              aria-current={current ? 'page' : undefined}
            >
              {tab.label}
            </Link>
          );
        })}
      </nav>
      <Suspense fallback={<p role="status">Loading…</p>}>
        <Outlet />
      </Suspense>
    </section>
  );
}
