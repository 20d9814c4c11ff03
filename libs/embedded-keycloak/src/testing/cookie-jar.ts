/**
 * A fresh browser's requests, for tests that walk a realm's pages: redirects are not followed
 * (the caller reads each one), and the cookies the answers set go along with the next requests.
 */
export function cookieJarFetch(): (url: string) => Promise<Response> {
  const jar = new Map<string, string>();
  return async (url) => {
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    for (const header of response.headers.getSetCookie()) {
      const pair = header.split(';')[0] ?? '';
      const at = pair.indexOf('=');
      if (at > 0) jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  };
}
