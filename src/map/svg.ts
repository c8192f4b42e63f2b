/**
 * The campaign map as SVG (docs/mail-out.md): for the turn report and welcome mails
 * (as an inline image) and for the web form (inline, clickable).
 *
 * What is drawn is exactly what the input holds: a player's map is made from their
 * PowerView (mapFromView), the GM's from the whole state (mapFromState); nothing here
 * looks anything up elsewhere. Every text is escaped for XML; colours are checked.
 */
import type { PowerView } from '../rules/view.js';
import type { CampaignState } from '../rules/state.js';

export interface MapNodeInput {
  id: string;
  name: string;
  kind: 'sea' | 'port' | 'box';
  x?: number | null;
  y?: number | null;
}

export interface MapFleetInput {
  id: string;
  name: string;
  power: string;
  at: string;
  inHarbor?: boolean;
}

export interface MapSightingInput {
  fleetId: string;
  fleetName: string;
  power: string;
  node: string;
  turn: number;
}

export interface MapInput {
  nodes: readonly MapNodeInput[];
  edges: readonly { a: string; b: string; wind?: 'a>b' | 'b>a' | null }[];
  /** Port owners (the port's circle takes the owner's colour). */
  ports: readonly { node: string; owner: string }[];
  powers: readonly { key: string; name?: string; color: string }[];
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
  /** The picture's title (read by screen readers and shown as a tooltip). */
  title?: string;
}

export interface MapOptions {
  /** Width in px (the height follows the map's shape). Default 900. */
  width?: number;
  /** Give every node `class="node"` and `data-node="<id>"` for the web form's route plotting. */
  clickable?: boolean;
}

const SEA = '#dce9f2';
const LANE = '#9fb7cc';
const WIND = '#4f7394';
const INK = '#1d2b36';
const GREY = '#8a8f94';
const HIGHLIGHT = '#e07b00';
const ROUTE = '#b5451b';
const MARGIN = 28;
/** Width of the column at the right edge for nodes without x, y (the off-map boxes). */
const OFF_MAP_COLUMN = 150;

/** Characters XML 1.0 forbids, even escaped. */
// eslint-disable-next-line no-control-regex
const XML_INVALID = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

