/** The pages the realm shows a browser (Keycloak's login theme, reduced to its words). */

export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** An info or error page: a header, a message and at most one link onwards. */
export interface RealmPage {
  readonly header: string;
  readonly message: string;
  readonly link?: { readonly href: string; readonly text: string };
}

/** Keycloak's error page header. */
export const ERROR_HEADER = 'We are sorry...';

export function renderPage(realmName: string, page: RealmPage): string {
  const link = page.link
    ? `\n      <p><a href="${escapeHtml(page.link.href)}">${escapeHtml(page.link.text)}</a></p>`
    : '';
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="robots" content="noindex, nofollow">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(`Sign in to ${realmName}`)}</title>
  </head>
  <body>
    <main>
      <h1 id="kc-page-title">${escapeHtml(page.header)}</h1>
      <p class="instruction">${escapeHtml(page.message)}</p>${link}
    </main>
  </body>
</html>
`;
}
