/**
 * A map drawn in two layers (src/map/svg.ts): the base, the same for every reader of a
 * campaign at a given state (sea, land, lanes, ports, names, legend), and the overlay of
 * one reader's map (their fleets, the turn, routes, highlights). The overlay is a list of
 * parts: a string is structure only (a group's opening or closing tag, a title) and draws
 * nothing by itself; a drawn part carries the box its ink stays within, so the PNG for
 * mail can draw the overlay piece by piece over a cached base (src/map/png.ts).
 */
import type { Box } from './labels.js';

export type { Box } from './labels.js';

export type Part = string | { svg: string; box: Box };

export function pad(b: Box, by: number): Box {
  return { x0: b.x0 - by, y0: b.y0 - by, x1: b.x1 + by, y1: b.y1 + by };
}

/** The box around points, widened by `by` (half a stroke, a marker's radius). */
export function around(points: readonly { x: number; y: number }[], by: number): Box {
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  return pad({ x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) }, by);
}

export function partSvg(p: Part): string {
  return typeof p === 'string' ? p : p.svg;
}
