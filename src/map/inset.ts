/**
 * The detail inset (docs/web-pages.md, "The map"): the Lesser Antilles, from the Virgin
 * Islands to Trinidad, drawn again at a larger scale in a band under the legend, with its
 * own coasts, lanes, marks and names, placed by the same rules as the whole map
 * (src/map/labels.ts). It is the same on every map of a campaign: it shows where the
 * campaign's ports crowd together, not where a reader's fleets are (those are on the whole
 * map, named, with leader lines), so a player comparing two turns finds the islands where
 * they were.
 *
 * Only a map drawn on the real world has an inset, and only when the scenario has at least
 * three nodes in the inset's area. On the orders page a click on an inset mark plots that
 * place, as on the whole map, and the plotted route is drawn on both (public/orders.js).
 */
import { coastPath } from './coast.js';
import { fitMercator, type Geo, type Placed } from './frame.js';
import { Labels, LINE_EM, shortName, textWidth, type Spot } from './labels.js';
import type { MapInput, MapNodeInput } from './svg.js';
import { escapeXml, GREY, n } from './xml.js';

/** West, south, east, north: the Virgin Islands to Trinidad, with the sea around them. */
export const INSET_BOUNDS: Geo['bounds'] = [-65.6, 10.0, -59.0, 18.9];
/** The inset's width in map units (its height follows the projection). */
const INSET_WIDTH = 400;
/** The band's heading above the inset. */
const HEAD = 22;
const MIN_NODES = 3;

export interface Inset {
  svg: string;
  /** Height of the band the inset takes under the legend. */
  height: number;
  /** How many times larger than the whole map. */
  scale: number;
}

interface Style { sea: string; land: string; coast: string; lane: string; ink: string; seaInk: string; portFont: number; seaFont: number; baseline: number }

function inArea(nd: MapNodeInput): boolean {
  const [w, s, e, nn] = INSET_BOUNDS;
  return typeof nd.lon === 'number' && typeof nd.lat === 'number' && nd.lon >= w && nd.lon <= e && nd.lat >= s && nd.lat <= nn;
}

