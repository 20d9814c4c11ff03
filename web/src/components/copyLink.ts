/** What the app says once a link is on the clipboard. */
const LINK_COPIED = 'Link copied.';

/**
 * Puts `url` on the clipboard and answers what to tell the reader: that it is there, or, where
 * the browser refuses (no permission, no secure context), the link itself to copy by hand.
 */
export async function copyLink(url: string): Promise<string> {
  try {
    await navigator.clipboard.writeText(url);
    return LINK_COPIED;
  } catch {
    return `The link could not be copied: ${url}`;
  }
}
