/**
 * A one-line field (a campaign's, power's, port's, fleet's or ship's name, a player's name):
 * printable text on one line. A control character (a line break, a tab, a bell…) in one is
 * refused where it comes in, with a 400 naming the field: such names are written into mail
 * headers, calendar feeds (a name "x\r\nBEGIN:VEVENT…" wrote a whole event into every feed)
 * and page titles, and none of them can carry one honestly.
 */

/** C0 controls (tab and line breaks included), DEL, C1 controls, and the Unicode line and paragraph separators. */
export const CONTROL_CHARACTERS = '\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029';
const CONTROL = new RegExp(`[${CONTROL_CHARACTERS}]`);

const NAMES: Record<string, string> = { '\r': 'a carriage return (\\r)', '\n': 'a line break (\\n)', '\t': 'a tab (\\t)' };

/** Why the text cannot be a one-line field, or undefined when it can. */
export function notOneLine(text: string): string | undefined {
  const m = CONTROL.exec(text);
  if (!m) return undefined;
  const c = m[0];
  const what = NAMES[c] ?? `a control character (\\u${c.charCodeAt(0).toString(16).padStart(4, '0')})`;
  return `holds ${what} at character ${m.index + 1}; write it as plain text on one line`;
}
