/**
 * A result sheet's outcome, in its ruleset's own terms, converted to the campaign's boxes:
 * `convertNativeResult` checks the sheet's battle code, reads each ship (and the fort) with
 * its ruleset's converter, and returns the campaign result the existing import takes, with
 * a row per ship for the preview (boxes before and after); or every problem, each naming
 * the ship and the reason. Pure: nothing is stored here.
 */
import { CONVERT } from '../errors.js';
import type { RuleViolation } from '../../rules/orders.js';
import type { BattleResult, ShipOutcome } from '../../rules/state.js';
import { codeMatches } from '../battleCode.js';
import type { BattlePackage } from '../json.js';
import {
  boxesAfter, boxesBefore, fortUnit, RULESET_FIELDS, RULESET_NAMES, shipUnit,
  type Boxes, type Fate, type NativeMeasures, type NativeResult, type Ruleset, type Unit, type UnitConversion,
} from './common.js';
import { convertCogs } from './cogs.js';
import { convertGng } from './gng.js';
import { convertBtq, convertWsim } from './wsim.js';

export * from './common.js';
export { convertWsim, convertBtq, wsimBroadsideLoss } from './wsim.js';
export { convertGng, gngHullLeft, GNG_CRITICAL_KINDS } from './gng.js';
export { convertCogs, cogOf, crewBoxesLost, COGS_SINK } from './cogs.js';

type UnitFate = Fate | 'surrendered' | 'holding';

const CONVERTERS: Record<Ruleset, (u: Unit, x: NativeMeasures, fate: UnitFate) => UnitConversion> = {
  wsim: convertWsim, btq: convertBtq, gng: convertGng, cogs: convertCogs,
};

/** One row of the preview: a ship (or the fort), what the sheet says, and the campaign's boxes before and after. */
export interface ConvertRow {
  shipId: string;
  ship: string;
  side: string;
  outcome: string;
  fate: string;
  before: Boxes;
  after: Boxes;
  notes: string[];
}

export type ConvertOutcome =
  | { ok: true; result: BattleResult; rows: ConvertRow[] }
  | { ok: false; problems: RuleViolation[] };

const MEASURES: (keyof NativeMeasures)[] = [
  'hullLost', 'riggingLost', 'gunsLost', 'gunsLostLeft', 'gunsLostRight', 'carronadesLost', 'carronadesLostLeft',
  'carronadesLostRight', 'crewLost', 'hits', 'criticals', 'hullPointsLost', 'deckCrewLost',
];

/** Measures given that the ruleset's sheet does not have (a wrong ruleset, or a fort's rigging). */
function foreign(ruleset: Ruleset, kind: 'ship' | 'fort', x: NativeMeasures): string[] {
  const allowed = RULESET_FIELDS[ruleset][kind];
  return MEASURES.filter((k) => x[k] !== undefined && !allowed.includes(k));
}

export function convertNativeResult(pkg: BattlePackage, campaignId: string, input: NativeResult): ConvertOutcome {
  const name = RULESET_NAMES[input.ruleset];
  if (!codeMatches(input.battleCode, campaignId, pkg.battleId)) {
    return {
      ok: false,
      problems: [{
        code: CONVERT.wrongSheet,
        message: `The battle code '${input.battleCode.slice(0, 20)}' is not the code of battle ${pkg.battleId} (turn ${pkg.turn}, ${pkg.location.description}): this is the result sheet of another battle, or the code was misread. Check the code printed at the head of the sheet.`,
      }],
    };
  }
  const problems: RuleViolation[] = [];
  const ships = pkg.sides.flatMap((s) => s.ships.map((ship) => ({ ship, side: s.powerName })));
  const known = new Set(ships.map((s) => s.ship.id));
  const given = new Map<string, NativeResult['ships'][number]>();
  for (const x of input.ships) {
    if (!known.has(x.shipId)) {
      problems.push({ code: CONVERT.unknownShip, shipId: x.shipId, ship: x.shipId, message: `Ship '${x.shipId.slice(0, 40)}' is not on the result sheet of battle ${pkg.battleId}` });
    } else if (given.has(x.shipId)) {
      const s = ships.find((y) => y.ship.id === x.shipId)!.ship;
      problems.push({ code: CONVERT.duplicateShip, shipId: s.id, ship: s.name, message: `${s.name} has two results` });
    } else given.set(x.shipId, x);
  }

  const rows: ConvertRow[] = [];
  const outcomes: ShipOutcome[] = [];
  const run = (u: Unit, side: string, x: NativeMeasures, fate: UnitFate): UnitConversion | null => {
    const bad = foreign(input.ruleset, u.kind, x);
    if (bad.length > 0) {
      const fields = RULESET_FIELDS[input.ruleset][u.kind].join(', ');
      problems.push({
        code: CONVERT.foreignMeasure, shipId: u.id, ship: u.name,
        message: `${u.name}: ${bad.join(', ')} ${bad.length === 1 ? 'is' : 'are'} not on the ${name} result sheet${u.kind === 'fort' ? ' for the fort' : ''} (it has ${fields})`,
      });
      return null;
    }
    const c = CONVERTERS[input.ruleset](u, x, fate);
    if (!c.ok) {
      for (const m of c.problems) problems.push({ code: CONVERT.badMeasure, shipId: u.id, ship: u.name, message: m });
      return null;
    }
    rows.push({ shipId: u.id, ship: u.name, side, outcome: c.outcome, fate, before: boxesBefore(u), after: boxesAfter(u, c.losses), notes: c.notes });
    return c;
  };

  for (const { ship, side } of ships) {
    const x = given.get(ship.id) ?? { shipId: ship.id };
    const fate: Fate = x.fate ?? 'afloat';
    const c = run(shipUnit(ship), side, x, fate);
    if (!c?.ok) continue;
    outcomes.push({
      shipId: ship.id, ...c.losses, final: fate,
      ...(x.capturedBy !== undefined ? { capturedBy: x.capturedBy } : {}),
      ...(x.prizeCrewFrom !== undefined ? { prizeCrewFrom: x.prizeCrewFrom } : {}),
      ...(x.prizeCrew !== undefined ? { prizeCrew: x.prizeCrew } : {}),
    });
  }

  let fort: BattleResult['fort'];
  if (input.fort && !pkg.fort) {
    problems.push({ code: CONVERT.noFort, shipId: 'fort', ship: 'the fort', message: `Battle ${pkg.battleId} has no fort: leave the fort out` });
  } else if (pkg.fort) {
    const f = input.fort ?? { surrendered: false };
    const u = fortUnit(pkg.fort);
    const owner = pkg.sides.find((s) => s.power === pkg.fort!.owner)?.powerName ?? pkg.fort.ownerName;
    const c = run(u, owner, f, f.surrendered ? 'surrendered' : 'holding');
    if (c?.ok) fort = { hullLost: c.losses.hullLost, gunsLost: c.losses.gunsLost, crewLost: c.losses.crewLost, surrendered: f.surrendered };
  }

  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    rows,
    result: {
      source: 'imported', winner: input.winner, ships: outcomes,
      ...(fort ? { fort } : {}),
      notes: [`From the ${name} result sheet, battle code ${input.battleCode.trim().toUpperCase()}.`, input.notes?.trim() ?? ''].join(' ').trim(),
    },
  };
}
