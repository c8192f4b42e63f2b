/**
 * The battle desk's sentences (src/campaign/battleDesk.ts): a pending battle's result
 * deadline, its table date, the deadline's fallback, and what is still missing. The
 * battle's page, the GM dashboard, the mails and the calendar feeds say it alike.
 */
import { formatDeadline } from './time.js';

export type Fallback = 'abstract' | 'gm';

export const FALLBACK_WORDS: Record<Fallback, string> = {
  abstract: 'the abstract table settles the battle, with the campaign\'s dice',
  gm: 'the GM is mailed to settle the battle',
};

/** "The result is due by Saturday 9 January 2027 at 14:00 CET (Europe/Paris); after that the abstract table settles it." */
export function deadlineSentence(deadline: Date, fallback: Fallback, timeZone: string): string {
  return `The result of this battle is due by ${formatDeadline(deadline, timeZone)}; if none is in by then, ${FALLBACK_WORDS[fallback]}.`;
}

/** Why a battle was settled (or handed to the GM) at its deadline: what the players are told. */
export function fallbackSentence(place: string, turn: number, deadline: Date, fallback: Fallback, timeZone: string): string {
  const when = formatDeadline(deadline, timeZone);
  return fallback === 'abstract'
    ? `No result of the battle at ${place} (turn ${turn}) came in by its deadline, ${when}, so the abstract table settled it with the campaign's dice, as the campaign's settings say. The result follows in its own mail.`
    : `No result of the battle at ${place} (turn ${turn}) came in by its deadline, ${when}. The GM has been asked to settle it; until then the campaign waits on it.`;
}

/** A date as proposed or agreed, in the reader's own zone. */
export const tableDateWords = (at: Date, timeZone: string) => formatDeadline(at, timeZone)!;

/** What a pending battle still needs, for the GM: each item one short phrase. */
export function missingWords(m: { tableDate: boolean; entries: string[]; disagree: boolean }, powerName: (p: string) => string): string[] {
  const out: string[] = [];
  if (!m.tableDate) out.push('no agreed table date');
  if (m.disagree) out.push('the sides entered different results: the GM decides');
  else if (m.entries.length > 0) out.push(`a result from ${m.entries.map(powerName).join(' and ')}`);
  return out;
}

/** A time as a datetime-local field shows it in `timeZone` ("2027-01-20T18:00"): what the GM sees and sends back unchanged. */
export function localInputValue(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-GB', {
    timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
  }).formatToParts(at).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}
