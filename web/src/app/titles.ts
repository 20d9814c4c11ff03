/** The site's name, last in every page's title. */
export const SITE_NAME = 'AI Debate';

/** Each route's page title; a shared debate's page names its topic itself. */
const TITLES: ReadonlyArray<[RegExp, string]> = [
  [/^\/community\/ranking\/?$/, 'Community Forum'],
  [/^\/community\/history\/?$/, 'Account Activity'],
  [/^\/community\/leaderboard\/?$/, 'Leaderboard'],
  [/^\/community\/judges\/?$/, 'Judges'],
  [/^\/engine\/?$/, 'AI Debate Engine'],
  [/^\/about\/?$/, 'About'],
  [/^\/login\/?$/, 'Sign In'],
  [/^\/account\/?$/, 'Account'],
  [/^\/history\/?$/, 'Personal Library'],
];

/**
 * The browser tab's title for `pathname`: 'Leaderboard - AI Debate'; 'Page not found - AI Debate'
 * for a path no route has; null for a debate's page (its topic) and for paths that redirect.
 */
export function titleFor(pathname: string): string | null {
  if (pathname === '/' || /^\/community(\/.*)?$/.test(pathname)) {
    if (pathname.startsWith('/community/debate/')) return null;
    const found = TITLES.find(([path]) => path.test(pathname));
    return found ? `${found[1]} - ${SITE_NAME}` : null;
  }
  const found = TITLES.find(([path]) => path.test(pathname));
  return `${found ? found[1] : 'Page not found'} - ${SITE_NAME}`;
}
