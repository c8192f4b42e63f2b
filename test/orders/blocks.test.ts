// SPEC §3, "Blocks beside the orders": "each ends with its own END <keyword>, which never
// ends the orders", and a block's lines are never read as orders.
import { describe, expect, it } from 'vitest';
import { findBlocks, blockLineNumbers } from '../../src/orders/blocks.js';
import { readLines } from '../../src/orders/clean.js';
import { parseOrders } from '../../src/orders/index.js';
import { caribbean } from './fixture.js';

const blocks = (text: string) => findBlocks(readLines(text));

describe('findBlocks', () => {
  it('finds a despatch with its text, up to END DESPATCH, whatever the case and spelling', () => {
    const [b, c] = blocks('FLEET Jamaica Squadron: HOLD\n- despatch grey to french\nSir,\n\n> as you wrote\nend dispatch\nDispatch to all\nAdieu\nEND DESPATCH.');
    expect(b).toMatchObject({ kind: 'despatch', line: 2, lastLine: 6, closed: true, opening: 'despatch grey to french' });
    expect(b!.body.map((l) => l.text)).toEqual(['Sir,', '', '> as you wrote']);
    expect(c).toMatchObject({ kind: 'despatch', line: 7, lastLine: 9, closed: true });
  });

  it('a block never closed runs to the signature, and says so', () => {
    const [b] = blocks('DESPATCH TO ALL\nGentlemen,\nFLEET Jamaica Squadron: HOLD\n-- \nNelson');
    expect(b).toMatchObject({ kind: 'despatch', line: 1, lastLine: 3, closed: false });
  });

  it('one-line blocks: ABSENT and BATTLE … DATES; standing orders up to END STANDING ORDERS', () => {
    const found = blocks('ABSENT 2027-02-01 TO 2027-02-20\nBATTLE b3 DATES 2027-01-09 14:00\nSTANDING ORDERS\nFLEET Jamaica Squadron: HOLD\nEND STANDING ORDERS\nFLEET Jamaica Squadron: REPAIR');
    expect(found.map((b) => [b.kind, b.line, b.lastLine])).toEqual([['absent', 1, 1], ['battle-dates', 2, 2], ['standing-orders', 3, 5]]);
    expect([...blockLineNumbers(found)]).toEqual([1, 2, 3, 4, 5]);
  });

  it('a quoted despatch from an earlier mail opens no block', () => {
    expect(blocks('> DESPATCH TO french\n> Sir,\n> END DESPATCH')).toEqual([]);
  });
});

describe('the orders parser reads around the blocks', () => {
  const state = caribbean();
  it('END DESPATCH does not end the orders, and the despatch\'s lines are neither orders nor chatter', () => {
    const r = parseOrders('FLEET Jamaica Squadron: HOLD\nDESPATCH TO french\nFLEET Leeward Squadron: REPAIR\nEND DESPATCH\nFLEET Leeward Squadron: HOLD\nEND\nDESPATCH TO american\nHello\nEND DESPATCH', state, { power: 'british', powerLineOptional: true });
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.orders?.fleets.map((f) => [f.fleetId, f.hold ?? false, f.repair ?? false])).toEqual([['f1', true, false], ['f2', true, false]]);
    expect(r.lines.map((l) => l.status)).toEqual(['order', 'block', 'block', 'block', 'order', 'order', 'block', 'block', 'block']);
    expect(r.orderLines).toBe(2);
    expect(r.blocks.map((b) => b.line)).toEqual([2, 7]);
  });
});
