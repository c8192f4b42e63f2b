/**
 * Every value written into a calendar feed, made safe for its one line (RFC 5545 §3.1,
 * §3.3.11). ical-generator escapes the text of SUMMARY and DESCRIPTION, but writes the
 * calendar's NAME and X-WR-CALNAME (and any X- property) as given: a campaign named
 * "ICS\r\nBEGIN:VEVENT…" wrote a whole event into every feed. Names are refused with a
 * control character where they come in (src/rules/oneLine.ts); a feed does not trust that
 * alone, since a campaign may come from an older service or an archive.
 */

import { CONTROL_CHARACTERS } from '../rules/oneLine.js';

/** Runs of the characters no one-line field may hold (src/rules/oneLine.ts). */
const CONTROLS = new RegExp(`[${CONTROL_CHARACTERS}]+`, 'g');

/** Text for a value the library escapes itself (SUMMARY, DESCRIPTION lines, URL): no control character left. */
export function icsLine(text: string): string {
  return text.replace(CONTROLS, ' ').trim();
}

/** A TEXT value the library writes raw (NAME, X-WR-CALNAME, X-WR-TIMEZONE): one line, with \, ; and , escaped. */
export function icsRawText(text: string): string {
  return icsLine(text).replace(/[\\;,]/g, (c) => `\\${c}`);
}

/**
 * The feed as written, checked: no content line may hold a control character (the lines are
 * CRLF-separated; a folded line's continuation starts with a space). A feed that fails this
 * is never served: it is our bug, and a 500 is better than a forged event.
 */
export function checkedFeed(feed: string): string {
  const bad = feed.split('\r\n').findIndex((l) => /[\u0000-\u0008\u000a-\u001f\u007f]/.test(l));
  if (bad >= 0) throw new Error(`internal: calendar feed line ${bad + 1} holds a control character`);
  return feed;
}
