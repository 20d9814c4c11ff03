import { Link } from 'react-router';
import { Dialog } from './Dialog';

/** Asks a signed-out visitor to sign in first, with a link to /login (spec §5, §2). */
export function SignInDialog({
  id,
  heading,
  message,
  onClose,
}: {
  id: string;
  heading: string;
  message: string;
  onClose: () => void;
}) {
  return (
    <Dialog labelledBy={id} onClose={onClose}>
      <h2 id={id}>{heading}</h2>
      <p>{message}</p>
      <Link className="button" to="/login" autoFocus>
        Sign In
      </Link>{' '}
      <button type="button" className="button secondary" onClick={onClose}>
        Close
      </button>
    </Dialog>
  );
}
