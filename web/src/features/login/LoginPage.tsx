import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useAppSelector } from '../../app/hooks';
import { useAuth } from '../auth/AuthProvider';
import { providerNames, type SignInProvider } from '../auth/auth.slice';
import { useSignInProvidersQuery } from './providers.api';

type Mode = 'signIn' | 'signUp';

const FALLBACK = 'An error occurred during authentication';

function providerOf(value: string | null): SignInProvider | null {
  return value === 'google' || value === 'github' ? value : null;
}

interface Failure {
  readonly title: string;
  readonly reason?: string;
}

/**
 * /login (spec §2): e-mail and password in two modes, 'Welcome Back' and 'Create Account', and
 * the Google and GitHub buttons of the providers the realm has enabled. The providers come back here with a code (or an error) in the
 * query, which this page completes or reports.
 */
export function LoginPage() {
  const auth = useAuth();
  const status = useAppSelector((state) => state.auth.status);
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [mode, setMode] = useState<Mode>('signIn');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // Back from Google or GitHub: ?provider=…&code=…&state=…, or ?provider=…&error=… (read once).
  const [back] = useState(() => {
    const provider = providerOf(params.get('provider'));
    if (!provider) return null;
    const code = params.get('code');
    const state = params.get('state');
    const failed = params.get('error') !== null || !code || !state;
    return {
      provider,
      title: `Failed to sign in with ${providerNames[provider]}`,
      completion: failed ? null : { code, state },
      reason: params.get('error_description') ?? params.get('error') ?? undefined,
    };
  });
  const [busy, setBusy] = useState(back?.completion != null);
  const [failure, setFailure] = useState<Failure | null>(
    back && !back.completion ? { title: back.title, reason: back.reason } : null,
  );
  const completing = useRef(false);
  // Only the providers the realm has enabled; both when it cannot be asked (a click then says why).
  const enabled = useSignInProvidersQuery(undefined);
  const providers: readonly SignInProvider[] = enabled.isError
    ? ['google', 'github']
    : (enabled.data ?? []);

  useEffect(() => {
    if (!back || completing.current) return;
    completing.current = true;
    setParams({}, { replace: true });
    if (!back.completion) return;
    const { code, state } = back.completion;
    auth.completeProviderSignIn(back.provider, code, state).then(
      () => navigate('/account', { replace: true }),
      (failed: unknown) => {
        setFailure({
          title: back.title,
          ...(failed instanceof Error && failed.message ? { reason: failed.message } : {}),
        });
        setBusy(false);
      },
    );
  }, [auth, back, navigate, setParams]);

  if (status === 'signedIn' && !busy) return <Navigate to="/account" replace />;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      if (mode === 'signIn') await auth.signInWithEmail(email, password);
      else await auth.signUpWithEmail(email, password);
      navigate('/account', { replace: true });
    } catch (error) {
      setFailure({ title: error instanceof Error && error.message ? error.message : FALLBACK });
      setBusy(false);
    }
  };

  const withProvider = async (provider: SignInProvider) => {
    setBusy(true);
    setFailure(null);
    try {
      await auth.signInWithProvider(provider);
      // The browser is on its way to the provider; the buttons stay disabled.
    } catch (error) {
      setFailure({
        title: `Failed to sign in with ${providerNames[provider]}`,
        ...(error instanceof Error && error.message ? { reason: error.message } : {}),
      });
      setBusy(false);
    }
  };

  const title = mode === 'signIn' ? 'Welcome Back' : 'Create Account';
  return (
    <section className="page narrow login" aria-labelledby="login-heading">
      <h1 id="login-heading">{title}</h1>
      <p className="mode-switch">
        {mode === 'signIn' ? "Don't have an account?" : 'Already have an account?'}{' '}
        <button
          type="button"
          className="link-button"
          disabled={busy}
          onClick={() => {
            setMode(mode === 'signIn' ? 'signUp' : 'signIn');
            setFailure(null);
          }}
        >
          {mode === 'signIn' ? 'Create one' : 'Sign in instead'}
        </button>
      </p>
      {failure && (
        <div className="error-box" role="alert">
          <p>{failure.title}</p>
          {failure.reason && <p className="error-reason">{failure.reason}</p>}
        </div>
      )}
      <form className="login-form" onSubmit={(event) => void submit(event)}>
        <label htmlFor="login-email">Email</label>
        <input
          id="login-email"
          type="email"
          required
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <label htmlFor="login-password">Password</label>
        <input
          id="login-password"
          type="password"
          required
          autoComplete={mode === 'signIn' ? 'current-password' : 'new-password'}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <button type="submit" className="button" disabled={busy}>
          {mode === 'signIn' ? 'Sign In' : 'Create Account'}
        </button>
      </form>
      {providers.length > 0 && (
        <div className="providers">
          {providers.map((provider) => (
            <button
              key={provider}
              type="button"
              className="button secondary"
              disabled={busy}
              onClick={() => void withProvider(provider)}
            >
              Sign in with {providerNames[provider]}
            </button>
          ))}
        </div>
      )}
    </section>
  );
}
