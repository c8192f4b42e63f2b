/**
 * The table diagram of the setup sheet: a square table seen from above, north up, the wind
 * arrow and its force beside it, each side's deployment zone (windward: the weather gauge),
 * the starting range between them, and for a harbor attack the shore and the fort. To scale:
 * the table is 3,600 yards (36 WS&IM hexes) a side.
 *
 * One list of shapes, drawn twice: as SVG (templates/export/setup.hbs, every value escaped) and as vector drawing in
 * the PDF (setupPdf.ts), so the two never disagree.
 */
import { n, safeColor } from '../map/xml.js';
import { tableDistance, windBearing } from '../rules/battleSetup.js';
import type { SetupSheet } from './setup.js';

export type Point = [number, number];
export type Shape =
  | { kind: 'poly'; points: Point[]; fill: string; stroke: string; opacity?: number; dash?: boolean }
  | { kind: 'line'; from: Point; to: Point; stroke: string; width: number; arrow?: boolean; dash?: boolean }
  | { kind: 'text'; at: Point; text: string; size: number; anchor: 'start' | 'middle' | 'end'; bold?: boolean; color?: string };

/** Yards from the table's centre to its edge. */
const HALF = 1800;
/** Pixels (SVG) or points (PDF) for the table's side. */
export const TABLE_PX = 420;
const MARGIN_PX = 150;
export const DIAGRAM_WIDTH = TABLE_PX + MARGIN_PX;
export const DIAGRAM_HEIGHT = TABLE_PX + 40;
const ZONE_DEPTH = 400;
const ZONE_HALF_WIDTH = 700;
const SEA = '#dbe9f3';
const INK = '#222222';

const scale = TABLE_PX / (2 * HALF);

/** A point `along` yards toward the wind and `across` yards to its right, in table pixels. */
function at(bearing: number, along: number, across: number): Point {
  const r = (bearing * Math.PI) / 180;
  const ux = Math.sin(r);
  const uy = -Math.cos(r);
  // Right of the direction the wind comes from: (−uy, ux).
  const x = along * ux + across * -uy;
  const y = along * uy + across * ux;
  return [TABLE_PX / 2 + x * scale, TABLE_PX / 2 + y * scale];
}

function band(bearing: number, from: number, to: number, half: number): Point[] {
  return [at(bearing, from, -half), at(bearing, to, -half), at(bearing, to, half), at(bearing, from, half)];
}

/** The shapes of the diagram, in drawing order. */
export function diagramShapes(sheet: SetupSheet): Shape[] {
  const bearing = windBearing(sheet.wind.from);
  const half = sheet.range.yards / 2;
  const shapes: Shape[] = [
    { kind: 'poly', points: [[0, 0], [TABLE_PX, 0], [TABLE_PX, TABLE_PX], [0, TABLE_PX]], fill: SEA, stroke: INK },
  ];
  if (sheet.harbor) {
    shapes.push({ kind: 'poly', points: clipToTable(band(bearing, -half - ZONE_DEPTH, -HALF * 1.5, HALF * 1.5)), fill: '#e8dcb5', stroke: '#8a7a4a' });
    shapes.push({ kind: 'text', at: at(bearing, -half - ZONE_DEPTH - 200, -ZONE_HALF_WIDTH + 100), text: 'Shore', size: 11, anchor: 'middle', color: '#6b5a2a' });
  }
  for (const zone of sheet.zones) {
    const sign = zone.edge === 'windward' ? 1 : -1;
    const pts = clipToTable(band(bearing, sign * half, sign * (half + ZONE_DEPTH), ZONE_HALF_WIDTH));
    shapes.push({ kind: 'poly', points: pts, fill: safeColor(zone.color), stroke: INK, opacity: 0.35 });
    const c = at(bearing, sign * (half + ZONE_DEPTH / 2), 0);
    shapes.push({ kind: 'text', at: [c[0], c[1] - 2], text: zone.powerName, size: 12, anchor: 'middle', bold: true });
    shapes.push({ kind: 'text', at: [c[0], c[1] + 12], text: zone.edge === 'windward' ? `${zone.role}, weather gauge` : zone.role, size: 10, anchor: 'middle' });
  }
  if (sheet.harbor) {
    const f = at(bearing, -half - ZONE_DEPTH - 150, ZONE_HALF_WIDTH - 150);
    shapes.push({ kind: 'poly', points: [[f[0] - 9, f[1] - 9], [f[0] + 9, f[1] - 9], [f[0] + 9, f[1] + 9], [f[0] - 9, f[1] + 9]], fill: '#555555', stroke: INK });
    shapes.push({ kind: 'text', at: [f[0], f[1] + 22], text: 'Fort', size: 11, anchor: 'middle', bold: true });
  }
  // The starting range, zone edge to zone edge, across the centre.
  const a = at(bearing, -half, 0);
  const b = at(bearing, half, 0);
  shapes.push({ kind: 'line', from: a, to: b, stroke: INK, width: 1, dash: true });
  const mid = at(bearing, 0, 0);
  // Its label beside the line, clear of the zones' names at either end: right of a line that runs
  // up and down the page, centred above one that runs across it (where a label that started at the
  // centre would reach the leeward zone's name on a short range),
  const rangeText = `${sheet.range.yards.toLocaleString('en-GB')} yd, ${sheet.range.hexes} hexes`;
  const upright = Math.abs(b[1] - a[1]) > Math.abs(b[0] - a[0]);
  shapes.push(upright
    ? { kind: 'text', at: [mid[0] + 6, mid[1] - 4], text: rangeText, size: 11, anchor: 'start', bold: true }
    // a row above the zones' names (which sit on the line), so a long name beside a short range stays clear.
    : { kind: 'text', at: [mid[0], mid[1] - 24], text: rangeText, size: 11, anchor: 'middle', bold: true });

  // The margin: north, the wind, the scale.
  const x0 = TABLE_PX + 30;
  shapes.push({ kind: 'line', from: [x0 + 40, 70], to: [x0 + 40, 20], stroke: INK, width: 2, arrow: true });
  shapes.push({ kind: 'text', at: [x0 + 40, 14], text: 'N', size: 14, anchor: 'middle', bold: true });
  const cx = x0 + 40;
  const cy = 170;
  const r = (bearing * Math.PI) / 180;
  const tail: Point = [cx + Math.sin(r) * 45, cy - Math.cos(r) * 45];
  const head: Point = [cx - Math.sin(r) * 45, cy + Math.cos(r) * 45];
  shapes.push({ kind: 'line', from: tail, to: head, stroke: '#1f4e79', width: 3, arrow: true });
  shapes.push({ kind: 'text', at: [cx, cy + 72], text: `Wind from ${sheet.wind.from}`, size: 11, anchor: 'middle', bold: true });
  shapes.push({ kind: 'text', at: [cx, cy + 86], text: `force ${sheet.pkg.weather.wind.force}`, size: 11, anchor: 'middle' });
  const bar = tableDistance(1000);
  const len = bar.yards * scale;
  shapes.push({ kind: 'line', from: [x0, TABLE_PX - 10], to: [x0 + len, TABLE_PX - 10], stroke: INK, width: 2 });
  shapes.push({ kind: 'text', at: [x0, TABLE_PX - 16], text: `${bar.yards.toLocaleString('en-GB')} yd = ${bar.hexes} hexes`, size: 10, anchor: 'start' });
  shapes.push({ kind: 'text', at: [0, TABLE_PX + 18], text: `Table ${2 * HALF / 100} x ${2 * HALF / 100} hexes (${(2 * HALF).toLocaleString('en-GB')} yd a side), north up.`, size: 10, anchor: 'start' });
  return shapes;
}

