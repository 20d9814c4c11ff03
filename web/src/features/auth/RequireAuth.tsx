import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useAppSelector } from '../../app/hooks';

/**
 * A page for signed-in users only: a signed-out visitor goes to /login. While the sign-in
 * state loads, `pending` shows (the page's frame, without anything private).
 */
export function RequireAuth({ children, pending }: { children: ReactNode; pending: ReactNode }) {
  const status = useAppSelector((state) => state.auth.status);
  if (status === 'signedOut' || status === 'error') return <Navigate to="/login" replace />;
  if (status === 'loading') return pending;
  return children;
}
