const ATTR_CHAR = /^[A-Za-z0-9!#$&+\-.^_`|~]$/;

/** RFC 8187 ext-value: UTF-8, every byte outside attr-char percent-encoded. */
function extValue(name: string): string {
  let out = "UTF-8''";
  for (const byte of new TextEncoder().encode(name)) {
    const char = String.fromCharCode(byte);
    out += byte < 0x80 && ATTR_CHAR.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * `attachment; filename="<ASCII fallback>"`, plus `filename*` (RFC 6266) whenever the fallback had to change
 * the name: non-ASCII, or a quote, backslash or control character that would break the quoted string. `inline`
 * for a PDF shown where it is opened (the web app's preview, the front door's samples).
 */
export function contentDisposition(filename: string, type: 'attachment' | 'inline' = 'attachment'): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/gu, '_');
  const header = `${type}; filename="${fallback}"`;
  return fallback === filename ? header : `${header}; filename*=${extValue(filename)}`;
}
