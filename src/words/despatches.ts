/**
 * Despatches in words (docs/despatches.md): who a despatch is from and to, how it travels,
 * and the mail a recipient gets. Pages, the checker's reply, the turn report and the GM's
 * list say these alike. The sender of a grey despatch is never written for a recipient:
 * callers pass `from: null` then.
 */

export type DespatchDelivery = 'instant' | 'with-report' | 'by-packet';
export const DESPATCH_DELIVERIES: readonly DespatchDelivery[] = ['instant', 'with-report', 'by-packet'];

/** A power's name as it stands in a sentence: "the United States", "France". */
export function powerInSentence(name: string): string {
  return /^(united|kingdom|republic|netherlands|dutch republic|ottoman empire|holy roman)\b/i.test(name) || /s$/i.test(name) && !/^(swiss|paris)$/i.test(name)
    ? `the ${name}` : name;
}

/** "France", "France and the United States", "France, Spain and the United States". */
export function listOfPowers(names: readonly string[]): string {
  const n = names.map(powerInSentence);
  if (n.length <= 1) return n[0] ?? '';
  return `${n.slice(0, -1).join(', ')} and ${n[n.length - 1]}`;
}

/** Capitalised at the head of a sentence ("The United States"). */
export function headOfSentence(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Who a despatch is from, for a reader: the power, the GM, or (grey, to a recipient) unknown. */
export function despatchFrom(from: { gm: true } | { power: string } | null): string {
  if (from === null) return 'an unknown hand';
  return 'gm' in from ? 'the Game Master' : powerInSentence(from.power);
}

/** When it will be (or was) delivered, for the sender's confirmation. */
export function deliveryWords(delivery: DespatchDelivery, turn: number): string {
  switch (delivery) {
    case 'instant': return 'delivered at once, by mail and on their despatches page';
    case 'with-report': return `will be delivered with the report of turn ${turn}, when the turn is resolved`;
    case 'by-packet': return `will go by packet with the report of turn ${turn}; a packet may be taken at sea`;
  }
}

/** The checker's line for a despatch sent: "Despatch to France and the United States: delivered at once …". */
export function despatchSentLine(line: number | null, toNames: readonly string[], delivery: DespatchDelivery, turn: number, grey: boolean, awaitsGm = false): string {
  const where = line === null ? '' : `line ${line}: `;
  const how = awaitsGm ? `it waits for the Game Master to let it go (this campaign's rule); then ${releasedWords(delivery)}` : deliveryWords(delivery, turn);
  return `${where}${grey ? 'Grey despatch' : 'Despatch'} to ${listOfPowers(toNames)}: ${how}.`;
}

/** How a despatch travels once the GM has let it go. */
function releasedWords(delivery: DespatchDelivery): string {
  switch (delivery) {
    case 'instant': return 'it is delivered at once';
    case 'with-report': return 'it goes with the next turn report';
    case 'by-packet': return 'it goes by packet with the next turn report, and a packet may be taken at sea';
  }
}

/** The head of a despatch in the turn report ("Despatches received this month"): one the reader's power took at sea says so. */
export function despatchReportHead(d: { from: string; to: readonly string[]; intercepted?: boolean }): string {
  return `${d.intercepted ? 'Intercepted at sea: from' : 'From'} ${d.from}, to ${listOfPowers(d.to)}:`;
}

/** The line for a despatch found identical to one sent earlier this turn (orders sent again). */
export function despatchAlreadySentLine(line: number | null, toNames: readonly string[]): string {
  return `${line === null ? '' : `line ${line}: `}Despatch to ${listOfPowers(toNames)}: already sent this turn, with earlier orders; not sent again.`;
}

/** The checker's line for a despatch refused. */
export function despatchRefusedLine(line: number | null, reason: string): string {
  return `${line === null ? '' : `line ${line}: `}despatch not sent: ${reason}. Nothing of it was stored.`;
}

export interface DespatchMailInput {
  campaignName: string;
  turn: number;
  /** The sender as the recipient may know it (null: grey). */
  from: { gm: true } | { power: string } | null;
  /** Every recipient's power name (the reader's among them). */
  to: readonly string[];
  text: string;
  sentAt: Date;
  /** The reader's despatches page, when the service has a public address. */
  pageUrl?: string | null;
  /** The reader's power took it at sea (the GM marked it so): it was not written to them. */
  intercepted?: boolean;
}

/** The mail a recipient gets for a despatch delivered at once. Plain text: the despatch is the player's words. */
export function despatchMail(d: DespatchMailInput): { subject: string; text: string } {
  const from = despatchFrom(d.from);
  return {
    subject: d.intercepted ? `${d.campaignName}: a despatch intercepted at sea` : `${d.campaignName}: a despatch from ${from}`,
    text: [
      d.intercepted
        ? `Intercepted at sea: a despatch from ${from}, turn ${d.turn}, to ${listOfPowers(d.to)}. It was not meant for you, and its recipients never got it:`
        : `A despatch from ${from}, turn ${d.turn}, to ${listOfPowers(d.to)}:`,
      '',
      d.text,
      '',
      '-- ',
      ...(d.pageUrl ? [`Your despatches: ${d.pageUrl}`] : []),
      'To answer, write a DESPATCH TO … block in a mail with your CAMPAIGN, POWER and PASSWORD lines.',
    ].join('\n'),
  };
}

/** A despatch in the turn report's "Despatches received this month". */
export function despatchInReport(d: { from: string; to: readonly string[]; text: string; intercepted?: boolean }): string {
  return `${despatchReportHead(d)}\n${d.text}`;
}

/** The orders page after Send, when the text carried despatches. */
export function despatchNote(sent: number, refused: number): string | null {
  if (sent + refused === 0) return null;
  const went = sent === 0 ? 'No despatch was sent' : `${sent} ${sent === 1 ? 'despatch' : 'despatches'} sent (or already sent) with these orders`;
  return refused === 0 ? `${went}.` : `${went}; ${refused} refused: write ${refused === 1 ? 'it' : 'them'} on the Despatches page to see why.`;
}