export function escapeXml(text: unknown): string {
  return String(text ?? '').replace(XML_INVALID, '').replace(/[&<>"']/g, (c) => (
    { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' }[c]!
  ));
}

/** A colour safe to put in an attribute: #rgb..#rrggbbaa or a plain colour name; grey otherwise. */
export function safeColor(c: string | undefined): string {
  return c && (/^#[0-9a-fA-F]{3,8}$/.test(c) || /^[a-zA-Z]{3,20}$/.test(c)) ? c : GREY;
}

function n(v: number): string {
  return Number.isFinite(v) ? (Math.round(v * 10) / 10).toString() : '0';
}

interface Placed {
  node: MapNodeInput;
  x: number;
  y: number;
  offMap: boolean;
}

function place(nodes: readonly MapNodeInput[], width: number): { placed: Map<string, Placed>; height: number } {
  const onMap = nodes.filter((nd) => Number.isFinite(nd.x) && Number.isFinite(nd.y));
  const offMap = nodes.filter((nd) => !(Number.isFinite(nd.x) && Number.isFinite(nd.y)));
  const column = offMap.length > 0 ? OFF_MAP_COLUMN : 0;
  const xs = onMap.map((nd) => nd.x as number);
  const ys = onMap.map((nd) => nd.y as number);
  const minX = xs.length ? Math.min(...xs) : 0;
  const maxX = xs.length ? Math.max(...xs) : 1;
  const minY = ys.length ? Math.min(...ys) : 0;
  const maxY = ys.length ? Math.max(...ys) : 1;
  const spanX = Math.max(maxX - minX, 1);
  const spanY = Math.max(maxY - minY, 1);
  const scale = (width - 2 * MARGIN - column) / spanX;
  const mapHeight = spanY * scale;
  const height = Math.max(mapHeight + 2 * MARGIN, offMap.length * 40 + 2 * MARGIN, 120);
  const placed = new Map<string, Placed>();
  for (const nd of onMap) {
    placed.set(nd.id, { node: nd, x: MARGIN + ((nd.x as number) - minX) * scale, y: MARGIN + ((nd.y as number) - minY) * scale, offMap: false });
  }
  offMap.forEach((nd, i) => {
    placed.set(nd.id, { node: nd, x: width - column / 2, y: MARGIN + 20 + i * 40, offMap: true });
  });
  return { placed, height };
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

interface Box { x0: number; y0: number; x1: number; y1: number }

/**
 * Greedy label placement: the first candidate spot that stays on the picture and
 * overlaps nothing placed so far (else the first that stays on the picture).
 * Text widths are estimated (no font metrics here): good enough to keep names apart.
 */
class Labels {
  private taken: Box[] = [];
  constructor(private width: number, private height: number) {}

  block(b: Box): void { this.taken.push(b); }

  private free(b: Box): boolean {
    return !this.taken.some((t) => b.x0 < t.x1 && b.x1 > t.x0 && b.y0 < t.y1 && b.y1 > t.y0);
  }

  private inside(b: Box): boolean {
    return b.x0 >= 1 && b.x1 <= this.width - 1 && b.y0 >= 1 && b.y1 <= this.height - 16;
  }

  /** A box of w × h near (x, y), clear of `gap` around the point; returns its top-left corner. */
  place(x: number, y: number, w: number, h: number, gap: number): { x: number; y: number } {
    const spots: [number, number][] = [
      [x + gap, y - h / 2], [x - gap - w, y - h / 2],
      [x + gap, y - h - gap / 2], [x + gap, y + gap / 2], [x - gap - w, y - h - gap / 2], [x - gap - w, y + gap / 2],
      [x - w / 2, y - gap - h], [x - w / 2, y + gap],
      [x + gap, y - h - gap - 10], [x + gap, y + gap + 10], [x - gap - w, y - h - gap - 10], [x - gap - w, y + gap + 10],
    ];
    const boxes = spots.map(([bx, by]) => ({ x0: bx, y0: by, x1: bx + w, y1: by + h }));
    const pick = boxes.find((b) => this.inside(b) && this.free(b)) ?? boxes.find((b) => this.inside(b)) ?? boxes[0]!;
    this.taken.push(pick);
    return { x: pick.x0, y: pick.y0 };
  }
}

/** Rough width of a text in the map's serif font. */
function textWidth(text: string, size: number): number {
  return text.length * size * 0.55 + 2;
}

interface Marker {
  label: string;
  color: string;
  kind: 'own' | 'enemy' | 'sighting';
  title: string;
}

export function renderMapSvg(input: MapInput, opts: MapOptions = {}): string {
  const width = Math.max(200, Math.round(opts.width ?? 900));
  const { placed, height } = place(input.nodes, width);
  const colorOf = new Map(input.powers.map((p) => [p.key, safeColor(p.color)]));
  const powerName = new Map(input.powers.map((p) => [p.key, p.name ?? p.key]));
  const owner = new Map(input.ports.map((p) => [p.node, p.owner]));
  const out: string[] = [];
  const title = input.title ?? 'Campaign map';

  out.push(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${n(height)}" width="${width}" height="${n(height)}" font-family="Georgia, 'Times New Roman', serif" font-size="10" role="img" aria-label="${escapeXml(title)}">`);
  out.push(`<title>${escapeXml(title)}</title>`);
  out.push(`<rect x="0" y="0" width="${width}" height="${n(height)}" fill="${SEA}"/>`);

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

  // Labels: ports and boxes first (the map's names), fleets after, none over a port.
  const labels = new Labels(width, height);
  for (const p of placed.values()) {
    if (p.node.kind !== 'sea') labels.block({ x0: p.x - 7, y0: p.y - 7, x1: p.x + 7, y1: p.y + 7 });
  }
  const nameAt = new Map<string, { x: number; y: number }>();
  for (const p of placed.values()) {
    if (p.node.kind === 'sea') continue;
    const gap = p.node.kind === 'box' ? 13 : 8;
    nameAt.set(p.node.id, labels.place(p.x, p.y, textWidth(p.node.name, 10), 11, gap));
  }

  // Nodes: ports in their owner's colour with names, sea nodes as dots (name as a tooltip), boxes as boxes.
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
      const at = nameAt.get(nd.id)!;
      parts.push(`<text x="${n(at.x + 1)}" y="${n(at.y + 8.5)}" fill="${INK}" stroke="${SEA}" stroke-width="2.5" paint-order="stroke">${escapeXml(nd.name)}</text>`);
    } else if (nd.kind === 'box') {
      parts.push(`<rect class="box" x="${n(p.x - 10)}" y="${n(p.y - 10)}" width="20" height="20" fill="#f4efe1" stroke="${INK}" stroke-width="1.2"/>`);
      const at = nameAt.get(nd.id)!;
      parts.push(`<text x="${n(at.x + 1)}" y="${n(at.y + 8.5)}" fill="${INK}" stroke="${SEA}" stroke-width="2.5" paint-order="stroke">${escapeXml(nd.name)}</text>`);
    } else {
      parts.push(`<circle class="sea" cx="${n(p.x)}" cy="${n(p.y)}" r="2.5" fill="${INK}" fill-opacity="0.55"/>`);
    }
    out.push(`<g${attrs}>${parts.join('')}</g>`);
  }
  out.push('</g>');

  for (const id of input.highlight ?? []) {
    const p = placed.get(id);
    if (p) out.push(`<circle class="highlight" cx="${n(p.x)}" cy="${n(p.y)}" r="12" fill="none" stroke="${HIGHLIGHT}" stroke-width="2.5" pointer-events="none"/>`);
  }

  // Fleets: own, enemies seen now, then older sightings, stacked under their node.
  const markers = new Map<string, Marker[]>();
  const add = (node: string, m: Marker) => {
    if (!placed.has(node)) return;
    const list = markers.get(node) ?? [];
    list.push(m);
    markers.set(node, list);
  };
  for (const f of input.fleets ?? []) {
    add(f.at, { kind: 'own', color: colorOf.get(f.power) ?? GREY, label: f.name + (f.inHarbor ? ' (in harbor)' : ''), title: `${f.name} (${powerName.get(f.power) ?? f.power})` });
  }
  const seenNow = new Set((input.enemyFleets ?? []).map((f) => f.id));
  for (const f of input.enemyFleets ?? []) {
    add(f.at, { kind: 'enemy', color: colorOf.get(f.power) ?? GREY, label: `${f.name} (${powerName.get(f.power) ?? f.power})`, title: `${f.name} (${powerName.get(f.power) ?? f.power}), seen now` });
  }
  for (const s of input.sightings ?? []) {
    if (seenNow.has(s.fleetId)) continue;
    add(s.node, { kind: 'sighting', color: GREY, label: `${s.fleetName} (seen turn ${s.turn})`, title: `${s.fleetName} (${powerName.get(s.power) ?? s.power}), last seen here on turn ${s.turn}` });
  }
  out.push(`<g class="fleets"${clickable ? ' pointer-events="none"' : ''}>`);
  for (const [node, list] of markers) {
    const p = placed.get(node)!;
    const w = 12 + Math.max(...list.map((m) => textWidth(m.label, 9)));
    const block = labels.place(p.x, p.y, w, list.length * 12, 6);
    // A label block left of its node keeps the markers next to the node (its right end)
    // and the names running leftwards from them, so a long name never strands a marker.
    const leftOfNode = block.x + w <= p.x;
    list.forEach((m, i) => {
      const x = leftOfNode ? block.x + w - 9 : block.x;
      const y = block.y + 6 + i * 12;
      const stroke = m.kind === 'own' ? INK : m.kind === 'enemy' ? '#b00020' : GREY;
      const dash = m.kind === 'sighting' ? ' stroke-dasharray="2 1.5"' : '';
      const opacity = m.kind === 'sighting' ? ' opacity="0.75"' : '';
      const text = leftOfNode ? `x="${n(x - 3)}" text-anchor="end"` : `x="${n(x + 12)}"`;
      out.push(`<g class="fleet ${m.kind}"${opacity}><title>${escapeXml(m.title)}</title>`
        + `<path d="M${n(x)} ${n(y - 4)} l9 4 l-9 4 z" fill="${m.color}" stroke="${stroke}" stroke-width="1"${dash}/>`
        + `<text ${text} y="${n(y + 3.5)}" font-size="9" ${m.kind === 'own' ? 'font-weight="bold" ' : ''}fill="${m.kind === 'sighting' ? GREY : INK}" stroke="${SEA}" stroke-width="2.5" paint-order="stroke"${m.kind !== 'own' ? ' font-style="italic"' : ''}>${escapeXml(m.label)}</text></g>`);
    });
  }
  out.push('</g>');

  // Legend: the powers' colours and the wind arrow.
  const legendY = height - 10;
  out.push(`<g class="legend" font-size="9">`);
  let lx = 8;
  for (const pw of input.powers) {
    const label = escapeXml(pw.name ?? pw.key);
    out.push(`<circle cx="${n(lx + 4)}" cy="${n(legendY - 3)}" r="4" fill="${safeColor(pw.color)}" stroke="${INK}" stroke-width="0.8"/><text x="${n(lx + 11)}" y="${n(legendY)}" fill="${INK}">${label}</text>`);
    lx += 18 + (pw.name ?? pw.key).length * 5;
  }
  out.push(`<polygon points="${n(lx + 9)},${n(legendY - 3)} ${n(lx)},${n(legendY - 7)} ${n(lx)},${n(legendY + 1)}" fill="${WIND}"/><text x="${n(lx + 13)}" y="${n(legendY)}" fill="${INK}">trade wind (2 mp against)</text>`);
  out.push('</g>');
  out.push('</svg>');
  return out.join('\n');
}

/** A player's map: their view only (own fleets, enemies seen now, older sightings). */
export function mapFromView(view: PowerView, extra: Pick<MapInput, 'highlight' | 'route' | 'title'> = {}): MapInput {
  return {
    nodes: view.nodes, edges: view.edges,
    ports: view.ports.map((p) => ({ node: p.node, owner: p.owner })),
    powers: view.powers.map((p) => ({ key: p.key, name: p.name, color: p.color })),
    fleets: view.fleets, enemyFleets: view.enemyFleets,
    sightings: view.sightings.map((s) => ({ fleetId: s.fleetId, fleetName: s.fleetName, power: s.power, node: s.node, turn: s.turn })),
    ...extra,
  };
}

/** The GM's map: every fleet afloat, in its power's colour. */
export function mapFromState(state: CampaignState, extra: Pick<MapInput, 'highlight' | 'route' | 'title'> = {}): MapInput {
  return {
    nodes: state.nodes, edges: state.edges,
    ports: state.ports.map((p) => ({ node: p.node, owner: p.owner })),
    powers: state.powers.map((p) => ({ key: p.key, name: p.name, color: p.color })),
    fleets: state.fleets.filter((f) => f.ships.some((s) => s.status === 'afloat')),
    ...extra,
  };
}
