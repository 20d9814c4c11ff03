import { z } from 'zod';
import { cookieJarFetch } from './cookie-jar.js';

/**
 * The mail a realm sent, read from Mailpit (the SMTP sink of development and tests,
 * scripts/mailpit.mjs) over its HTTP API.
 */
const Listing = z.object({
  messages: z.array(
    z.object({
      ID: z.string(),
      To: z.array(z.object({ Address: z.string() })).nullable(),
      Subject: z.string(),
    }),
  ),
});
const Message = z.object({
  From: z.object({ Name: z.string(), Address: z.string() }),
  To: z.array(z.object({ Address: z.string() })),
  Subject: z.string(),
  Text: z.string(),
  HTML: z.string(),
});
export type Mail = z.output<typeof Message>;

/** Every message to `address`, newest first. */
export async function mailTo(mailUrl: string, address: string): Promise<Mail[]> {
  const query = new URLSearchParams({ query: `to:"${address}"` });
  const listing = Listing.parse(
    await (await fetch(`${mailUrl}/api/v1/search?${query.toString()}`)).json(),
  );
  return Promise.all(
    listing.messages.map(async ({ ID }) =>
      Message.parse(await (await fetch(`${mailUrl}/api/v1/message/${ID}`)).json()),
    ),
  );
}

/** Waits until `count` messages to `address` have arrived (the realm sends before answering). */
export async function waitForMail(mailUrl: string, address: string, count = 1): Promise<Mail[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mail = await mailTo(mailUrl, address);
    if (mail.length >= count) return mail;
    if (Date.now() > deadline) {
      throw new Error(`${mail.length} of ${count} mails to ${address} arrived within 10 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The verification link in a realm's mail (Keycloak's action token). */
export function verificationLink(mail: Mail): string {
  const link = /https?:\/\/\S+\/login-actions\/action-token\?key=[\w.-]+/.exec(mail.Text)?.[0];
  if (!link) throw new Error(`no verification link in: ${mail.Text}`);
  return link;
}

const decodeHtml = (text: string) =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&#x3D;/g, '=')
    .replace(/&#61;/g, '=');

/**
 * Follows a verification link as a browser without scripts would: the realm's confirmation
 * page, its 'Click here to proceed' link, the redirects, with the cookies it sets kept between
 * requests. Returns the last page's text and its 'Back to Application' link.
 */
export async function followVerificationLink(
  link: string,
): Promise<{ page: string; backToApplication: string | null }> {
  const get = cookieJarFetch();
  let url = link;
  let response = await get(url);
  let page = await response.text();
  const proceed = /href="([^"]+)"[^>]*>\s*» Click here to proceed/.exec(page)?.[1];
  if (proceed) {
    url = new URL(decodeHtml(proceed), url).toString();
    response = await get(url);
    page = await response.text();
  }
  for (let hops = 0; response.status >= 300 && response.status < 400 && hops < 5; hops += 1) {
    url = new URL(response.headers.get('location') ?? '', url).toString();
    response = await get(url);
    page = await response.text();
  }
  const back = /href="([^"]+)"[^>]*>\s*« Back to Application/.exec(page)?.[1];
  return { page, backToApplication: back ? decodeHtml(back) : null };
}
