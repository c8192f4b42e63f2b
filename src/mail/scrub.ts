/**
 * Secrets in the stored copy of a mail (docs/mail-out.md, "Secrets in mail"): a mail that
 * carries one (enqueueMail's `secrets`, e.g. the welcome mail's password) keeps it in the
 * queue only while it may still be sent; once sent or given up on, the worker writes the
 * copy this returns, secrets starred and a note saying so.
 */

function parseJson(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try { return JSON.parse(v); } catch { return undefined; }
}

export const SECRET_MASK = '********';
export const SCRUB_NOTE = 'Stored copy: the password in this mail was removed after it was sent (it went to the player as written).';

function escapeHtml(v: string): string {
  return v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/**
 * A sent (or given up) mail's stored copy without its secrets (enqueueMail's `secrets`):
 * each is starred in the text and the HTML (also HTML-escaped), a note says so, and the
 * `__secrets` key is dropped. Null when the row carries none.
 */
export function scrubbed(row: { text: string; html: string | null; headers?: unknown }): { text: string; html: string | null; headers: Record<string, unknown> } | null {
  const headers = parseJson(row.headers);
  if (!headers || typeof headers !== 'object' || Array.isArray(headers)) return null;
  const list = (headers as Record<string, unknown>).__secrets;
  if (!Array.isArray(list)) return null;
  const secrets = list.filter((x): x is string => typeof x === 'string' && x.length > 0).sort((a, b) => b.length - a.length);
  const star = (v: string, forms: (x: string) => string[]) => secrets.reduce((acc, x) => forms(x).reduce((a, f) => a.split(f).join(SECRET_MASK), acc), v);
  const text = `[${SCRUB_NOTE}]\n\n${star(row.text, (x) => [x])}`;
  let html = row.html === null ? null : star(row.html, (x) => [x, escapeHtml(x), escapeHtml(x).replace(/&quot;/g, '&#34;')]);
  if (html !== null) {
    const note = `<p style="margin:0 0 12px;font-style:italic">${escapeHtml(SCRUB_NOTE)}</p>`;
    html = /<body[^>]*>/i.test(html) ? html.replace(/(<body[^>]*>)/i, `$1${note}`) : `${note}${html}`;
  }
  const rest = Object.fromEntries(Object.entries(headers as Record<string, unknown>).filter(([k]) => k !== '__secrets'));
  return { text, html, headers: { ...rest, __scrubbed: true } };
}
