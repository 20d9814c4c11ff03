import { useState } from 'react';
import type { GraphqlFailure } from '../../../app/api';
import { useSendVerificationEmailMutation } from '../../auth/verification.api';

const VERIFY_EMAIL_HEADING = 'Verify your e-mail address';
const VERIFICATION_SENT = 'Sent. Check your inbox, then follow the link in the mail.';

/**
 * Why a new e-mail account cannot start a debate yet (the site asks for a verified address
 * before the free debates), with a button that sends the mail again.
 */
export function VerifyEmailNotice({ email }: { email: string }) {
  const [send, { isLoading }] = useSendVerificationEmailMutation();
  const [outcome, setOutcome] = useState<{ sent: boolean; message: string } | null>(null);

  const onSend = async () => {
    try {
      await send(undefined).unwrap();
      setOutcome({ sent: true, message: VERIFICATION_SENT });
    } catch (error) {
      const message = (error as Partial<GraphqlFailure>).message ?? 'The mail could not be sent.';
      setOutcome({ sent: false, message });
    }
  };

  return (
    <section className="card verify-email" aria-labelledby="verify-email-heading">
      <h2 id="verify-email-heading">{VERIFY_EMAIL_HEADING}</h2>
      <p>
        Your 2 free debates start once your address is verified. We sent a link to{' '}
        <strong>{email}</strong>: follow it, and you come back here ready to begin.
      </p>
      <button type="button" className="button" disabled={isLoading} onClick={() => void onSend()}>
        {isLoading ? 'Sending…' : 'Send the mail again'}
      </button>
      {outcome && (
        <p role={outcome.sent ? 'status' : 'alert'} className={outcome.sent ? 'hint' : 'error'}>
          {outcome.message}
        </p>
      )}
    </section>
  );
}
