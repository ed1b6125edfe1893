import { HEADERS } from '../contract/headers.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

/** Inline code spans written with backticks in the contract texts. */
export function inlineCode(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

/**
 * The documentation pages run no script at all and cannot be framed: they share an origin with Settings, whose
 * cookie a script on any page of the origin could use. Their one style sheet is inline, written by the service.
 */
const DOCUMENTATION_PAGE_HEADERS = {
  [HEADERS.contentSecurityPolicy]:
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
  [HEADERS.contentTypeOptions]: 'nosniff',
};

/** A documentation page: the shared style, then the page's own (`style`), and a class on the body for it. */
export function page(title: string, body: string, options: { style?: string; bodyClass?: string } = {}): Response {
  return htmlAnswer(pageHtml(title, body, options));
}

/** page()'s HTML, for a page built once and answered many times. */
export function pageHtml(title: string, body: string, options: { style?: string; bodyClass?: string } = {}): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
h1{font-size:1.8rem}h2{font-size:1.3rem;margin-top:2.2rem;border-top:1px solid #ddd;padding-top:1rem}
code{background:#f3f3f3;padding:0 .25em;border-radius:3px}table{border-collapse:collapse;margin:.5rem 0;display:block;max-width:100%;overflow-x:auto}
td,th{border:1px solid #ddd;padding:.3rem .6rem;text-align:left;vertical-align:top}th{background:#fafafa}
.method{font-weight:700;font-family:monospace}${options.style ?? ''}
</style></head><body${options.bodyClass ? ` class="${escapeHtml(options.bodyClass)}"` : ''}>${body}</body></html>`;
}

/** A documentation page's answer, with the headers every documentation page carries. */
export function htmlAnswer(html: string): Response {
  return new Response(html, {
    status: 200,
    headers: { [HEADERS.contentType]: 'text/html; charset=utf-8', ...DOCUMENTATION_PAGE_HEADERS },
  });
}
