/**
 * The campaign map as SVG (docs/mail-out.md, docs/web-pages.md): for the turn report and
 * welcome mails (as an inline image) and for the web pages (inline, clickable, zoomable).
 *
 * What is drawn is exactly what the input holds: a player's map is made from their
 * PowerView (mapFromView) and their cut of the event log, the GM's from the whole state
 * (mapFromState); nothing here looks anything up elsewhere. Every text is escaped for XML;
 * colours are checked. Only presentation attributes are used (no CSS, no foreignObject),
 * so resvg draws the same picture for mail as a browser does.
 */
import type { PowerView } from '../rules/view.js';
import type { CampaignState } from '../rules/state.js';
import { coastPath } from './coast.js';
import { frame, type Placed as FramePlaced } from './frame.js';
import { fleetShape, kindWords, markPath, markSize, markWidth, type FleetShape } from './fleetMarks.js';
import { Labels, LINE_EM, shortName, textWidth, type Spot } from './labels.js';
import { drawLegend } from './legend.js';
import { drawPlotted, drawTurn, type MapPlottedInput, type MapTurnInput } from './turnLayer.js';
import { escapeXml, GREY, n, safeColor } from './xml.js';

export { escapeXml, safeColor } from './xml.js';
export type { MapPlottedInput, MapTurnInput } from './turnLayer.js';

export interface MapNodeInput {
  id: string;
  name: string;
  kind: 'sea' | 'port' | 'box';
  x?: number | null;
  y?: number | null;
  /** Real position (decimal degrees): when every sea and port node has one, the map is drawn over the real coasts. */
  lat?: number | null;
  lon?: number | null;
}

export interface MapFleetInput {
  id: string;
  name: string;
  power: string;
  at: string;
  inHarbor?: boolean;
  /** The fleet's ships (their classes give the marker's shape, their number its size). */
  ships?: readonly { classKey: string; status?: string }[];
  /** A convoy the fleet escorts (drawn as a square). */
  convoy?: unknown;
}

export interface MapSightingInput {
  fleetId: string;
  fleetName: string;
  power: string;
  node: string;
  turn: number;
  ships?: readonly { classKey: string }[];
}

export interface MapInput {
  nodes: readonly MapNodeInput[];
  edges: readonly { a: string; b: string; wind?: 'a>b' | 'b>a' | null }[];
  /** Port owners (the port's circle takes the owner's colour). */
  ports: readonly { node: string; owner: string }[];
  powers: readonly { key: string; name?: string; color: string }[];
  /** Ship classes, for the fleet markers' shapes (a fleet with a ship of the line vs frigates only). */
  shipClasses?: readonly { key: string; type: string }[];
  /** The reader's own fleets (the GM: every fleet). */
  fleets?: readonly MapFleetInput[];
  /** Enemy fleets seen now. */
  enemyFleets?: readonly MapFleetInput[];
  /** Last known positions of enemy fleets (greyed, with the turn they were seen). */
  sightings?: readonly MapSightingInput[];
  /** Nodes to ring (a battle, a fleet's destination). */
  highlight?: readonly string[];
  /** A route to draw, node by node. */
  route?: readonly string[];
  /** A resolved turn as the reader saw it: tracks phase by phase, sightings, battles, captures. */
  turn?: MapTurnInput;
  /** Orders plotted for the open turn, one arrow per moving fleet (the GM's dashboard). */
  plotted?: readonly MapPlottedInput[];
  /** The picture's title (read by screen readers and shown as a tooltip). */
  title?: string;
}

export interface MapOptions {
  /** Width in px (the height follows the map's shape). Default 900. */
  width?: number;
  /** Give every node `class="node"` and `data-node="<id>"` for the web form's route plotting. */
  clickable?: boolean;
}

