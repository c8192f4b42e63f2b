/**
 * Results in a ruleset's own terms: what the GM reads off a result sheet, per ruleset, and
 * what the converters share. Each converter (wsim.ts, btq.ts, gng.ts, cogs.ts) turns one
 * ship's (or the fort's) outcome into the campaign's boxes lost, or into problems that each
 * name the ship and the reason. Pure: no I/O.
 */
import type { ShipOutcome } from '../../rules/state.js';
import type { MastTrack, PackageFort, PackageShip, SectionTrack, Track } from '../json.js';

export const RULESETS = ['wsim', 'btq', 'gng', 'cogs'] as const;
export type Ruleset = (typeof RULESETS)[number];

export const RULESET_NAMES: Record<Ruleset, string> = {
  wsim: 'Wooden Ships & Iron Men', btq: 'Beat to Quarters', gng: 'Galleys & Galleons', cogs: 'Sailpower: Cogs of Valor',
};

export function isRuleset(s: string): s is Ruleset {
  return (RULESETS as readonly string[]).includes(s);
}

export type Fate = ShipOutcome['final'];
export const FATES: readonly Fate[] = ['afloat', 'struck', 'captured', 'sunk', 'exploded', 'escaped'];

/** Crew lost by Cogs deck (crewmembers removed); the crow's nest is manned from the main deck. */
export interface DeckLosses { sternCastle?: number; mainDeck?: number; forecastle?: number; crowsNest?: number }

/** The measures a sheet may carry; each ruleset reads its own (RULESET_FIELDS) and refuses the rest. */
export interface NativeMeasures {
  hullLost?: number;
  /** A total (crossed off mast by mast from the fore) or one number a mast. */
  riggingLost?: number | number[];
  gunsLost?: number;
  gunsLostLeft?: number;
  gunsLostRight?: number;
  carronadesLost?: number;
  carronadesLostLeft?: number;
  carronadesLostRight?: number;
  /** A total (crossed off section by section from the first) or one number a section. */
  crewLost?: number | number[];
  hits?: number;
  criticals?: string[];
  hullPointsLost?: number;
  deckCrewLost?: DeckLosses;
}

export interface NativeShip extends NativeMeasures {
  shipId: string;
  fate?: Fate;
  capturedBy?: string;
  prizeCrewFrom?: string;
  prizeCrew?: number;
}

export interface NativeFort extends NativeMeasures {
  surrendered: boolean;
}

export interface NativeResult {
  ruleset: Ruleset;
  battleCode: string;
  winner: string | null;
  ships: NativeShip[];
  fort?: NativeFort;
  notes?: string;
}

/** Which measures each ruleset's sheet has, for ships and for the fort. */
export const RULESET_FIELDS: Record<Ruleset, { ship: (keyof NativeMeasures)[]; fort: (keyof NativeMeasures)[] }> = {
  wsim: {
    ship: ['hullLost', 'riggingLost', 'gunsLostLeft', 'gunsLostRight', 'carronadesLostLeft', 'carronadesLostRight', 'crewLost'],
    fort: ['hullLost', 'gunsLost', 'crewLost'],
  },
  btq: { ship: ['hullLost', 'riggingLost', 'gunsLost', 'carronadesLost', 'crewLost'], fort: ['hullLost', 'gunsLost', 'crewLost'] },
  gng: { ship: ['hits', 'criticals'], fort: ['hits', 'criticals'] },
  cogs: { ship: ['hullPointsLost', 'deckCrewLost'], fort: ['hullPointsLost', 'deckCrewLost'] },
};

/** A ship or the fort as the sheet found it (the package: the battle's frozen record). */
export interface Unit {
  id: string;
  name: string;
  kind: 'ship' | 'fort';
  type: PackageShip['type'] | 'fort';
  hull: Track;
  rigging: MastTrack[];
  guns: Track;
  carronades: Track;
  crew: SectionTrack[];
}

export function shipUnit(s: PackageShip): Unit {
  return { id: s.id, name: s.name, kind: 'ship', type: s.type, hull: s.hull, rigging: s.rigging, guns: s.guns, carronades: s.carronades, crew: s.crew };
}

