/**
 * A resolved turn drawn on the map (docs/web-pages.md, "Watch the turn happen"): the
 * fleets' tracks step by step, enemy fleets where and when they were sighted, battles,
 * and ports that changed hands; and, before a turn is resolved, the orders plotted for it.
 *
 * The input is made from the reader's cut of the event log only (turnFromEvents), so a
 * player's map draws nothing their power did not see. Each element carries the movement
 * phase it happened in (`data-phase`, 1-6; 0 before movement, 7 after it), which the web
 * report's phase slider uses to show the turn up to a phase.
 */
import type { GameEvent } from '../rules/events.js';
import type { Placed } from './frame.js';
import { around, type Part } from './parts.js';
import { escapeXml, GREY, n } from './xml.js';

export interface MapTurnInput {
  /** Fleet tracks: each step from node to node, with the phase it was sailed in. */
  tracks: readonly { fleetId: string; fleetName: string; power: string; steps: readonly { phase: number; from: string; to: string }[] }[];
  /** Enemy fleets sighted: where, and in which phase. */
  sighted: readonly { fleetId: string; fleetName: string; power: string; node: string; phase: number }[];
  battles: readonly { node: string; phase: number; text: string }[];
  /** Ports that changed hands (power: the new owner). */
  captures: readonly { node: string; power: string; phase: number; text: string }[];
}

export interface MapPlottedInput {
  fleetId: string;
  fleetName: string;
  power: string;
  /** Where the fleet stands, then each node of its plotted move. */
  route: readonly string[];
  /**
   * Where the orders check says the fleet stands at the end of each phase (the player's
   * orders map): each place it reaches is marked with the phase it gets there in.
   */
  phases?: readonly { phase: number; node: string }[];
}