/** The part of a convex polygon on the table (Sutherland-Hodgman against the table's four edges). */
export function clipToTable(points: readonly Point[]): Point[] {
  const edges: ((p: Point) => number)[] = [(p) => p[0], (p) => TABLE_PX - p[0], (p) => p[1], (p) => TABLE_PX - p[1]];
  let poly = [...points];
  for (const inside of edges) {
    const out: Point[] = [];
    poly.forEach((cur, i) => {
      const prev = poly[(i + poly.length - 1) % poly.length]!;
      const a = inside(prev);
      const b = inside(cur);
      if ((a >= 0) !== (b >= 0)) {
        const t = a / (a - b);
        out.push([prev[0] + (cur[0] - prev[0]) * t, prev[1] + (cur[1] - prev[1]) * t]);
      }
      if (b >= 0) out.push(cur);
    });
    poly = out;
  }
  return poly;
}

function arrowHead(from: Point, to: Point, size: number): Point[] {
  const ang = Math.atan2(to[1] - from[1], to[0] - from[0]);
  const l: Point = [to[0] - size * Math.cos(ang - 0.45), to[1] - size * Math.sin(ang - 0.45)];
  const r: Point = [to[0] - size * Math.cos(ang + 0.45), to[1] - size * Math.sin(ang + 0.45)];
  return [to, l, r];
}

export { arrowHead };

const pts = (ps: readonly Point[]) => ps.map((p) => `${n(p[0])},${n(p[1])}`).join(' ');

/** One SVG element, its attributes as plain values: the template writes them, escaped. */
export interface SvgElement {
  polygon: { points: string; fill: string; stroke: string; opacity: string } | null;
  line: { x1: string; y1: string; x2: string; y2: string; stroke: string; width: string; dash: string } | null;
  text: { x: string; y: string; size: string; anchor: string; weight: string; fill: string; text: string } | null;
}

/** The diagram as SVG elements for templates/export/setup.hbs (server-side; the template escapes every value). */
export function diagramSvg(sheet: SetupSheet): { width: number; height: number; viewBox: string; title: string; elements: SvgElement[] } {
  const els: SvgElement[] = [];
  const none = { polygon: null, line: null, text: null };
  for (const s of diagramShapes(sheet)) {
    if (s.kind === 'poly') {
      els.push({ ...none, polygon: { points: pts(s.points), fill: safeColor(s.fill), stroke: safeColor(s.stroke), opacity: String(s.opacity ?? 1) } });
    } else if (s.kind === 'line') {
      els.push({ ...none, line: { x1: n(s.from[0]), y1: n(s.from[1]), x2: n(s.to[0]), y2: n(s.to[1]), stroke: safeColor(s.stroke), width: String(s.width), dash: s.dash ? '6 4' : 'none' } });
      if (s.arrow) els.push({ ...none, polygon: { points: pts(arrowHead(s.from, s.to, 10 + s.width * 2)), fill: safeColor(s.stroke), stroke: safeColor(s.stroke), opacity: '1' } });
    } else {
      els.push({ ...none, text: { x: n(s.at[0]), y: n(s.at[1]), size: String(s.size), anchor: s.anchor, weight: s.bold ? 'bold' : 'normal', fill: safeColor(s.color ?? INK), text: s.text } });
    }
  }
  return {
    width: DIAGRAM_WIDTH + 4, height: DIAGRAM_HEIGHT + 4, viewBox: `-2 -2 ${DIAGRAM_WIDTH + 4} ${DIAGRAM_HEIGHT + 4}`,
    title: `Table for battle ${sheet.pkg.battleId}: north up, wind from ${sheet.wind.from}`, elements: els,
  };
}
