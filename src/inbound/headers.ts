/**
 * Reading a raw message's header block without parsing the whole message: enough to
 * de-duplicate it, tell a machine from a player and find the sender before anything is
 * stored. Its own module so the store and the seal share it without importing each other.
 */

/** The header block, unfolded: lower-case name → every value, in order. Read as latin1, so it never throws. */
export function peekHeaders(raw: Uint8Array): Map<string, string[]> {
  const buf = Buffer.from(raw.buffer, raw.byteOffset, Math.min(raw.byteLength, 256 * 1024));
  const text = buf.toString('latin1');
  const end = text.search(/\r?\n\r?\n/);
  const block = end >= 0 ? text.slice(0, end) : text;
  const out = new Map<string, string[]>();
  let current: { name: string; value: string } | null = null;
  const flush = () => {
    if (!current) return;
    const list = out.get(current.name) ?? [];
    list.push(current.value.trim());
    out.set(current.name, list);
    current = null;
  };
  for (const line of block.split(/\r?\n/)) {
    if (/^[ \t]/.test(line) && current) { (current as { value: string }).value += ` ${line.trim()}`; continue; }
    flush();
    const m = /^([!-9;-~]+)[ \t]*:(.*)$/.exec(line);
    if (m) current = { name: m[1]!.toLowerCase(), value: m[2]! };
  }
  flush();
  return out;
}

export function firstHeader(headers: Map<string, string[]>, name: string): string | undefined {
  return headers.get(name)?.[0];
}

/** The first address of an address header (`"Name" <a@b>`, `a@b (Comment)`), lower-cased; null if none. */
export function addressOf(value: string | undefined): string | null {
  if (!value) return null;
  const noComments = value.replace(/\((?:[^()\\]|\\.)*\)/g, ' ');
  const angle = /<\s*([^<>\s]*@[^<>\s]+)\s*>/.exec(noComments);
  const addr = angle?.[1] ?? /([^\s<>",;:]+@[^\s<>",;:]+)/.exec(noComments)?.[1];
  return addr ? addr.toLowerCase() : null;
}
