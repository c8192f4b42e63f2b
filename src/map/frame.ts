/**
 * Where each node is drawn. A scenario whose sea and port nodes all carry `lat`/`lon` is
 * drawn on a Mercator projection of the real world (so the coasts of Natural Earth fit
 * under it); any other scenario keeps the plain drawing from its `x`/`y`. Nodes with
 * neither (the off-map boxes) stand in a column at the right edge.
 */
import { geoMercator, type GeoProjection } from 'd3-geo';

export interface FrameNode {
  id: string;
  kind: 'sea' | 'port' | 'box';
  x?: number | null;
  y?: number | null;
  lat?: number | null;
  lon?: number | null;
}

export interface Placed<N extends FrameNode = FrameNode> {
  node: N;
  x: number;
  y: number;
  offMap: boolean;
}

/** The geographic part of a frame: what the coast is drawn with (and cached by). */
export interface Geo {
  /** West, south, east, north edges of the drawn area, in degrees. */
  bounds: [number, number, number, number];
  /** Width and height of the drawn area in px (it starts at 0, 0). */
  width: number;
  height: number;
}

export interface Frame<N extends FrameNode = FrameNode> {
  placed: Map<string, Placed<N>>;
  /** The whole picture's height, the legend band included. */
  height: number;
  /** Height of the map proper (where labels may go). */
  mapHeight: number;
  geo: Geo | null;
}

export const MARGIN = 28;
/** Width of the column at the right edge for nodes without a position (the off-map boxes). */
export const OFF_MAP_COLUMN = 150;
/** The legend band under the map. */
export const LEGEND_BAND = 40;
/** Degrees of sea and land shown around the outermost nodes of a geographic map. */
const GEO_PAD = 1.2;

const finite = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

function hasGeo(nd: FrameNode): boolean {
  return finite(nd.lat) && finite(nd.lon) && Math.abs(nd.lat) <= 85 && Math.abs(nd.lon) <= 180;
}

/** The Mercator projection that puts `bounds` into a box `width` px wide from (0, 0); null if degenerate. */
export function fitMercator(bounds: Geo['bounds'], width: number): { projection: GeoProjection; height: number } | null {
  const [w, s, e, n] = bounds;
  const p = geoMercator().scale(1).translate([0, 0]);
  const a = p([w, n]);
  const b = p([e, s]);
  if (!a || !b || !(b[0] > a[0]) || !(b[1] > a[1])) return null;
  const k = width / (b[0] - a[0]);
  p.scale(k).translate([-a[0] * k, -a[1] * k]);
  return { projection: p, height: (b[1] - a[1]) * k };
}

export function frame<N extends FrameNode>(nodes: readonly N[], width: number): Frame<N> {
  const sited = nodes.filter((nd) => nd.kind !== 'box' || hasGeo(nd));
  const geographic = sited.length >= 2 && sited.every(hasGeo);
  const onMap = geographic ? sited : nodes.filter((nd) => finite(nd.x) && finite(nd.y));
  const onMapIds = new Set(onMap.map((nd) => nd.id));
  const offMap = nodes.filter((nd) => !onMapIds.has(nd.id));
  const column = offMap.length > 0 ? OFF_MAP_COLUMN : 0;
  const inner = width - 2 * MARGIN - column;
  const placed = new Map<string, Placed<N>>();
  let mapHeight: number;
  let geo: Geo | null = null;

  const fitted = geographic ? fitMercator(geoBounds(onMap), width - column) : null;
  if (fitted) {
    const bounds = geoBounds(onMap);
    geo = { bounds, width: width - column, height: fitted.height };
    for (const nd of onMap) {
      const [x, y] = fitted.projection([nd.lon as number, nd.lat as number])!;
      placed.set(nd.id, { node: nd, x, y, offMap: false });
    }
    mapHeight = fitted.height;
  } else {
    const xs = onMap.map((nd) => nd.x as number);
    const ys = onMap.map((nd) => nd.y as number);
    const minX = xs.length ? Math.min(...xs) : 0;
    const minY = ys.length ? Math.min(...ys) : 0;
    const spanX = Math.max((xs.length ? Math.max(...xs) : 1) - minX, 1);
    const spanY = Math.max((ys.length ? Math.max(...ys) : 1) - minY, 1);
    const scale = inner / spanX;
    for (const nd of onMap) {
      placed.set(nd.id, { node: nd, x: MARGIN + ((nd.x as number) - minX) * scale, y: MARGIN + ((nd.y as number) - minY) * scale, offMap: false });
    }
    mapHeight = spanY * scale + 2 * MARGIN;
  }
  mapHeight = Math.max(mapHeight, offMap.length * 40 + 2 * MARGIN, 120);
  offMap.forEach((nd, i) => {
    placed.set(nd.id, { node: nd, x: width - column / 2, y: MARGIN + 20 + i * 40, offMap: true });
  });
  return { placed, height: mapHeight + LEGEND_BAND, mapHeight, geo };
}

/** The nodes' extent with a margin of sea around it, rounded out to a tenth of a degree (so the coast cache is shared). */
function geoBounds(nodes: readonly FrameNode[]): Geo['bounds'] {
  const lons = nodes.map((nd) => nd.lon as number);
  const lats = nodes.map((nd) => nd.lat as number);
  const down = (v: number) => Math.floor(v * 10) / 10;
  const up = (v: number) => Math.ceil(v * 10) / 10;
  return [
    down(Math.max(-180, Math.min(...lons) - GEO_PAD)), down(Math.max(-85, Math.min(...lats) - GEO_PAD)),
    up(Math.min(180, Math.max(...lons) + GEO_PAD)), up(Math.min(85, Math.max(...lats) + GEO_PAD)),
  ];
}
