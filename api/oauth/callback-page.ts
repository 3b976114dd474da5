const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);

/** A browser (the owner's, sent back by the platform) rather than a script or the CLI. */
export const wantsHtml = (accept: string | undefined) => accept !== undefined && accept.includes('text/html');

/** The small page the owner's browser shows after TikTok's redirect: what happened and what to do next. */
export function callbackPage(title: string, paragraphs: readonly string[]): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} – Signalbox</title>
<style>body{font-family:system-ui,sans-serif;max-width:42rem;margin:3rem auto;padding:0 1rem;line-height:1.5}</style></head>
<body>
<h1>${escapeHtml(title)}</h1>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
</body>
</html>
`;
}

/** The page's URL carried a one-time code: keep it out of caches and Referer headers; the page runs no script. */
export const CALLBACK_PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
} as const;
