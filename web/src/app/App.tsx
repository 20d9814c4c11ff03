import { lazy, Suspense, useEffect } from 'react';
import { Link, Navigate, Route, Routes, useLocation } from 'react-router';
import { AuthProvider } from '../features/auth/AuthProvider';
import { CommunityHub } from '../features/community/CommunityHub';
import { RankingTab } from '../features/community/RankingTab';
import { NavBar } from '../features/navigation/NavBar';
import { usePageScroll } from './scroll';
import { titleFor } from './titles';

// The community ranking is where visitors land (/ redirects there): it is in the first
// bundle; every other page loads when it is first opened.
const AboutPage = lazy(() =>
  import('../features/about/AboutPage').then((module) => ({ default: module.AboutPage })),
);
const AccountPage = lazy(() =>
  import('../features/account/AccountPage').then((module) => ({ default: module.AccountPage })),
);
const DebatePage = lazy(() =>
  import('../features/community/DebatePage').then((module) => ({ default: module.DebatePage })),
);
const EnginePage = lazy(() =>
  import('../features/engine/EnginePage').then((module) => ({ default: module.EnginePage })),
);
const HistoryPage = lazy(() =>
  import('../features/history/HistoryPage').then((module) => ({ default: module.HistoryPage })),
);
const HistoryTab = lazy(() =>
  import('../features/history/HistoryTab').then((module) => ({ default: module.HistoryTab })),
);
const LeaderboardTab = lazy(() =>
  import('../features/leaderboard/LeaderboardTab').then((module) => ({
    default: module.LeaderboardTab,
  })),
);
const JudgesTab = lazy(() =>
  import('../features/judges/JudgesTab').then((module) => ({ default: module.JudgesTab })),
);
const LoginPage = lazy(() =>
  import('../features/login/LoginPage').then((module) => ({ default: module.LoginPage })),
);

function NotFound() {
  const { pathname } = useLocation();
  return (
    <section className="page" aria-labelledby="not-found-heading">
      <h1 id="not-found-heading">Page not found</h1>
      <p>There is no page at {pathname}. It may have moved, or the link may be mistyped.</p>
      <p className="card-actions">
        <Link className="button" to="/community/ranking">
          Go to the Community Forum
        </Link>
        <Link className="button secondary" to="/engine">
          Start a debate
        </Link>
      </p>
    </section>
  );
}

/** Every page's foot: what this is, and the ways on. */
function Footer() {
  return (
    <footer className="site-footer">
      <p>AI Debate: two AI speakers, three rounds, a judge, and the community's vote.</p>
      <nav aria-label="Footer">
        <Link to="/about">How it works</Link>
        <Link to="/community/ranking">Shared debates</Link>
        <Link to="/community/leaderboard">Model leaderboard</Link>
        <Link to="/engine">New debate</Link>
      </nav>
    </footer>
  );
}

/** Sets the browser tab's title for the route shown (titles.ts). */
function RouteTitle() {
  const { pathname } = useLocation();
  useEffect(() => {
    const title = titleFor(pathname);
    if (title) document.title = title;
  }, [pathname]);
  return null;
}

/** A new page opens at its top; Back and Forward return to the reader's place (scroll.ts). */
function PageScroll() {
  usePageScroll();
  return null;
}

/** The route table of spec §2. */
export function AppRoutes() {
  return (
    <Suspense
      fallback={
        <p className="page" role="status">
          Loading…
        </p>
      }
    >
      <Routes>
        <Route path="/" element={<Navigate to="/community/ranking" replace />} />
        <Route path="/engine" element={<EnginePage />} />
        <Route path="/community/debate/:id" element={<DebatePage />} />
        <Route path="/community" element={<CommunityHub />}>
          <Route index element={<Navigate to="/community/ranking" replace />} />
          <Route path="ranking" element={<RankingTab />} />
          <Route path="history" element={<HistoryTab />} />
          <Route path="leaderboard" element={<LeaderboardTab />} />
          <Route path="judges" element={<JudgesTab />} />
          <Route path="*" element={<Navigate to="/community/ranking" replace />} />
        </Route>
        <Route path="/history" element={<HistoryPage />} />
        <Route path="/about" element={<AboutPage />} />
        <Route path="/login" element={<LoginPage />} />
        <Route path="/account" element={<AccountPage />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </Suspense>
  );
}

export function App() {
  return (
    <AuthProvider>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <RouteTitle />
      <PageScroll />
      <NavBar />
      <main id="main">
        <AppRoutes />
      </main>
      <Footer />
    </AuthProvider>
  );
}
