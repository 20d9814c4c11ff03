import { Navigate, Route, Routes } from 'react-router';
import { AboutPage } from '../features/about/AboutPage';
import { AccountPage } from '../features/account/AccountPage';
import { AuthProvider } from '../features/auth/AuthProvider';
import { CommunityHub } from '../features/community/CommunityHub';
import { DebatePage } from '../features/community/DebatePage';
import { RankingTab } from '../features/community/RankingTab';
import { EnginePage } from '../features/engine/EnginePage';
import { HistoryPage } from '../features/history/HistoryPage';
import { HistoryTab } from '../features/history/HistoryTab';
import { LoginPage } from '../features/login/LoginPage';
import { NavBar } from '../features/navigation/NavBar';

function NotFound() {
  return (
    <section className="page" aria-labelledby="not-found-heading">
      <h1 id="not-found-heading">Page not found</h1>
    </section>
  );
}

/** The route table of spec §2. */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<Navigate to="/community/ranking" replace />} />
      <Route path="/engine" element={<EnginePage />} />
      <Route path="/community/debate/:id" element={<DebatePage />} />
      <Route path="/community" element={<CommunityHub />}>
        <Route index element={<Navigate to="/community/ranking" replace />} />
        <Route path="ranking" element={<RankingTab />} />
        <Route path="history" element={<HistoryTab />} />
        <Route path="*" element={<Navigate to="/community/ranking" replace />} />
      </Route>
      <Route path="/history" element={<HistoryPage />} />
      <Route path="/about" element={<AboutPage />} />
      <Route path="/login" element={<LoginPage />} />
      <Route path="/account" element={<AccountPage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

export function App() {
  return (
    <AuthProvider>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <NavBar />
      <main id="main">
        <AppRoutes />
      </main>
    </AuthProvider>
  );
}
