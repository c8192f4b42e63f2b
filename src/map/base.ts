/**
 * The map's base layer (src/map/parts.ts): sea, land, lanes with the trade wind, the nodes
 * (ports in their owner's colour) with their names, and the legend. It is the same for
 * every reader of a campaign at a given state, so it is made once and kept, keyed by
 * what it is drawn from (a few kept, the most recently used).
 *
 * Labels, most important first: ports and boxes, then sea areas (the fleets come after,
 * src/map/fleetBlocks.ts). Every node's own mark is blocked first, so no label covers a
 * port or a sea dot. Every node is named: a sea name with no room beside its dot stands
 * further out on a leader line. Sea names are placed as if there were no fleets, so that
 * they stand in the same spots on every reader's map; fleets keep clear of them (only a
 * fleet with no free spot at all, placed by force, covers one, and that name is left off
 * that map). The Lesser Antilles are drawn again, larger, under the legend (src/map/inset.ts).
 */
import type { MapInput, MapNodeInput } from './svg.js';
import { coastPath } from './coast.js';
import { frame, type Placed as FramePlaced } from './frame.js';
import { type Box, Labels, LINE_EM, shortName, textWidth, type Spot } from './labels.js';
import { drawInset } from './inset.js';
import { drawLegend } from './legend.js';
import { escapeXml, GREY, n, safeColor } from './xml.js';

export const SEA = '#dce9f2';
const LAND = '#efe6cf';
const COAST = '#a89c7c';
const LANE = '#9fb7cc';
const WIND = '#4f7394';
const INK = '#1d2b36';
const SEA_INK = '#3d6485';
const PORT_FONT = 11;
const SEA_FONT = 9;
/** How far out a label may stand from its node, on its leader line. */
export const LEADER_REACH = 120;
/** Where the baseline sits in a label's box, as a fraction of the font size. */
const BASELINE = 0.88;
/** The root's text settings: the overlay drawn on its own (src/map/png.ts) needs them too. */
export const MAP_FONT_ATTRS = `font-family="Georgia, 'DejaVu Serif', serif" font-size="10"`;
/** Bases kept (each some 200 kB of text). */
const KEPT = 12;

export type Placed = FramePlaced<MapNodeInput>;

export interface BaseLayer {
  placed: ReadonlyMap<string, Placed>;
  height: number;
  mapHeight: number;
  /** The labels placed so far (nodes, place names; sea names as yieldable): clone before placing more. */
  labels: Labels;
  /** Each sea name's box, by node id. */
  seaNames: ReadonlyMap<string, Box>;
  /** The layer with every sea name. */
  base: string;
  /** The layer with no sea name. */
  bare: string;
  /** The layer with the sea names `seaName` keeps. */
  layer(seaName: (id: string) => boolean): string;
}

/** A label's <text>: the halo of sea colour keeps it readable over lanes and coasts. */
function labelText(cls: string, x: number, y: number, size: number, text: string, extra = '', fill = INK): string {
  return `<text class="label ${cls}" x="${n(x)}" y="${n(y)}" font-size="${size}" fill="${fill}" stroke="${SEA}" stroke-width="2.5" paint-order="stroke"${extra}>${escapeXml(text)}</text>`;
}

function leaderLine(p: Placed, spot: Spot, ink = INK): string {
  return spot.leader
    ? `<line class="leader" x1="${n(p.x)}" y1="${n(p.y)}" x2="${n(spot.leader.x)}" y2="${n(spot.leader.y)}" stroke="${ink}" stroke-width="0.9" stroke-opacity="0.8"/>`
    : '';
}

/** A small arrow at the middle of a lane, pointing the way the trade wind blows. */
function windArrow(from: Placed, to: Placed): string {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const len = Math.hypot(dx, dy) || 1;
  const ux = dx / len;
  const uy = dy / len;
  const mx = (from.x + to.x) / 2;
  const my = (from.y + to.y) / 2;
  const tip = [mx + ux * 5, my + uy * 5];
  const l = [mx - ux * 4 - uy * 3.5, my - uy * 4 + ux * 3.5];
  const r = [mx - ux * 4 + uy * 3.5, my - uy * 4 - ux * 3.5];
  return `<polygon class="wind" points="${n(tip[0]!)},${n(tip[1]!)} ${n(l[0]!)},${n(l[1]!)} ${n(r[0]!)},${n(r[1]!)}" fill="${WIND}"/>`;
}

