import { createTransport } from 'nodemailer';
import { escapeHtml } from './pages.js';

/** The realm's SMTP server, as Keycloak's realm settings name it (smtpServer). */
export interface MailSettings {
  host: string;
  port: number;
  /** The sender's address. */
  from: string;
  fromDisplayName?: string;
  /** Authenticates when set. */
  user?: string;
  password?: string;
  /** Plain SMTP, STARTTLS required, or TLS from the first byte (SMTPS). */
  security: 'none' | 'starttls' | 'ssl';
}

/** A message for one recipient, in plain text and HTML. */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

export interface Mailer {
  /** Resolves once the SMTP server accepted the message. */
  send(message: MailMessage): Promise<void>;
}

/** Sends over SMTP with nodemailer: a connection per message, as Keycloak does. */
export function smtpMailer(settings: MailSettings): Mailer {
  const transport = createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.security === 'ssl',
    requireTLS: settings.security === 'starttls',
    ignoreTLS: settings.security === 'none',
    ...(settings.user ? { auth: { user: settings.user, pass: settings.password ?? '' } } : {}),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  const from = settings.fromDisplayName
    ? { name: settings.fromDisplayName, address: settings.from }
    : settings.from;
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
  };
}

const UNITS = {
  seconds: ['second', 'seconds'],
  minutes: ['minute', 'minutes'],
  hours: ['hour', 'hours'],
  days: ['day', 'days'],
} as const;

/**
 * "12 hours": how long a link lives, as Keycloak's e-mails say it (its linkExpirationFormatter,
 * given whole minutes): the largest of days, hours and minutes that divides it.
 */
export function linkExpiration(lifespanSeconds: number): string {
  let value = Math.floor(lifespanSeconds / 60) * 60;
  let unit: keyof typeof UNITS = 'seconds';
  if (value > 0 && value % 60 === 0) {
    unit = 'minutes';
    value /= 60;
    if (value % 60 === 0) {
      unit = 'hours';
      value /= 60;
      if (value % 24 === 0) {
        unit = 'days';
        value /= 24;
      }
    }
  }
  return `${value} ${UNITS[unit][value === 1 ? 0 : 1]}`;
}

/** Keycloak's "Verify email" message (its email-verification template, in English). */
export function verifyEmailMessage(
  to: string,
  realmName: string,
  link: string,
  lifespanSeconds: number,
): MailMessage {
  const expiration = linkExpiration(lifespanSeconds);
  const text =
    `Someone has created a ${realmName} account with this email address. If this was you, ` +
    `click the link below to verify your email address\n\n${link}\n\n` +
    `This link will expire within ${expiration}.\n\n` +
    "If you didn't create this account, just ignore this message.";
  const html =
    '<html><body>' +
    `<p>Someone has created a ${escapeHtml(realmName)} account with this email address. ` +
    'If this was you, click the link below to verify your email address</p>' +
    `<p><a href="${escapeHtml(link)}" rel="nofollow">Link to e-mail address verification</a></p>` +
    `<p>This link will expire within ${expiration}.</p>` +
    "<p>If you didn't create this account, just ignore this message.</p>" +
    '</body></html>';
  return { to, subject: 'Verify email', text, html };
}
