/**
 * Wooden Ships & Iron Men and Beat to Quarters results to the campaign's boxes. Both games
 * count boxes, as the campaign does ("each damaged ship repairs 1d6-2 hit boxes on damaged
 * hull, rigging, and guns"): the WS&IM log crosses hull, rigging by mast, crew by section
 * and guns and carronades per broadside, left and right; the BtQ fleet log tallies hull,
 * rigging, guns and carronades (a broadside) and crew. The campaign keeps one gun count per
 * broadside, so WS&IM's left and right losses become one: their mean, rounded up
 * (docs/battle-import.md).
 */
import { Reader, type Losses, type NativeMeasures, type Unit, type UnitConversion } from './common.js';

/** One broadside's loss from the two WS&IM broadsides: the mean, rounded up (a box shot away is lost). */
export function wsimBroadsideLoss(left: number, right: number): number {
  return Math.ceil((left + right) / 2);
}

function boxes(r: Reader, u: Unit, x: NativeMeasures): Omit<Losses, 'gunsLost' | 'carronadesLost'> {
  return {
    hullLost: r.count(x.hullLost, 'hull', u.hull.left),
    riggingLost: r.sections(x.riggingLost, u.rigging.map((m) => m.left), 'rigging', 'mast'),
    crewLost: r.sections(x.crewLost, u.crew.map((c) => c.left), 'crew', 'section'),
  };
}

function words(l: Losses, guns: string): string {
  const parts = [`hull ${l.hullLost}`];
  if (l.riggingLost.length > 0) parts.push(`rigging ${l.riggingLost.join('/')}`);
  parts.push(guns, `crew ${l.crewLost.join('/')}`);
  return `lost ${parts.join(', ')}`;
}

export function convertWsim(u: Unit, x: NativeMeasures): UnitConversion {
  const r = new Reader(u);
  const base = boxes(r, u, x);
  if (u.kind === 'fort') {
    const gunsLost = r.count(x.gunsLost, 'gun', u.guns.left);
    if (r.problems.length > 0) return { ok: false, problems: r.problems };
    const losses = { ...base, gunsLost, carronadesLost: 0 };
    return { ok: true, losses, outcome: words(losses, `guns (all arcs) ${gunsLost}`), notes: [] };
  }
  const gl = r.count(x.gunsLostLeft, 'left-broadside gun', u.guns.left);
  const gr = r.count(x.gunsLostRight, 'right-broadside gun', u.guns.left);
  const cl = r.count(x.carronadesLostLeft, 'left-broadside carronade', u.carronades.left);
  const cr = r.count(x.carronadesLostRight, 'right-broadside carronade', u.carronades.left);
  if (r.problems.length > 0) return { ok: false, problems: r.problems };
  const losses = { ...base, gunsLost: wsimBroadsideLoss(gl, gr), carronadesLost: wsimBroadsideLoss(cl, cr) };
  const notes = gl !== gr || cl !== cr
    ? [`guns lost ${gl} left and ${gr} right${cl + cr > 0 ? `, carronades ${cl} left and ${cr} right` : ''}: the campaign keeps one count a broadside, the mean rounded up`]
    : [];
  const carr = cl + cr > 0 ? `, carronades ${cl} left ${cr} right` : '';
  return { ok: true, losses, outcome: words(losses, `guns ${gl} left ${gr} right${carr}`), notes };
}

export function convertBtq(u: Unit, x: NativeMeasures): UnitConversion {
  const r = new Reader(u);
  const base = boxes(r, u, x);
  const gunsLost = r.count(x.gunsLost, 'gun', u.guns.left);
  const carronadesLost = u.kind === 'fort' ? 0 : r.count(x.carronadesLost, 'carronade', u.carronades.left);
  if (r.problems.length > 0) return { ok: false, problems: r.problems };
  const losses = { ...base, gunsLost, carronadesLost };
  return { ok: true, losses, outcome: words(losses, `guns ${gunsLost}${carronadesLost > 0 ? `, carronades ${carronadesLost}` : ''}`), notes: [] };
}
