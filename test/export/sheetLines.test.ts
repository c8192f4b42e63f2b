// A result sheet's lines as a player mails them, read into the sheet conversion's input: each
// ruleset's measures, fates and the winner; every problem named by its line.
import { describe, expect, it } from 'vitest';
import { battlePackage } from '../../src/export/package.js';
import { battleCode } from '../../src/export/battleCode.js';
import { convertNativeResult } from '../../src/export/convert/index.js';
import { readSheetLines } from '../../src/export/convert/sheetLines.js';
import { resultSheet } from '../../src/export/resultSheet.js';
import { NAMES, world } from './fixture.js';

const sea = battlePackage(world(), 'b1');
const harbor = battlePackage(world(), 'b2');
const code = battleCode('camp', 'b1');
const lines = (...texts: string[]) => texts.map((text, i) => ({ line: i + 5, text }));

describe('the lines of a mailed result sheet', () => {
  it('WS&IM: losses by broadside, mast and section, a prize, the winner; converted as the sheet is', () => {
    const read = readSheetLines(sea, 'wsim', code, lines(
      `${NAMES.bellerophon}: hull 2, rigging 0/1/0, guns left 1, guns right 3, crew 1/0/0`,
      `* ${NAMES.hortense}: hull 1, struck, taken by Great Britain`,
      'Winner: great britain',
      'Notes: broke off at dusk',
    ));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.result).toEqual({
      ruleset: 'wsim', battleCode: code, winner: 'british', notes: 'broke off at dusk',
      ships: [
        { shipId: 'bel', hullLost: 2, riggingLost: [0, 1, 0], gunsLostLeft: 1, gunsLostRight: 3, crewLost: [1, 0, 0] },
        { shipId: 'hor', hullLost: 1, fate: 'captured', capturedBy: 'british' },
      ],
    });
    const converted = convertNativeResult(sea, 'camp', read.result);
    expect(converted.ok && converted.result.ships.find((o) => o.shipId === 'bel')).toMatchObject({ hullLost: 2, gunsLost: 2 });
  });

  it('G&G hits and criticals, Cogs decks, the fort surrendered; a drawn action', () => {
    const gng = readSheetLines(sea, 'gng', code, lines(`${NAMES.bucentaure}: hits 2, criticals rigging holed, sunk`, 'Winner: nobody'));
    expect(gng.ok && gng.result.ships).toEqual([{ shipId: 'buc', hits: 2, criticals: ['rigging', 'holed'], fate: 'sunk' }]);
    expect(gng.ok && gng.result.winner).toBeNull();
    const cogs = readSheetLines(harbor, 'cogs', code, lines(`${NAMES.redoutable}: hull points 3, main deck 2, crow's nest 1`, 'Fort: hull points 20, surrendered', 'Winner: France'));
    expect(cogs.ok && cogs.result).toMatchObject({
      ships: [{ shipId: 'red', hullPointsLost: 3, deckCrewLost: { mainDeck: 2, crowsNest: 1 } }], fort: { hullPointsLost: 20, surrendered: true }, winner: 'french',
    });
  });

  it('every problem is named by its line, with what to write', () => {
    const read = readSheetLines(sea, 'wsim', code, lines('HMS Nobody: hull 1', `${NAMES.circe}: hull two, flying`, `${NAMES.circe}: taken by Spain`, 'Fort: hull 1'));
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.problems).toEqual([
      expect.stringMatching(/^line 5: there is no ship 'HMS Nobody' in battle b1/),
      `line 6: ${NAMES.circe}: 'two' is not a number of boxes (write 0, 1, 2 ...)`,
      expect.stringMatching(/^line 6: 'flying' is not a measure of the sheet/),
      `line 7: ${NAMES.circe} cannot be taken by 'Spain', who did not fight in battle b1`,
      `line 7: ${NAMES.circe} has two lines`,
      'line 8: battle b1 has no fort',
      expect.stringMatching(/^no 'Winner:' line/),
    ]);
  });

  it('the result sheet prints the mail lines to send', () => {
    const sheet = resultSheet(sea, 'btq', code);
    expect(sheet.howTo.join(' ')).toContain(`"BATTLE b1 RESULT ${code} BTQ"`);
  });
});