export function fortUnit(f: PackageFort): Unit {
  return {
    id: 'fort', name: `the fort of ${f.portName}`, kind: 'fort', type: 'fort', hull: f.hull, rigging: [], guns: f.guns,
    carronades: { left: 0, capacity: 0 }, crew: f.crew,
  };
}

/** Campaign boxes lost, as the existing import takes them. */
export interface Losses {
  hullLost: number;
  riggingLost: number[];
  gunsLost: number;
  carronadesLost: number;
  crewLost: number[];
}

export function noLosses(u: Unit): Losses {
  return { hullLost: 0, riggingLost: u.rigging.map(() => 0), gunsLost: 0, carronadesLost: 0, crewLost: u.crew.map(() => 0) };
}

/** What a converter makes of one unit: the boxes lost and the outcome in the ruleset's words. */
export type UnitConversion = { ok: true; losses: Losses; outcome: string; notes: string[] } | { ok: false; problems: string[] };

/** Collects a unit's problems; every message names the unit. */
export class Reader {
  readonly problems: string[] = [];
  constructor(readonly unit: Unit) {}

  fail(message: string): void {
    this.problems.push(`${this.unit.name}: ${message}`);
  }

  /** A whole number of `what` lost, 0 or more and at most `max`; absent is 0. `noun`: singular and plural. */
  count(value: unknown, what: string, max: number, noun: [string, string] = ['box', 'boxes']): number {
    if (value === undefined || value === null) return 0;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      this.fail(`${what} lost ${JSON.stringify(value)} is not a number of ${noun[1]}: write a whole number, 0 or more`);
      return 0;
    }
    if (value > max) {
      this.fail(`has ${max} ${what} ${max === 1 ? noun[0] : noun[1]} and cannot lose ${value}`);
      return 0;
    }
    return value;
  }

  /** Boxes lost over masts or sections: a total crossed off from the first, or one number each. */
  sections(value: unknown, left: readonly number[], what: string, part: string): number[] {
    const zero = left.map(() => 0);
    if (value === undefined || value === null) return zero;
    if (typeof value === 'number') {
      const total = this.count(value, what, left.reduce((a, b) => a + b, 0));
      let rest = total;
      return left.map((l) => { const take = Math.min(l, rest); rest -= take; return take; });
    }
    if (!Array.isArray(value) || value.length !== left.length) {
      this.fail(`${what} lost must be a total or one number a ${part} (${left.length} of them: ${left.join('/')} left)`);
      return zero;
    }
    return value.map((v, i) => this.count(v, `${what} (${part} ${i + 1})`, left[i]!));
  }
}

/** Boxes as the preview shows them: hull, rigging per mast, guns, carronades, crew per section. */
export interface Boxes { hull: number; rigging: number[]; guns: number; carronades: number; crew: number[] }

export function boxesBefore(u: Unit): Boxes {
  return { hull: u.hull.left, rigging: u.rigging.map((m) => m.left), guns: u.guns.left, carronades: u.carronades.left, crew: u.crew.map((c) => c.left) };
}

export function boxesAfter(u: Unit, l: Losses): Boxes {
  const b = boxesBefore(u);
  return {
    hull: b.hull - l.hullLost, rigging: b.rigging.map((r, i) => r - (l.riggingLost[i] ?? 0)), guns: b.guns - l.gunsLost,
    carronades: b.carronades - l.carronadesLost, crew: b.crew.map((c, i) => c - (l.crewLost[i] ?? 0)),
  };
}

/** "hull 9, rigging 6/4/0, guns 9, carr. 1, crew 6/5/4" */
export function boxesText(b: Boxes): string {
  const parts = [`hull ${b.hull}`];
  if (b.rigging.length > 0) parts.push(`rigging ${b.rigging.join('/')}`);
  parts.push(`guns ${b.guns}`);
  if (b.carronades > 0) parts.push(`carr. ${b.carronades}`);
  parts.push(`crew ${b.crew.join('/')}`);
  return parts.join(', ');
}
