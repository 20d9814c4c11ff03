import { describe, expect, it } from '@jest/globals';
import { withMeta } from './web-app.js';

const index = `<!doctype html>
<html lang="en">
  <head>
    <meta name="description" content="Two AI speakers debate your topic." />
    <title>AI Debate</title>
  </head>
  <body><div id="root"></div></body>
</html>`;

describe(withMeta.name, () => {
  it('puts the title and description in the head, as text, never as markup', () => {
    const html = withMeta(index, {
      title: 'Is <script>alert(1)</script> "safe"?',
      description: 'For 3 & Against 1',
    });
    expect(html).toContain(
      '<title>Is &#60;script&#62;alert(1)&#60;/script&#62; &#34;safe&#34;? - AI Debate</title>',
    );
    expect(html).toContain(
      '<meta property="og:title" content="Is &#60;script&#62;alert(1)&#60;/script&#62; &#34;safe&#34;?" />',
    );
    expect(html).toContain('<meta property="og:description" content="For 3 &#38; Against 1" />');
    expect(html).toContain('<meta name="description" content="For 3 &#38; Against 1" />');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('Two AI speakers debate your topic.');
  });

  it("keeps a topic's dollar signs as text, never as replacement patterns", () => {
    const topic = "Is $& worth more than $` or $'?";
    const html = withMeta(index, {
      title: topic,
      description: `Two AI speakers debate "${topic}"`,
    });
    const text = 'Is $&#38; worth more than $` or $&#39;?';
    expect(html).toContain(`<title>${text} - AI Debate</title>`);
    expect(html).toContain(`<meta property="og:title" content="${text}" />`);
    expect(html).toContain(
      `<meta property="og:description" content="Two AI speakers debate &#34;${text}&#34;" />`,
    );
    expect(html).toContain(
      `<meta name="description" content="Two AI speakers debate &#34;${text}&#34;" />`,
    );
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html.match(/<meta property="og:title"/g)).toHaveLength(1);
  });
});
