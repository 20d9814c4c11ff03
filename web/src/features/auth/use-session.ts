import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { sessionResolved } from './auth.slice';

/**
 * Resolves the sign-in state once at start. Sign-in itself arrives with the identity service
 * (issue #4); until then there is never a session, and the state resolves to signed out.
 */
export function useSessionBootstrap(): void {
  const dispatch = useAppDispatch();
  const status = useAppSelector((state) => state.auth.status);
  useEffect(() => {
    if (status === 'loading') dispatch(sessionResolved(null));
  }, [dispatch, status]);
}
