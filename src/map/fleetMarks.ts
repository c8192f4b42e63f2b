/**
 * A fleet's marker says what the fleet is (docs/web-pages.md, "The map"): its shape the
 * kind, its size the number of ships.
 *   - a broad arrow (a hull seen from above): a fleet with a ship of the line;
 *   - a narrow pennant: frigates only;
 *   - a square: a convoy (escorts with merchantmen);
 *   - a circle: a fleet whose ships are not known (an old sighting without a list).
 * Height grows with the ships: 7 px for one, 2 px more for each further ship, up to 8.
 */

export type FleetKind = 'line' | 'frigates' | 'convoy' | 'unknown';

export interface FleetShape {
  kind: FleetKind;
  ships: number;
}

const fmt = (v: number) => (Number.isFinite(v) ? (Math.round(v * 10) / 10).toString() : '0');

/** What kind of fleet, from its ships' classes (`types`: class key → ship type). */
export function fleetShape(
  ships: readonly { classKey: string; status?: string }[] | undefined,
  convoy: unknown,
  types: ReadonlyMap<string, string>,
): FleetShape {
  const afloat = (ships ?? []).filter((s) => s.status === undefined || s.status === 'afloat');
  if (convoy) return { kind: 'convoy', ships: afloat.length };
  if (afloat.length === 0) return { kind: 'unknown', ships: 0 };
  const line = afloat.some((s) => types.get(s.classKey) === 'ship-of-the-line');
  return { kind: line ? 'line' : 'frigates', ships: afloat.length };
}

/** The marker's height in px. */
export function markSize(shape: FleetShape): number {
  return 7 + 2 * (Math.min(Math.max(shape.ships, 1), 8) - 1);
}

/** The marker's outline as path data, its left edge at x, centred on y, pointing east. */
export function markPath(shape: FleetShape, x: number, y: number): string {
  const s = markSize(shape);
  const h = s / 2;
  switch (shape.kind) {
    case 'line': {
      const w = s * 1.3;
      return `M${fmt(x)} ${fmt(y - h)}h${fmt(w * 0.62)}l${fmt(w * 0.38)} ${fmt(h)}l${fmt(-w * 0.38)} ${fmt(h)}h${fmt(-w * 0.62)}z`;
    }
    case 'frigates':
      return `M${fmt(x)} ${fmt(y - h)}l${fmt(s * 1.1)} ${fmt(h)}l${fmt(-s * 1.1)} ${fmt(h)}z`;
    case 'convoy':
      return `M${fmt(x)} ${fmt(y - h)}h${fmt(s)}v${fmt(s)}h${fmt(-s)}z`;
    default:
      return `M${fmt(x)} ${fmt(y)}a${fmt(h)} ${fmt(h)} 0 1 0 ${fmt(s)} 0a${fmt(h)} ${fmt(h)} 0 1 0 ${fmt(-s)} 0z`;
  }
}

/** The marker's width in px (for laying out its label). */
export function markWidth(shape: FleetShape): number {
  const s = markSize(shape);
  return shape.kind === 'line' ? s * 1.3 : shape.kind === 'frigates' ? s * 1.1 : s;
}

export function kindWords(shape: FleetShape): string {
  const n = shape.ships;
  const ships = `${n} ${n === 1 ? 'ship' : 'ships'}`;
  switch (shape.kind) {
    case 'line': return `${ships}, with ships of the line`;
    case 'frigates': return `${ships}, frigates only`;
    case 'convoy': return `a convoy, ${ships} of escort`;
    default: return 'ships not known';
  }
}
