/**
 * The blocks beside the orders, one example each (docs/orders-language.md, "Blocks beside the
 * orders"), for the HELP answer: DESPATCH, ABSENT, STANDING ORDERS, BATTLE … DATES and
 * BATTLE … RESULT. Where a fleet or a ship is named it is one of the reader's own, as the
 * orders examples are (ordersExample.ts); a reader not known gets placeholders.
 */
import { quoteName } from './ordersExample.js';

export interface BlocksHelpInput {
  /** The reader's fleets afloat, with their ships' names; empty when the reader is not known. */
  fleets: readonly { name: string; ships: readonly string[] }[];
  /** The reader's power's name, or null. */
  powerName: string | null;
  /** Today (the dates of the examples are a few weeks ahead of it). */
  today: Date;
}

const DAY = 86_400_000;
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

export function blocksHelpLines(input: BlocksHelpInput): string[] {
  const { fleets, today } = input;
  const fleet = (i: number) => quoteName(fleets[i]?.name ?? fleets[0]?.name ?? '<fleet>');
  const ship = fleets[0]?.ships[0] ?? '<ship>';
  const absentFrom = dayOf(new Date(today.getTime() + 28 * DAY));
  const absentTo = dayOf(new Date(today.getTime() + 42 * DAY));
  const tableA = dayOf(new Date(today.getTime() + 7 * DAY));
  const tableB = dayOf(new Date(today.getTime() + 8 * DAY));
  const standing = fleets.length === 0
    ? ['    FLEET <fleet>: STAY IN PORT']
    : fleets.slice(0, 3).map((_, i) => `    FLEET ${fleet(i)}: ${['STAY IN PORT', 'KEEP MISSION', 'RETURN TO PORT'][i]}`);
  return [
    'Blocks beside the orders (above or below them, or alone: a mail of blocks only leaves',
    'your orders as they were). Each is answered line by line; the web orders form and the API',
    'carry out DESPATCH, ABSENT and STANDING ORDERS the same way.',
    '',
    '  A despatch to other powers (TO ALL: every other power played; GREY hides the sender where allowed):',
    '    DESPATCH TO ALL',
    '    Sir, my squadron will keep to its own waters this month.',
    '    END DESPATCH',
    '',
    '  An absence (days in your time zone; the note after the colon is for the GM; ABSENT CANCEL cancels):',
    `    ABSENT ${absentFrom} TO ${absentTo}: at sea, back soon after`,
    '',
    '  Standing orders: what each fleet does in a turn you are absent and send no orders',
    '  (STAY IN PORT, KEEP MISSION, RETURN TO PORT, or any fleet order, checked like orders):',
    '    STANDING ORDERS',
    ...standing,
    '    END STANDING ORDERS',
    '',
    '  Table dates for a battle your power fought (its key, e.g. b3, is in the battle mail; times in your zone):',
    `    BATTLE b3 DATES ${tableA} 19:00, ${tableB} 14:00`,
    '',
    '  A battle\'s result, as the filled-in result sheet\'s lines (its code and ruleset head the sheet):',
    '    BATTLE b3 RESULT B3-K7QX WSIM',
    `    ${ship}: hull 2, guns left 3, crew 1/0/0`,
    `    Winner: ${input.powerName ?? '<power>'}`,
    '    END BATTLE',
  ];
}
