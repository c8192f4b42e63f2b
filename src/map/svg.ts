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
import { baseLayer, MAP_FONT_ATTRS, SEA, type Placed } from './base.js';
import { drawFleets, placeFleets } from './fleetBlocks.js';
import { type Box, inkWidth, overlaps } from './labels.js';
import { around, pad, partSvg, type Part } from './parts.js';
import { drawPlotted, drawTurn, type MapPlottedInput, type MapTurnInput } from './turnLayer.js';
import { escapeXml, n, safeColor } from './xml.js';

export { escapeXml, safeColor } from './xml.js';
export { MAP_FONT_ATTRS, SEA } from './base.js';
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
  /** A line written on the map, top left (what the map does not show, and why). */
  note?: string;
  /**
   * Draw the Lesser Antilles inset under the legend (default true). The turn report mail
   * leaves it out: at 600 px it would double the map's height in a report meant to be read
   * at one go; the web report and the map page have it.
   */
  inset?: boolean;
}

export interface MapOptions {
  /** Width in px (the height follows the map's shape). Default 900. */
  width?: number;
  /** Give every node `class="node"` and `data-node="<id>"` for the web form's route plotting. */
  clickable?: boolean;
}

const HIGHLIGHT = '#e07b00';
/**
 * The note on the map of a turn before the latest: where the fleets stood after it is not
 * stored (only their tracks, whose last dots show where the fleets that sailed ended).
 */
export const FLEETS_NOT_SHOWN = 'Fleets are not shown: only the latest turn\'s map has them (a track ends where its fleet stopped).';
const ROUTE = '#b5451b';

/** The map in its two layers (src/map/parts.ts): the shared base and this reader's overlay. */
export interface MapLayers {
  width: number;
  height: number;
  /** The opening <svg> tag and the title. */
  open: string;
  /** Sea, land, lanes, nodes with their names, the legend, as this map shows them. */
  page: string;
  /** The same with every sea name: the same for every reader at this state (the PNG's cached base). */
  base: string;
  /** The same with no sea name (the PNG takes the spots of `hidden` names from it). */
  bare: string;
  /** Sea names this map leaves off (its fleets cover them), in map units. */
  hidden: Box[];
  /** Routes, plotted orders, the turn, highlights and fleets: drawn over the base. */
  overlay: Part[];
}

export function renderMapSvg(input: MapInput, opts: MapOptions = {}): string {
  const layers = renderMapLayers(input, opts);
  return [layers.open, layers.page, ...layers.overlay.map(partSvg), '</svg>'].join('\n');
}

export function renderMapLayers(input: MapInput, opts: MapOptions = {}): MapLayers {
  const width = Math.max(200, Math.round(opts.width ?? 900));
  const clickable = opts.clickable === true;
  const base = baseLayer(input, width, clickable);
  const { placed, height } = base;
  const colorOf = new Map(input.powers.map((p) => [p.key, safeColor(p.color)]));
  const powerName = new Map(input.powers.map((p) => [p.key, p.name ?? p.key]));
  const types = new Map((input.shipClasses ?? []).map((c) => [c.key, c.type]));
  const title = input.title ?? 'Campaign map';
  const open = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${n(height)}" width="${width}" height="${n(height)}" ${MAP_FONT_ATTRS} role="img" aria-label="${escapeXml(title)}">\n<title>${escapeXml(title)}</title>`;

  // Fleets come after the names of places (src/map/base.ts) and keep clear of them; a sea name
  // covered by a fleet placed by force (no free spot anywhere) is left off.
  const labels = base.labels.clone();
  const fleetBlocks = placeFleets(input, placed, labels, colorOf, powerName, types);
  const covered = fleetBlocks.map((b) => ({ x0: b.spot.x, y0: b.spot.y, x1: b.spot.x + b.w, y1: b.spot.y + b.rows.reduce((a, r) => a + r, 0) }));
  const hidden = new Set([...base.seaNames].filter(([, box]) => covered.some((c) => overlaps(c, box))).map(([id]) => id));

  // The overlay: what this reader's map adds. It stays off the clicks meant for the nodes.
  const overlay: Part[] = [];
  const route = (input.route ?? []).map((id) => placed.get(id)).filter((p): p is Placed => p !== undefined);
  if (route.length > 1) {
    overlay.push({
      svg: `<polyline class="route" points="${route.map((p) => `${n(p.x)},${n(p.y)}`).join(' ')}" fill="none" stroke="${ROUTE}" stroke-width="2.5" stroke-dasharray="6 3" stroke-linecap="round" pointer-events="none"/>`,
      box: around(route, 3),
    });
  }
  if (input.plotted?.length) overlay.push(...drawPlotted(input.plotted, placed, colorOf));
  if (input.turn) overlay.push(...drawTurn(input.turn, placed, colorOf, powerName));
  for (const id of input.highlight ?? []) {
    const p = placed.get(id);
    if (p) overlay.push({ svg: `<circle class="highlight" cx="${n(p.x)}" cy="${n(p.y)}" r="12" fill="none" stroke="${HIGHLIGHT}" stroke-width="2.5" pointer-events="none"/>`, box: around([p], 15) });
  }
  overlay.push(...drawFleets(fleetBlocks, clickable));
  if (input.note) {
    overlay.push({
      svg: `<text class="map-note" x="8" y="16" font-size="11" font-style="italic" fill="#1d2b36" stroke="${SEA}" stroke-width="3" paint-order="stroke">${escapeXml(input.note)}</text>`,
      box: { x0: 4, y0: 2, x1: 12 + inkWidth(input.note, 11), y1: 22 },
    });
  }
  return {
    width, height, open, overlay,
    page: hidden.size ? base.layer((id) => !hidden.has(id)) : base.base,
    base: base.base,
    bare: base.bare,
    // A name's ink stays within its box; a little more takes its halo too.
    hidden: [...hidden].map((id) => pad(base.seaNames.get(id)!, 1.5)),
  };
}

/** A player's map: their view only (own fleets, enemies seen now, older sightings). */
export function mapFromView(view: PowerView, extra: Pick<MapInput, 'highlight' | 'route' | 'title' | 'turn' | 'plotted' | 'note'> = {}): MapInput {
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
export function mapFromState(state: CampaignState, extra: Pick<MapInput, 'highlight' | 'route' | 'title' | 'turn' | 'plotted' | 'note'> = {}): MapInput {
  return {
    nodes: state.nodes, edges: state.edges,
    ports: state.ports.map((p) => ({ node: p.node, owner: p.owner })),
    powers: state.powers.map((p) => ({ key: p.key, name: p.name, color: p.color })),
    shipClasses: state.shipClasses.map((c) => ({ key: c.key, type: c.type })),
    fleets: state.fleets.filter((f) => f.ships.some((s) => s.status === 'afloat')),
    ...extra,
  };
}
