/**
 * Galleys & Galleons results to the campaign's boxes, the export's conversion run backwards
 * (docs/battle-import.md). The house rules: "Hull – The vessel takes a point of damage", each
 * point a damaged die; "at three it is crippled" and more is excess damage, and "Ships may
 * either sink or strike when they take excess Hull hits". The export gives one damaged die a
 * third of the hull lost; so a ship with d damaged dice after the battle keeps hull × (1 − d/3)
 * boxes (a crippled ship one box: sinking is her fate, not her hull). Holed is "a hull at a
 * quarter or less" on the export, so a Holed critical leaves at most a quarter. Each Rigging
 * critical takes one mast's rigging, the fore first (the export counts a bare mast as a
 * Rigging critical already taken). Captain killed, Rudder and Fire last the game only.
 */
import { gngDamagedDice } from '../gng.js';
import type { Track } from '../json.js';
import { Reader, noLosses, type Fate, type NativeMeasures, type Unit, type UnitConversion } from './common.js';

export const GNG_CRITICAL_KINDS = ['hull', 'holed', 'rigging', 'rudder', 'captain', 'fire'] as const;
export type GngCritical = (typeof GNG_CRITICAL_KINDS)[number];

/** Damaged dice at which a vessel is crippled; more hits are excess damage. */
export const GNG_CRIPPLED = 3;

/** Hull boxes left with `dice` damaged dice: hull × (1 − dice/3), never below 1 (sinking is the fate's). */
export function gngHullLeft(hull: Track, dice: number): number {
  return Math.max(1, hull.capacity - Math.round((hull.capacity * Math.min(dice, GNG_CRIPPLED)) / GNG_CRIPPLED));
}

const GAME_ONLY: Partial<Record<GngCritical, string>> = {
  captain: 'Captain killed: "+1Q for the rest of the game"; no campaign box',
  rudder: 'Rudder hit: lasts the game; the campaign has no rudder box',
  fire: 'Fire: lasts the game (a ship that blew up is marked exploded); no campaign box',
};

export function convertGng(u: Unit, x: NativeMeasures, fate: Fate | 'surrendered' | 'holding'): UnitConversion {
  const r = new Reader(u);
  const hits = r.count(x.hits, 'hits', Number.MAX_SAFE_INTEGER, ['hit', 'hits']);
  const crits: GngCritical[] = [];
  for (const c of x.criticals ?? []) {
    const k = String(c).trim().toLowerCase();
    if (!(GNG_CRITICAL_KINDS as readonly string[]).includes(k)) {
      r.fail(`'${String(c).slice(0, 20)}' is not a Galleys & Galleons critical (${GNG_CRITICAL_KINDS.join(', ')})`);
    } else if (u.kind === 'fort' && (k === 'rigging' || k === 'rudder')) {
      r.fail(`a fort takes no ${k} critical: it "Ignores Rigging and Rudder criticals" (and "Rigging and steerage hits are ignored")`);
    } else crits.push(k as GngCritical);
  }
  const has = (k: GngCritical) => crits.filter((c) => c === k).length;
  const before = gngDamagedDice(u.hull);
  const points = hits + has('hull');
  const after = before + points;
  const excess = after > GNG_CRIPPLED;
  if (excess && u.kind === 'ship' && (fate === 'afloat' || fate === 'escaped')) {
    r.fail(`took ${points} ${points === 1 ? 'hit' : 'hits'} with ${before} damaged ${before === 1 ? 'die' : 'dice'} already: that is excess damage, and "Ships may either sink or strike when they take excess Hull hits"; mark her struck, taken or sunk`);
  }
  if (r.problems.length > 0) return { ok: false, problems: r.problems };

  const losses = noLosses(u);
  const gone = fate === 'sunk' || fate === 'exploded' || (u.kind === 'fort' && excess);
  let hullLeft = gone ? 0 : gngHullLeft(u.hull, after);
  if (!gone && has('holed') > 0) hullLeft = Math.min(hullLeft, Math.max(1, Math.floor(u.hull.capacity / 4)));
  losses.hullLost = Math.max(0, u.hull.left - hullLeft);
  let rigging = has('rigging');
  u.rigging.forEach((m, i) => {
    if (rigging > 0 && m.left > 0) { losses.riggingLost[i] = m.left; rigging--; }
  });
  const notes = crits.flatMap((c) => (GAME_ONLY[c] ? [GAME_ONLY[c]!] : []));
  if (has('holed') > 0) notes.push('Holed: hull left at most a quarter, so the next G&G sheet shows her Holed');
  if (rigging > 0) notes.push(`${rigging} Rigging critical${rigging === 1 ? '' : 's'} beyond her masts standing: no rigging left to lose`);
  const critText = crits.length > 0 ? `; criticals: ${crits.join(', ')}` : '';
  return {
    ok: true, losses, notes,
    outcome: `${hits} ${hits === 1 ? 'hit' : 'hits'}${critText} (damaged dice ${before} → ${Math.min(after, GNG_CRIPPLED)}${excess ? ', excess damage' : ''})`,
  };
}
