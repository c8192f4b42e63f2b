/**
 * Real dates and times (deadlines) in words, in the reader's own time zone. A player or
 * the GM sets an IANA zone name ("Europe/London"); UTC when they have not. The game's own
 * calendar ("January 1805") is another thing: see monthOf in src/rules/common.ts.
 */

export const DEFAULT_TIME_ZONE = 'UTC';

/**
 * The zone's canonical IANA name when Intl knows it ("europe/paris" → "Europe/Paris"),
 * else null. Offsets like "+02:00" are refused: a zone name follows summer time, an
 * offset does not.
 */
export function canonicalTimeZone(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 64 || /^[+-]/.test(trimmed)) return null;
  const known = canonical.get(trimmed);
  if (known !== undefined) return known;
  let zone: string | null;
  try {
    zone = new Intl.DateTimeFormat('en-GB', { timeZone: trimmed }).resolvedOptions().timeZone;
  } catch {
    zone = null;
  }
  // Pages format every time through here: asking Intl each time cost a page several ms.
  // Kept are names Intl knows (a few hundred at most); unknown ones are asked again.
  if (zone !== null && canonical.size < 2000) canonical.set(trimmed, zone);
  return zone;
}

/** Zone names as given → their canonical names (only names Intl knows). */
const canonical = new Map<string, string>();

const formats = new Map<string, { when: Intl.DateTimeFormat; zone: Intl.DateTimeFormat; short: Intl.DateTimeFormat }>();

/** The formatters of one canonical zone, made once (Intl.DateTimeFormat is slow to make). */
function formatsFor(timeZone: string) {
  let f = formats.get(timeZone);
  if (!f) {
    f = {
      when: new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'short', timeZone }),
      zone: new Intl.DateTimeFormat('en-GB', { timeZone, timeZoneName: 'short' }),
      short: new Intl.DateTimeFormat('en-GB', {
        timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short',
      }),
    };
    formats.set(timeZone, f);
  }
  return f;
}

/**
 * "Tuesday 5 January 2027 at 19:00 CET (Europe/Paris)", or "… at 18:00 UTC".
 * An unknown zone falls back to UTC (zones are checked when they are set).
 */
export function formatDeadline(deadline: Date | string | null, timeZone: string = DEFAULT_TIME_ZONE): string | null {
  if (deadline === null) return null;
  const d = typeof deadline === 'string' ? new Date(deadline) : deadline;
  if (Number.isNaN(d.getTime())) return String(deadline);
  const zone = canonicalTimeZone(timeZone) ?? DEFAULT_TIME_ZONE;
  const f = formatsFor(zone);
  const when = f.when.format(d);
  if (zone === 'UTC' || zone === 'Etc/UTC') return `${when} UTC`;
  const abbr = f.zone.formatToParts(d).find((p) => p.type === 'timeZoneName')?.value ?? '';
  return `${when} ${abbr} (${zone})`;
}

/** "2027-01-05 19:00 CET" for tables: the short form, in the reader's zone. */
export function formatTimeShort(v: Date | string, timeZone: string = DEFAULT_TIME_ZONE): string {
  const d = v instanceof Date ? v : new Date(v);
  if (Number.isNaN(d.getTime())) return String(v);
  const zone = canonicalTimeZone(timeZone) ?? DEFAULT_TIME_ZONE;
  const parts = formatsFor(zone).short.formatToParts(d);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')} ${zone === 'UTC' ? 'UTC' : get('timeZoneName')}`;
}
