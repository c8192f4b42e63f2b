/**
 * One reader's overlay (src/map/parts.ts) drawn over the cached base for the PNG.
 *
 * Drawing the whole map for every report is what made 1,000 reports take minutes (most of
 * it resvg laying out ~80 labels and filling 900,000 pixels). The overlay is small: a few
 * fleets, tracks and rings. Its parts are grouped into clusters (parts whose boxes touch
 * go together, so their order on top of each other is kept), the clusters are packed side
 * by side into one small picture (the atlas), drawn by resvg in one go, and each cluster's
 * pixels are laid over the base where it belongs. A cluster is drawn with the same scale
 * and at whole-pixel offsets, so its pixels are the ones a whole drawing would have.
 */
import { MAP_FONT_ATTRS } from './svg.js';
import type { Box, Part } from './parts.js';

/** Pixels left empty between clusters in the atlas. */
const GAP = 8;

export interface Cluster {
  /** Where it goes in the picture, in whole pixels (x1, y1 excluded). */
  x0: number; y0: number; x1: number; y1: number;
  /** Its parts' SVG, in drawing order. */
  parts: string[];
  /** Where it is drawn in the atlas. */
  ax: number; ay: number;
}

const overlaps = (a: Box, b: Box) => a.x0 < b.x1 && a.x1 > b.x0 && a.y0 < b.y1 && a.y1 > b.y0;

/** The overlay's drawn parts grouped into clusters that do not overlap, in pixels at `scale`. */
export function clusters(overlay: readonly Part[], scale: number, width: number, height: number): Cluster[] {
  const list: { box: Box; parts: { order: number; svg: string }[] }[] = [];
  overlay.forEach((p, order) => {
    if (typeof p === 'string') return;
    const box = {
      x0: Math.max(0, Math.floor(p.box.x0 * scale)), y0: Math.max(0, Math.floor(p.box.y0 * scale)),
      x1: Math.min(width, Math.ceil(p.box.x1 * scale)), y1: Math.min(height, Math.ceil(p.box.y1 * scale)),
    };
    if (box.x1 <= box.x0 || box.y1 <= box.y0) return;
    list.push({ box, parts: [{ order, svg: p.svg }] });
  });
  // Merge until no two clusters overlap (a merged box may reach a third one).
  for (let merged = true; merged;) {
    merged = false;
    for (let i = 0; i < list.length && !merged; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const a = list[i]!;
        const b = list[j]!;
        if (!overlaps(a.box, b.box)) continue;
        a.box = { x0: Math.min(a.box.x0, b.box.x0), y0: Math.min(a.box.y0, b.box.y0), x1: Math.max(a.box.x1, b.box.x1), y1: Math.max(a.box.y1, b.box.y1) };
        a.parts.push(...b.parts);
        list.splice(j, 1);
        merged = true;
        break;
      }
    }
  }
  return list.map((c) => ({ ...c.box, parts: c.parts.sort((a, b) => a.order - b.order).map((p) => p.svg), ax: 0, ay: 0 }));
}

/**
 * Packs the clusters in shelves (tallest first) into a roughly square atlas and writes its
 * SVG; sets each cluster's ax, ay. resvg's time grows with the picture's area, however
 * little is drawn in it, so the atlas is kept small.
 */
export function atlas(list: Cluster[], scale: number): { svg: string; width: number; height: number } {
  const order = [...list].sort((a, b) => (b.y1 - b.y0) - (a.y1 - a.y0));
  const area = list.reduce((sum, c) => sum + (c.x1 - c.x0 + GAP) * (c.y1 - c.y0 + GAP), 0);
  const width = Math.max(Math.ceil(Math.sqrt(area) * 1.25), ...list.map((c) => c.x1 - c.x0 + 2 * GAP));
  let x = GAP;
  let y = GAP;
  let shelf = 0;
  for (const c of order) {
    const w = c.x1 - c.x0;
    const h = c.y1 - c.y0;
    if (x + w + GAP > width) { x = GAP; y += shelf + GAP; shelf = 0; }
    c.ax = x;
    c.ay = y;
    x += w + GAP;
    shelf = Math.max(shelf, h);
  }
  const height = y + shelf + GAP;
  const groups = list.map((c) => `<g transform="translate(${c.ax - c.x0} ${c.ay - c.y0}) scale(${scale})">\n${c.parts.join('\n')}\n</g>`);
  return {
    svg: `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ${MAP_FONT_ATTRS}>\n${groups.join('\n')}\n</svg>`,
    width, height,
  };
}