export const SEA = '#dce9f2';
const LAND = '#efe6cf';
const COAST = '#a89c7c';
const LANE = '#9fb7cc';
const WIND = '#4f7394';
const INK = '#1d2b36';
const SEA_INK = '#3d6485';
const HIGHLIGHT = '#e07b00';
const ROUTE = '#b5451b';
const PORT_FONT = 11;
const SEA_FONT = 9;
const FLEET_FONT = 9.5;
/** Where the baseline sits in a label's box, as a fraction of the font size. */
const BASELINE = 0.88;

type Placed = FramePlaced<MapNodeInput>;

interface Marker {
  label: string;
  /** The name alone, for a crowded spot. */
  short: string;
  color: string;
  kind: 'own' | 'enemy' | 'sighting';
  title: string;
  shape: FleetShape;
}

/** A label's <text>: the halo of sea colour keeps it readable over lanes and coasts. */
function labelText(cls: string, x: number, y: number, size: number, text: string, extra = '', fill = INK): string {
  return `<text class="label ${cls}" x="${n(x)}" y="${n(y)}" font-size="${size}" fill="${fill}" stroke="${SEA}" stroke-width="2.5" paint-order="stroke"${extra}>${escapeXml(text)}</text>`;
}

function leaderLine(p: Placed, spot: Spot): string {
  return spot.leader
    ? `<line class="leader" x1="${n(p.x)}" y1="${n(p.y)}" x2="${n(spot.leader.x)}" y2="${n(spot.leader.y)}" stroke="${INK}" stroke-width="0.9" stroke-opacity="0.8"/>`
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

export function renderMapSvg(input: MapInput, opts: MapOptions = {}): string {
  const width = Math.max(200, Math.round(opts.width ?? 900));
  const { placed, height, mapHeight, geo } = frame(input.nodes, width);
  const colorOf = new Map(input.powers.map((p) => [p.key, safeColor(p.color)]));
  const powerName = new Map(input.powers.map((p) => [p.key, p.name ?? p.key]));
  const owner = new Map(input.ports.map((p) => [p.node, p.owner]));
  const types = new Map((input.shipClasses ?? []).map((c) => [c.key, c.type]));
  const out: string[] = [];
  const title = input.title ?? 'Campaign map';

  out.push(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${n(height)}" width="${width}" height="${n(height)}" font-family="Georgia, 'DejaVu Serif', serif" font-size="10" role="img" aria-label="${escapeXml(title)}">`);
  out.push(`<title>${escapeXml(title)}</title>`);
  out.push(`<rect x="0" y="0" width="${width}" height="${n(height)}" fill="${SEA}"/>`);
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

  const route = (input.route ?? []).map((id) => placed.get(id)).filter((p): p is Placed => p !== undefined);
  if (route.length > 1) {
    out.push(`<polyline class="route" points="${route.map((p) => `${n(p.x)},${n(p.y)}`).join(' ')}" fill="none" stroke="${ROUTE}" stroke-width="2.5" stroke-dasharray="6 3" stroke-linecap="round"/>`);
  }
  if (input.plotted?.length) out.push(...drawPlotted(input.plotted, placed, colorOf));
  if (input.turn) out.push(...drawTurn(input.turn, placed, colorOf, powerName));

  // Labels, most important first: ports and boxes, then fleets, then sea areas. Every
  // node's own mark is blocked first, so no label covers a port or a sea dot.
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

  // Fleets: own, enemies seen now, then older sightings, stacked beside their node.
  const markers = new Map<string, Marker[]>();
  const add = (node: string, m: Marker) => {
    if (!placed.has(node)) return;
    const list = markers.get(node) ?? [];
    list.push(m);
    markers.set(node, list);
  };
  for (const f of input.fleets ?? []) {
    const shape = fleetShape(f.ships, f.convoy, types);
    add(f.at, { kind: 'own', shape, color: colorOf.get(f.power) ?? GREY, label: f.name + (f.inHarbor ? ' (in harbor)' : ''), short: f.name, title: `${f.name} (${powerName.get(f.power) ?? f.power}): ${kindWords(shape)}` });
  }
  const seenNow = new Set((input.enemyFleets ?? []).map((f) => f.id));
  for (const f of input.enemyFleets ?? []) {
    const shape = fleetShape(f.ships, f.convoy, types);
    add(f.at, { kind: 'enemy', shape, color: colorOf.get(f.power) ?? GREY, label: `${f.name} (${powerName.get(f.power) ?? f.power})`, short: f.name, title: `${f.name} (${powerName.get(f.power) ?? f.power}), seen now: ${kindWords(shape)}` });
  }
  for (const s of input.sightings ?? []) {
    if (seenNow.has(s.fleetId)) continue;
    const shape = fleetShape(s.ships, null, types);
    add(s.node, { kind: 'sighting', shape, color: GREY, label: `${s.fleetName} (seen turn ${s.turn})`, short: s.fleetName, title: `${s.fleetName} (${powerName.get(s.power) ?? s.power}), last seen here on turn ${s.turn}: ${kindWords(shape)}` });
  }
  // A crowded spot (the Lesser Antilles) first tries the names beside the node, then the
  // bare names (no "(in harbor)", no power), then the markers alone (the names stay in
  // their tooltips); and only then the same further out, with a leader line.
  const fleetBlocks: { p: Placed; list: Marker[]; texts: string[]; spot: Spot; w: number; rows: number[]; markW: number }[] = [];
  for (const [node, list] of markers) {
    const p = placed.get(node)!;
    const rows = list.map((m) => Math.max(FLEET_FONT * LINE_EM, markSize(m.shape) + 2));
    const markW = Math.max(...list.map((m) => markWidth(m.shape)));
    const h = rows.reduce((a, b) => a + b, 0);
    const variants = [list.map((m) => m.label), list.map((m) => m.short), list.map(() => '')];
    const widthOf = (texts: string[]) => markW + (texts.some((t) => t) ? 4 + Math.max(...texts.map((t) => textWidth(t, FLEET_FONT))) : 2);
    let chosen: { texts: string[]; spot: Spot } | null = null;
    for (const leader of [false, true]) {
      for (const texts of variants) {
        const spot: Spot | null = chosen ? null : labels.place(p.x, p.y, widthOf(texts), h, 6, { leader });
        if (spot) chosen = { texts, spot };
      }
    }
    const texts = chosen?.texts ?? variants[2]!;
    const w = widthOf(texts);
    const spot = chosen?.spot ?? labels.force(p.x, p.y, w, h, 6);
    fleetBlocks.push({ p, list, texts, spot, w, rows, markW });
  }

  // Sea areas are named where the name fits (whole, or without its bracketed part).
  const seaNames = new Map<string, { spot: Spot; text: string }>();
  for (const p of placed.values()) {
    if (p.node.kind !== 'sea') continue;
    for (const text of [p.node.name, shortName(p.node.name)]) {
      if (!text) continue;
      const spot = labels.placeName(p.x, p.y, textWidth(text, SEA_FONT), SEA_FONT * LINE_EM);
      if (spot) { seaNames.set(p.node.id, { spot, text }); break; }
    }
  }

  // Nodes: ports in their owner's colour, sea areas as dots, boxes as boxes, each with its name.
  const clickable = opts.clickable === true;
  out.push('<g class="nodes">');
  for (const p of placed.values()) {
    const nd = p.node;
    const attrs = clickable ? ` class="node" data-node="${escapeXml(nd.id)}" data-kind="${escapeXml(nd.kind)}" style="cursor:pointer"` : ` data-kind="${escapeXml(nd.kind)}"`;
    const parts: string[] = [`<title>${escapeXml(nd.name)}</title>`];
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
    const sea = seaNames.get(nd.id);
    if (sea) parts.push(labelText('sea-name', sea.spot.x + 1, sea.spot.y + SEA_FONT * BASELINE, SEA_FONT, sea.text, ' font-style="italic"', SEA_INK));
    out.push(`<g${attrs}>${parts.join('')}</g>`);
  }
  out.push('</g>');

  for (const id of input.highlight ?? []) {
    const p = placed.get(id);
    if (p) out.push(`<circle class="highlight" cx="${n(p.x)}" cy="${n(p.y)}" r="12" fill="none" stroke="${HIGHLIGHT}" stroke-width="2.5" pointer-events="none"/>`);
  }

  out.push(`<g class="fleets"${clickable ? ' pointer-events="none"' : ''}>`);
  for (const { p, list, texts, spot, w, rows, markW } of fleetBlocks) {
    out.push(leaderLine(p, spot));
    // A block left of its node keeps the markers next to the node (its right end) and the
    // names running leftwards from them, so a long name never strands a marker.
    const leftOfNode = spot.x + w <= p.x;
    let y = spot.y;
    list.forEach((m, i) => {
      const mid = y + rows[i]! / 2;
      const x = leftOfNode ? spot.x + w - markW : spot.x;
      const stroke = m.kind === 'own' ? INK : m.kind === 'enemy' ? '#b00020' : GREY;
      const dash = m.kind === 'sighting' ? ' stroke-dasharray="2 1.5"' : '';
      const opacity = m.kind === 'sighting' ? ' opacity="0.75"' : '';
      const tx = leftOfNode ? x - 3 : x + markW + 3;
      const anchor = leftOfNode ? ' text-anchor="end"' : '';
      const style = (m.kind === 'own' ? ' font-weight="bold"' : ' font-style="italic"');
      out.push(`<g class="fleet ${m.kind}" data-kind="${m.shape.kind}" data-ships="${m.shape.ships}"${opacity}><title>${escapeXml(m.title)}</title>`
        + `<path class="mark" d="${markPath(m.shape, x, mid)}" fill="${m.color}" stroke="${stroke}" stroke-width="1"${dash}/>`
        + (texts[i] ? labelText(`fleet-name ${m.kind}`, tx, mid + FLEET_FONT * 0.35, FLEET_FONT, texts[i]!, `${anchor}${style}`, m.kind === 'sighting' ? GREY : INK) : '')
        + '</g>');
      y += rows[i]!;
    });
  }
  out.push('</g>');

  out.push(...drawLegend(input.powers, { y: mapHeight, width, types: types.size > 0, turn: !!input.turn }));
  out.push('</svg>');
  return out.join('\n');
}

/** A player's map: their view only (own fleets, enemies seen now, older sightings). */
export function mapFromView(view: PowerView, extra: Pick<MapInput, 'highlight' | 'route' | 'title' | 'turn'> = {}): MapInput {
  return {
    nodes: view.nodes, edges: view.edges,
    ports: view.ports.map((p) => ({ node: p.node, owner: p.owner })),
    powers: view.powers.map((p) => ({ key: p.key, name: p.name, color: p.color })),
    shipClasses: view.shipClasses.map((c) => ({ key: c.key, type: c.type })),
    fleets: view.fleets, enemyFleets: view.enemyFleets,
    sightings: view.sightings.map((s) => ({ fleetId: s.fleetId, fleetName: s.fleetName, power: s.power, node: s.node, turn: s.turn, ships: s.ships })),
    ...extra,
  };
}

/** The GM's map: every fleet afloat, in its power's colour. */
export function mapFromState(state: CampaignState, extra: Pick<MapInput, 'highlight' | 'route' | 'title' | 'turn' | 'plotted'> = {}): MapInput {
  return {
    nodes: state.nodes, edges: state.edges,
    ports: state.ports.map((p) => ({ node: p.node, owner: p.owner })),
    powers: state.powers.map((p) => ({ key: p.key, name: p.name, color: p.color })),
    shipClasses: state.shipClasses.map((c) => ({ key: c.key, type: c.type })),
    fleets: state.fleets.filter((f) => f.ships.some((s) => s.status === 'afloat')),
    ...extra,
  };
}