/** After movement: fort rolls and captures decided at the end of the turn. */
export const END_PHASE = 7;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * The turn as the events given show it. Pass the reader's cut of the log (eventsFor /
 * turnLog): nothing else is looked at. `names` gives fleet names (the move events carry
 * ids); `sightings: false` leaves out sighting marks (the GM's map, where every track is drawn).
 */
export function turnFromEvents(
  events: readonly GameEvent[],
  opts: { names?: ReadonlyMap<string, string>; sightings?: boolean } = {},
): MapTurnInput {
  const tracks = new Map<string, { fleetId: string; fleetName: string; power: string; steps: { phase: number; from: string; to: string }[] }>();
  const sighted: MapTurnInput['sighted'][number][] = [];
  const battles: MapTurnInput['battles'][number][] = [];
  const captures: MapTurnInput['captures'][number][] = [];
  const seen = new Set<string>();
  for (const e of events) {
    if (e.type === 'move') {
      const id = e.fleetIds?.[0];
      const from = str(e['from']);
      const to = str(e['to']);
      if (!id || !from || !to) continue;
      const track = tracks.get(id) ?? {
        fleetId: id, power: e.power ?? '',
        // The move's own words start with the fleet's name (for a fleet since sunk or taken).
        fleetName: opts.names?.get(id) ?? (e.text.includes(' moved from ') ? e.text.slice(0, e.text.indexOf(' moved from ')) : id),
        steps: [],
      };
      track.steps.push({ phase: e.phase, from, to });
      tracks.set(id, track);
    } else if (e.type === 'spot' && opts.sightings !== false && Array.isArray(e['sighted'])) {
      for (const s of e['sighted'] as { fleetId?: unknown; power?: unknown; name?: unknown; node?: unknown }[]) {
        const fleetId = str(s.fleetId);
        const node = str(s.node);
        if (!fleetId || !node) continue;
        const key = `${fleetId}|${node}|${e.phase}`;
        if (seen.has(key)) continue;
        seen.add(key);
        sighted.push({ fleetId, node, phase: e.phase, power: str(s.power) ?? '', fleetName: str(s.name) ?? fleetId });
      }
    } else if (e.type === 'battle' && e.nodeId) {
      battles.push({ node: e.nodeId, phase: e.phase || END_PHASE, text: e.text });
    } else if (e.type === 'portCaptured' && e.nodeId) {
      captures.push({ node: e.nodeId, power: e.power ?? '', phase: e.phase || END_PHASE, text: e.text });
    }
  }
  return { tracks: [...tracks.values()], sighted, battles, captures };
}

export function drawTurn(
  turn: MapTurnInput,
  placed: ReadonlyMap<string, Placed>,
  colorOf: ReadonlyMap<string, string>,
  powerName: ReadonlyMap<string, string>,
): Part[] {
  const out: Part[] = ['<g class="turn" pointer-events="none">'];
  for (const t of turn.tracks) {
    const color = colorOf.get(t.power) ?? GREY;
    out.push(`<g class="track" data-fleet="${escapeXml(t.fleetId)}" data-power="${escapeXml(t.power)}"><title>${escapeXml(`${t.fleetName}: ${t.steps.length} ${t.steps.length === 1 ? 'step' : 'steps'}`)}</title>`);
    for (const s of t.steps) {
      const a = placed.get(s.from);
      const b = placed.get(s.to);
      if (!a || !b) continue;
      out.push({
        svg: `<g class="step" data-phase="${s.phase}"><line x1="${n(a.x)}" y1="${n(a.y)}" x2="${n(b.x)}" y2="${n(b.y)}" stroke="${color}" stroke-width="2.6" stroke-linecap="round" stroke-opacity="0.85"/>`
          + `<circle cx="${n(b.x)}" cy="${n(b.y)}" r="2.6" fill="#ffffff" stroke="${color}" stroke-width="1.4"/></g>`,
        box: around([a, b], 5),
      });
    }
    out.push('</g>');
  }
  for (const s of turn.sighted) {
    const p = placed.get(s.node);
    if (!p) continue;
    const color = colorOf.get(s.power) ?? GREY;
    out.push({
      svg: `<g class="sighted" data-fleet="${escapeXml(s.fleetId)}" data-phase="${s.phase}"><title>${escapeXml(`${s.fleetName} (${powerName.get(s.power) ?? s.power}) sighted here in phase ${s.phase}`)}</title>`
        + `<path d="M${n(p.x)} ${n(p.y - 8)}l8 8l-8 8l-8 -8z" fill="none" stroke="${color}" stroke-width="2" stroke-dasharray="3 2"/></g>`,
      box: around([p], 11),
    });
  }
  // A battle's cross is as large as it can be without touching the cross of a battle at
  // another node: in the Lesser Antilles two nodes may stand a few units apart.
  const battleAt = [...new Set(turn.battles.map((b) => b.node))].map((id) => placed.get(id)).filter((p): p is Placed => p !== undefined);
  const half = (p: Placed) => {
    const apart = battleAt.filter((q) => q !== p).map((q) => Math.max(Math.abs(q.x - p.x), Math.abs(q.y - p.y)));
    return Math.min(9, ...apart.map((c) => c / 2 - 1.5));
  };
  for (const b of turn.battles) {
    const p = placed.get(b.node);
    if (!p) continue;
    const r = Math.max(half(p), 1.5);
    out.push({
      svg: `<g class="battle" data-phase="${b.phase}"><title>${escapeXml(b.text)}</title>`
        + `<path d="M${n(p.x - r)} ${n(p.y - r)}l${n(2 * r)} ${n(2 * r)}m0 ${n(-2 * r)}l${n(-2 * r)} ${n(2 * r)}" stroke="#b00020" stroke-width="${r < 6 ? 2 : 3}" stroke-linecap="round"/></g>`,
      box: around([p], r + 3),
    });
  }
  for (const c of turn.captures) {
    const p = placed.get(c.node);
    if (!p) continue;
    out.push({
      svg: `<g class="captured" data-phase="${c.phase}"><title>${escapeXml(c.text)}</title>`
        + `<circle cx="${n(p.x)}" cy="${n(p.y)}" r="10" fill="none" stroke="${colorOf.get(c.power) ?? GREY}" stroke-width="3"/></g>`,
      box: around([p], 13),
    });
  }
  out.push('</g>');
  return out;
}

/** Plotted orders as arrows: a dashed line along the route in the power's colour, a head at its end. */
export function drawPlotted(plotted: readonly MapPlottedInput[], placed: ReadonlyMap<string, Placed>, colorOf: ReadonlyMap<string, string>): Part[] {
  const out: Part[] = ['<g class="plotted-orders" pointer-events="none">'];
  for (const o of plotted) {
    const pts = o.route.map((id) => placed.get(id)).filter((p): p is Placed => p !== undefined);
    if (pts.length < 2) continue;
    const color = colorOf.get(o.power) ?? GREY;
    const a = pts[pts.length - 2]!;
    const b = pts[pts.length - 1]!;
    const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    const ux = (b.x - a.x) / len;
    const uy = (b.y - a.y) / len;
    const head = `${n(b.x)},${n(b.y)} ${n(b.x - ux * 9 - uy * 5)},${n(b.y - uy * 9 + ux * 5)} ${n(b.x - ux * 9 + uy * 5)},${n(b.y - uy * 9 - ux * 5)}`;
    const marks = phaseMarks(o, placed, color);
    // data-route: the orders page's script hides an arrow once the text plots the fleet elsewhere.
    out.push({
      svg: `<g class="plotted-order" data-fleet="${escapeXml(o.fleetId)}" data-power="${escapeXml(o.power)}" data-route="${escapeXml(o.route.join(' '))}"><title>${escapeXml(`${o.fleetName}: plotted move`)}</title>`
        + `<polyline points="${pts.map((p) => `${n(p.x)},${n(p.y)}`).join(' ')}" fill="none" stroke="${color}" stroke-width="2.4" stroke-dasharray="5 3" stroke-linejoin="round"/>`
        + `<polygon points="${head}" fill="${color}"/>${marks.svg}</g>`,
      box: around([...pts, ...marks.at], 12),
    });
  }
  out.push('</g>');
  return out;
}

/**
 * The phase a plotted fleet reaches each place in, written beside the place ("3", or "3, 5"
 * for a place it comes back to): up and to the right of the mark, where a port's name is
 * never put (labels.ts places names beside or below first).
 */
function phaseMarks(o: MapPlottedInput, placed: ReadonlyMap<string, Placed>, color: string): { svg: string; at: { x: number; y: number }[] } {
  if (!o.phases?.length) return { svg: '', at: [] };
  const reached = new Map<string, number[]>();
  let was = o.route[0];
  for (const { phase, node } of o.phases) {
    if (node !== was) reached.set(node, [...(reached.get(node) ?? []), phase]);
    was = node;
  }
  const at: { x: number; y: number }[] = [];
  const svg = [...reached].map(([node, phases]) => {
    const p = placed.get(node);
    if (!p) return '';
    const text = phases.join(', ');
    const w = 5 + 5.4 * text.length;
    const x = p.x + 5;
    const y = p.y - 15;
    at.push({ x, y }, { x: x + w, y: y + 11 });
    return `<g class="phase-mark" data-node="${escapeXml(node)}"><title>${escapeXml(`${o.fleetName}: phase ${text}`)}</title>`
      + `<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="11" rx="3" fill="#ffffff" stroke="${color}" stroke-width="1"/>`
      + `<text x="${n(x + w / 2)}" y="${n(y + 8.5)}" font-size="8.5" text-anchor="middle" fill="${color}" font-weight="bold">${escapeXml(text)}</text></g>`;
  }).join('');
  return { svg, at };
}
