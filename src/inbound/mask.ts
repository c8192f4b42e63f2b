/**
 * The PASSWORD line masked in a raw message, before it is stored (docs/mail-in.md §1):
 * the stored copy must never hold a player's password. The message stays a valid message
 * that reads the same, only the password is gone:
 *
 *  - every text part (text/plain, text/html, a .txt attachment, a forwarded message/rfc822,
 *    however nested) is decoded (base64, quoted-printable), masked, and encoded again the
 *    same way;
 *  - in plain text a PASSWORD line (quoted or not, with a bullet or not) becomes
 *    `PASSWORD ****`; a format=flowed line that goes on in the next lines takes them too;
 *  - in HTML the text after a PASSWORD word up to the next tag becomes `****`;
 *  - the password itself, when known, is starred wherever it appears (the HTML twin, the
 *    header block), in its UTF-8 and Latin-1 bytes and HTML-escaped.
 * A part that holds nothing to mask is kept byte for byte.
 *
 * Everything works on the bytes as Latin-1 text (one char per byte), so bytes never
 * change by accident; the keywords are ASCII, so this holds for every ASCII-based charset.
 */

// The list markers the orders parser strips (src/orders/clean.ts stripBullet), as bytes: "•" and "·" in UTF-8 or Latin-1/1252.
const BULLET = '(?:[-*]|\\d{1,2}[.)]|\u00e2\u0080\u00a2|\u00c2?\u00b7|\u0095)';
const PASSWORD_LINE = new RegExp(`^([ \\t]*(?:>[ \\t]*)*(?:${BULLET}[ \\t]+)?)(password)\\b.*$`, 'i');
const HTML_PASSWORD = /(^|[>\s;])(password)((?:\s|&nbsp;|&#160;|&#xa0;|\u00c2\u00a0|\u00a0|:)+)[^<\r\n]*/gi;
export const MASK = '****';
const MAX_DEPTH = 8;

/** The forms a password takes in a part's bytes (read as Latin-1): UTF-8, Latin-1, HTML-escaped. */
export function passwordForms(password: string | undefined): string[] {
  if (!password || password.length < 3 || password === MASK) return [];
  const forms = new Set<string>([Buffer.from(password, 'utf8').toString('latin1')]);
  if ([...password].every((c) => c.charCodeAt(0) < 256)) forms.add(password);
  for (const f of [...forms]) {
    forms.add(f.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'));
    forms.add(f.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;').replace(/'/g, '&#39;'));
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

function starForms(s: string, forms: readonly string[]): string {
  let out = s;
  for (const f of forms) out = out.split(f).join(MASK);
  return out;
}

/** Plain text: every PASSWORD line masked (and, format=flowed, the lines it flows on into). */
export function maskPlain(s: string, forms: readonly string[], flowed = false): string {
  const parts = s.split(/(\r\n|\n|\r)/); // lines at even indices, their line breaks at odd ones
  for (let i = 0; i < parts.length; i += 2) {
    const m = PASSWORD_LINE.exec(parts[i]!);
    if (!m) continue;
    let goesOn = flowed && parts[i]!.endsWith(' ');
    parts[i] = `${m[1]}${m[2]} ${MASK}`;
    // RFC 3676: a line ending in a space goes on in the next one, so the password may too.
    for (let j = i + 2; goesOn && j < parts.length; j += 2) {
      goesOn = parts[j]!.endsWith(' ');
      parts[j] = '';
    }
  }
  return starForms(parts.join(''), forms);
}

export function maskHtml(s: string, forms: readonly string[]): string {
  return starForms(s.replace(HTML_PASSWORD, (_m, before: string, word: string) => `${before}${word} ${MASK}`), forms);
}

/** Text of unknown kind (a preamble, a broken multipart's body): masked both as plain text and as HTML. */
function maskLoose(s: string, forms: readonly string[]): string {
  return maskHtml(maskPlain(s, forms), forms);
}

interface Head {
  block: string;
  fields: Map<string, string>;
}

function readHead(block: string): Head {
  const fields = new Map<string, string>();
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const m = /^([!-9;-~]+)[ \t]*:(.*)$/.exec(line);
    if (m && !fields.has(m[1]!.toLowerCase())) fields.set(m[1]!.toLowerCase(), m[2]!.trim());
  }
  return { block, fields };
}

function param(value: string, name: string): string | undefined {
  const m = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i').exec(value);
  return m ? (m[1] ?? m[2]) : undefined;
}

function decodeQp(s: string): string {
  return s.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}

function decodeBody(body: string, cte: string): string {
  if (cte === 'base64') return Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64').toString('latin1');
  if (cte === 'quoted-printable') return decodeQp(body);
  return body;
}

/** Quoted-printable (RFC 2045 §6.7), lines of at most 76 characters, in the entity's line ends. */
function encodeQp(bytes: string, eol: string): string {
  return bytes.split(/\r\n|\n/).map((line) => {
    let enc = '';
    for (let i = 0; i < line.length; i++) {
      const c = line.charCodeAt(i);
      const lastOfLine = i === line.length - 1;
      enc += (c >= 33 && c <= 126 && c !== 61) || ((c === 32 || c === 9) && !lastOfLine)
        ? line[i]
        : `=${c.toString(16).toUpperCase().padStart(2, '0')}`;
    }
    const out: string[] = [];
    while (enc.length > 76) {
      let cut = 75;
      const eq = enc.lastIndexOf('=', cut - 1);
      if (eq > cut - 3) cut = eq; // never split an =XX
      out.push(`${enc.slice(0, cut)}=`);
      enc = enc.slice(cut);
    }
    out.push(enc);
    return out.join(eol);
  }).join(eol);
}

function base64Lines(bytes: string, eol: string): string {
  return (Buffer.from(bytes, 'latin1').toString('base64').match(/.{1,76}/g) ?? []).join(eol) + eol;
}

/** A part as it follows its delimiter line: the line break that ends the delimiter, then the entity. */
function maskPart(seg: string, forms: readonly string[], depth: number, defaultType: string): string {
  const lb = /^\r?\n/.exec(seg)?.[0] ?? '';
  return lb + maskEntity(seg.slice(lb.length), forms, depth, defaultType);
}

/** One MIME entity (headers, blank line, body), masked; unchanged when there was nothing to mask. */
function maskEntity(entity: string, forms: readonly string[], depth: number, defaultType = 'text/plain'): string {
  const eol = entity.includes('\r\n') ? '\r\n' : '\n';
  let headBlock: string;
  let gap: string;
  let body: string;
  const empty = /^\r?\n/.exec(entity);
  if (empty) {
    headBlock = '';
    gap = empty[0];
    body = entity.slice(gap.length);
  } else {
    const sep = /\r?\n\r?\n/.exec(entity);
    if (!sep) return starForms(entity, forms); // headers only
    headBlock = entity.slice(0, sep.index);
    gap = sep[0];
    body = entity.slice(sep.index + gap.length);
  }
  const head = readHead(headBlock);
  const ctValue = head.fields.get('content-type') ?? defaultType;
  const type = ctValue.split(';')[0]!.trim().toLowerCase();
  const cte = (head.fields.get('content-transfer-encoding') ?? '7bit').trim().toLowerCase();
  const newHead = starForms(headBlock, forms);

  if (type.startsWith('multipart/') && depth < MAX_DEPTH) {
    const boundary = param(ctValue, 'boundary');
    if (!boundary) return newHead + gap + maskLoose(body, forms);
    const esc = boundary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const delimiter = new RegExp(`(?:^|\\r?\\n)--${esc}(--)?[ \\t]*(?=\\r?\\n|$)`, 'g');
    const inner = type === 'multipart/digest' ? 'message/rfc822' : 'text/plain';
    let out = '';
    let last = 0;
    let inPart = false;
    for (const m of body.matchAll(delimiter)) {
      const seg = body.slice(last, m.index);
      out += inPart ? maskPart(seg, forms, depth + 1, inner) : maskLoose(seg, forms);
      out += m[0];
      last = m.index + m[0].length;
      inPart = !m[1];
      if (m[1]) break;
    }
    const rest = body.slice(last);
    // A part never closed, the epilogue, or (no delimiter at all: broken MIME) the whole body.
    out += inPart ? maskPart(rest, forms, depth + 1, inner) : maskLoose(rest, forms);
    return newHead + gap + out;
  }

  const filename = param(head.fields.get('content-disposition') ?? '', 'filename') ?? param(ctValue, 'name') ?? '';
  const isText = type.startsWith('text/') || /\.txt$/i.test(filename);
  const isMessage = type === 'message/rfc822' && depth < MAX_DEPTH;
  if (!isText && !isMessage) return newHead + gap + body;

  const decoded = decodeBody(body, cte);
  const masked = isMessage
    ? maskEntity(decoded, forms, depth + 1)
    : type === 'text/html'
      ? maskHtml(decoded, forms)
      : maskPlain(decoded, forms, /format\s*=\s*"?flowed/i.test(ctValue));
  if (masked === decoded && newHead === headBlock) return entity;
  if (masked === decoded) return newHead + gap + body;
  if (cte === 'base64') return newHead + gap + base64Lines(masked, eol);
  if (cte === 'quoted-printable') return newHead + gap + encodeQp(masked, eol);
  return newHead + gap + masked;
}

/** The raw message with every PASSWORD line masked, and `password` (when given) starred wherever it appears. */
export function maskRaw(raw: Uint8Array, password?: string): Buffer {
  const text = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('latin1');
  return Buffer.from(maskEntity(text, passwordForms(password), 0), 'latin1');
}