const kept = new Map<string, BaseLayer>();

/** Everything the base is drawn from, as one string. */
function keyOf(input: MapInput, width: number, clickable: boolean): string {
  return JSON.stringify([
    width, clickable, !!input.turn, (input.shipClasses ?? []).length > 0, input.inset !== false,
    input.nodes.map((nd) => [nd.id, nd.name, nd.kind, nd.x, nd.y, nd.lat, nd.lon]),
    input.edges.map((e) => [e.a, e.b, e.wind]),
    input.ports.map((p) => [p.node, p.owner]),
    input.powers.map((p) => [p.key, p.name, p.color]),
  ]);
}

export function baseLayer(input: MapInput, width: number, clickable: boolean): BaseLayer {
  const key = keyOf(input, width, clickable);
  const hit = kept.get(key);
  if (hit) {
    kept.delete(key);
    kept.set(key, hit);
    return hit;
  }
  const made = makeBase(input, width, clickable);
  kept.set(key, made);
  while (kept.size > KEPT) kept.delete(kept.keys().next().value!);
  return made;
}

function makeBase(input: MapInput, width: number, clickable: boolean): BaseLayer {
  const framed = frame(input.nodes, width);
  const { placed, mapHeight, geo } = framed;
  const colorOf = new Map(input.powers.map((p) => [p.key, safeColor(p.color)]));
  const owner = new Map(input.ports.map((p) => [p.node, p.owner]));
  const out: string[] = [];
  out.push(`<rect x="0" y="0" width="${width}" height="${n(framed.height)}" fill="${SEA}"/>`);
  if (geo) {
    const d = coastPath(geo);
    if (d) out.push(`<path class="land" d="${d}" fill="${LAND}" stroke="${COAST}" stroke-width="0.6" stroke-linejoin="round"/>`);
    if (geo.width < width) {
      out.push(`<line class="map-edge" x1="${n(geo.width)}" y1="0" x2="${n(geo.width)}" y2="${n(mapHeight)}" stroke="${LANE}" stroke-width="1" stroke-dasharray="2 3"/>`);
    }
  }

  // Sea lanes, with the trade wind's direction.
  out.push('<g class="lanes">');
  for (const e of input.edges) {
    const a = placed.get(e.a);
    const b = placed.get(e.b);
    if (!a || !b) continue;
    const dashed = a.offMap || b.offMap ? ' stroke-dasharray="4 3"' : '';
    out.push(`<line x1="${n(a.x)}" y1="${n(a.y)}" x2="${n(b.x)}" y2="${n(b.y)}" stroke="${LANE}" stroke-width="1.2"${dashed}/>`);
    if (e.wind === 'b>a') out.push(windArrow(b, a));
    else if (e.wind === 'a>b') out.push(windArrow(a, b));
  }
  out.push('</g>');

  const labels = new Labels(width, mapHeight);
  for (const p of placed.values()) {
    const r = p.node.kind === 'sea' ? 3 : p.node.kind === 'box' ? 11 : 7;
    labels.block({ x0: p.x - r, y0: p.y - r, x1: p.x + r, y1: p.y + r });
  }
  const nameAt = new Map<string, Spot>();
  for (const p of placed.values()) {
    if (p.node.kind === 'sea') continue;
    const w = textWidth(p.node.name, PORT_FONT);
    const h = PORT_FONT * LINE_EM;
    const gap = p.node.kind === 'box' ? 13 : 8;
    nameAt.set(p.node.id, labels.place(p.x, p.y, w, h, gap, { leader: true }) ?? labels.force(p.x, p.y, w, h, gap));
  }
  // Sea areas are named where the name fits: whole, or without its bracketed part when that
  // shorter name is still the node's own; failing both, further out with a leader line.
  const seaLabels = labels.clone();
  const seaNames = new Map<string, Box>();
  const seaText = new Map<string, string>();
  const shortCount = new Map<string, number>();
  for (const p of placed.values()) {
    const s = shortName(p.node.name) ?? p.node.name;
    shortCount.set(s, (shortCount.get(s) ?? 0) + 1);
  }
  for (const p of placed.values()) {
    if (p.node.kind !== 'sea') continue;
    const short = shortName(p.node.name);
    const texts = [p.node.name, ...(short && shortCount.get(short) === 1 ? [short] : [])];
    const h = SEA_FONT * LINE_EM;
    const sizes = texts.map((t) => ({ w: textWidth(t, SEA_FONT), h }));
    let found: { text: string; spot: Spot } | null = null;
    for (const [i, text] of texts.entries()) {
      const spot = seaLabels.placeName(p.x, p.y, sizes[i]!.w, h);
      if (spot) { found = { text, spot }; break; }
    }
    if (!found) {
      // A little further still rather than no name at all (the mailed map has no tooltips).
      const ringed = seaLabels.placeOnRings(p.x, p.y, sizes, 4, LEADER_REACH) ?? seaLabels.placeOnRings(p.x, p.y, sizes, LEADER_REACH, 2 * LEADER_REACH);
      if (ringed) found = { text: texts[ringed.index]!, spot: ringed.spot };
    }
    if (!found) continue;
    const { text, spot } = found;
    const w = textWidth(text, SEA_FONT);
    const box = { x0: spot.x, y0: spot.y, x1: spot.x + w, y1: spot.y + h };
    labels.block(box);
    seaNames.set(p.node.id, box);
    seaText.set(p.node.id, leaderLine(p, spot, SEA_INK) + labelText('sea-name', spot.x + 1, spot.y + SEA_FONT * BASELINE, SEA_FONT, text, ' font-style="italic"', SEA_INK));
  }

  // Nodes: ports in their owner's colour, sea areas as dots, boxes as boxes, each with its name.
  const nodes = [...placed.values()].map((p) => {
    const nd = p.node;
    const attrs = clickable ? ` class="node" data-node="${escapeXml(nd.id)}" data-kind="${escapeXml(nd.kind)}" style="cursor:pointer"` : ` data-kind="${escapeXml(nd.kind)}"`;
    const parts: string[] = [`<g${attrs}><title>${escapeXml(nd.name)}</title>`];
    if (clickable) parts.push(`<circle cx="${n(p.x)}" cy="${n(p.y)}" r="9" fill="#ffffff" fill-opacity="0"/>`);
    if (nd.kind === 'port') {
      const own = owner.get(nd.id);
      parts.push(`<circle class="port" cx="${n(p.x)}" cy="${n(p.y)}" r="6" fill="${own ? colorOf.get(own) ?? GREY : GREY}" stroke="${INK}" stroke-width="1.2"/>`);
    } else if (nd.kind === 'box') {
      parts.push(`<rect class="box" x="${n(p.x - 10)}" y="${n(p.y - 10)}" width="20" height="20" fill="#f4efe1" stroke="${INK}" stroke-width="1.2"/>`);
    } else {
      parts.push(`<circle class="sea" cx="${n(p.x)}" cy="${n(p.y)}" r="2.5" fill="${INK}" fill-opacity="0.55"/>`);
    }
    const at = nameAt.get(nd.id);
    if (at) parts.push(leaderLine(p, at), labelText('place', at.x + 1, at.y + PORT_FONT * BASELINE, PORT_FONT, nd.name));
    return { id: nd.id, head: parts.join(''), sea: seaText.get(nd.id) ?? '' };
  });
  const back = out.join('\n');
  const legend = drawLegend(input.powers, { y: mapHeight, width, types: (input.shipClasses ?? []).length > 0, turn: !!input.turn }).join('\n');
  // The Lesser Antilles again, larger, in a band under the legend.
  const inset = input.inset === false ? null : drawInset(input, placed, geo, framed.height, width, (id) => { const own = owner.get(id); return own ? colorOf.get(own) ?? GREY : GREY; },
    { sea: SEA, land: LAND, coast: COAST, lane: LANE, ink: INK, seaInk: SEA_INK, portFont: PORT_FONT, seaFont: SEA_FONT, baseline: BASELINE });
  const height = framed.height + (inset?.height ?? 0);
  const insetSvg = inset ? `<rect x="0" y="${n(framed.height)}" width="${width}" height="${n(inset.height)}" fill="#ffffff"/>\n${inset.svg}` : '';
  const layer = (seaName: (id: string) => boolean) => [
    back, '<g class="nodes">', ...nodes.map((nd) => `${nd.head}${seaName(nd.id) ? nd.sea : ''}</g>`), '</g>', legend, insetSvg,
  ].filter((part) => part).join('\n');
  return { placed, height, mapHeight, labels, seaNames, base: layer(() => true), bare: layer(() => false), layer };
}
