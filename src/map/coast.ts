/**
 * The land under a geographic map: Natural Earth's 1:50m land polygons (the `world-atlas`
 * package, read from node_modules, nothing fetched), projected with the map's own Mercator
 * fit, clipped to the map and thinned to what shows at that size.
 *
 * 1:50m keeps every island of the Lesser Antilles (1:110m loses most of them; 1:10m is
 * six times the size and adds nothing visible at 900 px). The raw path for the Caribbean is
 * about 1 MB; thinned (points closer than 0.8 px to the last one kept are dropped, rings
 * that shrink to nothing are dropped) it is about 25 kB. It is computed once per map
 * extent and size, and kept in memory.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { geoPath } from 'd3-geo';
import { feature } from 'topojson-client';
import type { Topology } from 'topojson-specification';
import type { FeatureCollection, Feature } from 'geojson';
import { fitMercator, type Geo } from './frame.js';

/** Points closer than this (px) to the last point kept are dropped. */
const TOLERANCE = 0.8;

let land: Feature | FeatureCollection | null = null;
const cache = new Map<string, string>();

function naturalEarthLand(): Feature | FeatureCollection {
  if (!land) {
    const require = createRequire(import.meta.url);
    const topo = JSON.parse(readFileSync(require.resolve('world-atlas/land-50m.json'), 'utf8')) as Topology;
    land = feature(topo, topo.objects['land']!) as Feature | FeatureCollection;
  }
  return land;
}

/** Collects a path's rings as relative SVG commands, with the thinning described above. */
class ThinPath {
  private rings: string[] = [];
  private ring: string[] = [];
  /** The last point written, as written (tenths of a px), so relative steps never drift. */
  private lx = 0;
  private ly = 0;
  private points = 0;
  private minX = 0;
  private maxX = 0;
  private minY = 0;
  private maxY = 0;

  moveTo(x: number, y: number): void {
    this.flush();
    this.lx = Math.round(x * 10);
    this.ly = Math.round(y * 10);
    this.ring = [`M${this.lx / 10} ${this.ly / 10}`];
    this.points = 1;
    this.minX = this.maxX = x;
    this.minY = this.maxY = y;
  }

  lineTo(x: number, y: number): void {
    const tx = Math.round(x * 10);
    const ty = Math.round(y * 10);
    if (Math.hypot(tx - this.lx, ty - this.ly) < TOLERANCE * 10) return;
    this.ring.push(`l${(tx - this.lx) / 10} ${(ty - this.ly) / 10}`);
    this.lx = tx;
    this.ly = ty;
    this.points++;
    this.minX = Math.min(this.minX, x); this.maxX = Math.max(this.maxX, x);
    this.minY = Math.min(this.minY, y); this.maxY = Math.max(this.maxY, y);
  }

  closePath(): void {
    this.ring.push('z');
    this.flush();
  }

  arc(): void { /* polygons only */ }

  beginPath(): void { /* rings start with moveTo */ }

  private flush(): void {
    // A ring of fewer than three points, or smaller than a px both ways, would not show.
    if (this.points >= 3 && (this.maxX - this.minX >= 1 || this.maxY - this.minY >= 1)) this.rings.push(this.ring.join(''));
    this.ring = [];
    this.points = 0;
  }

  result(): string {
    this.flush();
    return this.rings.join('');
  }
}

/** The SVG path data of the land within `geo` (empty if the extent is degenerate). */
export function coastPath(geo: Geo): string {
  const key = `${geo.bounds.join(',')}|${geo.width.toFixed(1)}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const fitted = fitMercator(geo.bounds, geo.width);
  let d = '';
  if (fitted) {
    fitted.projection.clipExtent([[0, 0], [geo.width, fitted.height]]);
    const out = new ThinPath();
    geoPath(fitted.projection, out)(naturalEarthLand());
    d = out.result();
  }
  if (cache.size > 50) cache.clear();
  cache.set(key, d);
  return d;
}