export function drawInset(input: MapInput, main: ReadonlyMap<string, Placed<MapNodeInput>>, geo: Geo | null, top: number, width: number,
  fill: (id: string) => string, st: Style): Inset | null {
  if (!geo) return null;
  const inside = input.nodes.filter((nd) => nd.kind !== 'box' && inArea(nd));
  if (inside.length < MIN_NODES) return null;
  const fitted = fitMercator(INSET_BOUNDS, INSET_WIDTH);
  if (!fitted) return null;
  const h = fitted.height;
  const at = new Map<string, { x: number; y: number; node: MapNodeInput }>();
  for (const nd of input.nodes) {
    if (typeof nd.lon !== 'number' || typeof nd.lat !== 'number' || nd.kind === 'box') continue;
    const [x, y] = fitted.projection([nd.lon, nd.lat])!;
    at.set(nd.id, { x, y, node: nd });
  }
  // Scale against the whole map: the distance between two inset nodes, here and there.
  const [a, b] = [inside[0]!, inside[inside.length - 1]!];
  const mainD = Math.hypot(main.get(a.id)!.x - main.get(b.id)!.x, main.get(a.id)!.y - main.get(b.id)!.y);
  const insetD = Math.hypot(at.get(a.id)!.x - at.get(b.id)!.x, at.get(a.id)!.y - at.get(b.id)!.y);
  const scale = mainD > 0 ? insetD / mainD : 1;
  const ox = Math.round((width - INSET_WIDTH) / 2);
  const oy = top + HEAD;
  const out: string[] = [];
  out.push(`<g class="inset" transform="translate(${ox} ${n(oy)})">`);
  out.push(`<text class="inset-head" x="0" y="-7" font-size="12" font-weight="bold" fill="${st.ink}">${escapeXml(`The Lesser Antilles, ${scale.toFixed(1)} times larger`)}</text>`);
  out.push(`<clipPath id="inset-clip"><rect x="0" y="0" width="${INSET_WIDTH}" height="${n(h)}"/></clipPath>`);
  out.push(`<g clip-path="url(#inset-clip)"><rect x="0" y="0" width="${INSET_WIDTH}" height="${n(h)}" fill="${st.sea}"/>`);
  const land = coastPath({ bounds: INSET_BOUNDS, width: INSET_WIDTH, height: h });
  if (land) out.push(`<path class="land" d="${land}" fill="${st.land}" stroke="${st.coast}" stroke-width="0.6" stroke-linejoin="round"/>`);
  for (const e of input.edges) {
    const p = at.get(e.a);
    const q = at.get(e.b);
    if (!p || !q || (!inArea(p.node) && !inArea(q.node))) continue;
    out.push(`<line x1="${n(p.x)}" y1="${n(p.y)}" x2="${n(q.x)}" y2="${n(q.y)}" stroke="${st.lane}" stroke-width="1.2"/>`);
  }
  out.push('</g>');
  out.push(`<rect x="0" y="0" width="${INSET_WIDTH}" height="${n(h)}" fill="none" stroke="${st.ink}" stroke-width="1"/>`);

  // Names: the marks first, then ports, then sea areas, as on the whole map.
  const labels = new Labels(INSET_WIDTH, h);
  for (const nd of inside) {
    const p = at.get(nd.id)!;
    const r = nd.kind === 'sea' ? 3 : 7;
    labels.block({ x0: p.x - r, y0: p.y - r, x1: p.x + r, y1: p.y + r });
  }
  const ordered = [...inside.filter((nd) => nd.kind === 'port'), ...inside.filter((nd) => nd.kind === 'sea')];
  for (const nd of ordered) {
    const p = at.get(nd.id)!;
    const port = nd.kind === 'port';
    const size = port ? st.portFont : st.seaFont;
    const hh = size * LINE_EM;
    const short = shortName(nd.name);
    const texts = [nd.name, ...(short && !input.nodes.some((o) => o !== nd && (shortName(o.name) ?? o.name) === short) ? [short] : [])];
    const sizes = texts.map((t) => ({ w: textWidth(t, size), h: hh }));
    let found: { text: string; spot: Spot } | null = null;
    for (const [i, text] of texts.entries()) {
      const spot = port ? labels.place(p.x, p.y, sizes[i]!.w, hh, 8) : labels.placeName(p.x, p.y, sizes[i]!.w, hh);
      if (spot) { found = { text, spot }; break; }
    }
    if (!found) {
      const ringed = labels.placeOnRings(p.x, p.y, sizes, port ? 8 : 4, 120);
      if (ringed) found = { text: texts[ringed.index]!, spot: ringed.spot };
    }
    // data-inset-node: the orders page plots on the inset's marks as on the whole map's.
    const parts = [`<g class="inset-node" data-kind="${escapeXml(nd.kind)}" data-inset-node="${escapeXml(nd.id)}"><title>${escapeXml(nd.name)}</title>`];
    parts.push(port
      ? `<circle class="port" cx="${n(p.x)}" cy="${n(p.y)}" r="6" fill="${fill(nd.id) || GREY}" stroke="${st.ink}" stroke-width="1.2"/>`
      : `<circle class="sea" cx="${n(p.x)}" cy="${n(p.y)}" r="2.5" fill="${st.ink}" fill-opacity="0.55"/>`);
    if (found) {
      const { text, spot } = found;
      const ink = port ? st.ink : st.seaInk;
      if (spot.leader) parts.push(`<line class="leader" x1="${n(p.x)}" y1="${n(p.y)}" x2="${n(spot.leader.x)}" y2="${n(spot.leader.y)}" stroke="${ink}" stroke-width="0.9" stroke-opacity="0.8"/>`);
      const italic = port ? '' : ' font-style="italic"';
      parts.push(`<text class="label ${port ? 'place' : 'sea-name'}" x="${n(spot.x + 1)}" y="${n(spot.y + size * st.baseline)}" font-size="${size}" fill="${ink}" stroke="${st.sea}" stroke-width="2.5" paint-order="stroke"${italic}>${escapeXml(text)}</text>`);
    }
    parts.push('</g>');
    out.push(parts.join(''));
  }
  out.push('</g><!--/inset-->');
  return { svg: out.join('\n'), height: HEAD + h + 10, scale };
}
