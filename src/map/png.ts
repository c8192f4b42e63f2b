/**
 * The map as a PNG, for mail: Gmail and Outlook do not show SVG images, every client
 * shows a PNG. The same SVG as the pages (src/map/svg.ts), rasterized by resvg (native
 * code shipped in the @resvg/resvg-js package: no browser, no download).
 *
 * A report's map is drawn in two layers (src/map/parts.ts): the base (sea, land, lanes,
 * ports and names, legend) is the same for every reader of a campaign at a given state,
 * so it is drawn once and kept (a few, most recently used first); each report draws only
 * its overlay over it (src/map/pngOverlay.ts) and writes a palette PNG (src/map/pngEncode.ts).
 *
 * Fonts: the SVG asks for Georgia / DejaVu Serif / serif. resvg draws no text without
 * a font, so the serif family is set to DejaVu Serif (Debian's fonts-dejavu-core) when it
 * is installed, else to the first serif font the system has. Loading four font files is
 * much cheaper than scanning every system font for each map.
 */
import { existsSync } from 'node:fs';
import { renderAsync, type ResvgRenderOptions } from '@resvg/resvg-js';
import { choosePalette, encodePalettePng, nearest } from './pngEncode.js';
import { atlas, clusters } from './pngOverlay.js';
import { textAsOutlines } from './pngText.js';
import { renderMapLayers, type MapInput, type MapLayers } from './svg.js';

/** The PNG's width in pixels: the 900 px drawing scaled up a little, sharp on a laptop. */
export const MAP_PNG_WIDTH = 1100;
/** The width the map is laid out at (its labels' sizes are in these units). */
export const MAP_SVG_WIDTH = 900;
/** Palette entries for the base; the rest are for each overlay's own colours. */
const BASE_COLOURS = 200;
/** Bases kept in memory (about 5 MB each at 1100 px). */
const BASES_KEPT = 6;

const DEJAVU_DIR = '/usr/share/fonts/truetype/dejavu/';
const DEJAVU_SERIF = { regular: 'DejaVuSerif.ttf', bold: 'DejaVuSerif-Bold.ttf', italic: 'DejaVuSerif-Italic.ttf', boldItalic: 'DejaVuSerif-BoldItalic.ttf' };
type Face = keyof typeof DEJAVU_SERIF;

const fontOptions = new Map<string, NonNullable<ResvgRenderOptions['font']>>();

/**
 * The font options for a drawing; `svg` given, only the faces it uses are loaded (resvg
 * reads the font files again for every drawing).
 */
function fonts(svg?: string): NonNullable<ResvgRenderOptions['font']> {
  const faces: Face[] = svg === undefined
    ? ['regular', 'bold', 'italic', 'boldItalic']
    : ['regular', ...(svg.includes('font-weight="bold"') ? ['bold' as const] : []), ...(svg.includes('font-style="italic"') ? ['italic' as const] : [])];
  const key = faces.join();
  let opts = fontOptions.get(key);
  if (!opts) {
    const files = faces.map((f) => DEJAVU_DIR + DEJAVU_SERIF[f]).filter((f) => existsSync(f));
    opts = files.length > 0
      ? { loadSystemFonts: false, fontFiles: files, defaultFontFamily: 'DejaVu Serif', serifFamily: 'DejaVu Serif' }
      // No DejaVu: let resvg find the system's fonts (slower, but the labels still show).
      : { loadSystemFonts: true, serifFamily: 'DejaVu Serif' };
    fontOptions.set(key, opts);
  }
  return opts;
}

export interface MapPng {
  png: Buffer;
  width: number;
  height: number;
}

/**
 * SVG text → PNG bytes, scaled to `width` px (height keeps the map's shape), drawn whole.
 * Runs on libuv's thread pool, so several maps render side by side.
 */
export async function svgToPng(svg: string, width = MAP_PNG_WIDTH): Promise<MapPng> {
  const image = await renderAsync(svg, {
    fitTo: { mode: 'width', value: width },
    font: fonts(),
    background: '#ffffff',
    logLevel: 'off',
  });
  return { png: image.asPng(), width: image.width, height: image.height };
}

interface Base {
  width: number;
  height: number;
  /** The PNG rows of the base alone: a filter byte (0) then an index a pixel. */
  rows: Buffer;
  /** The same without the sea names (for the names a reader's fleets cover). */
  bare: Buffer;
  palette: number[];
  /** Every colour of the base → its palette index. */
  indexOf: Map<number, number>;
}

const bases = new Map<string, Promise<Base>>();

async function drawBase(layers: MapLayers, width: number): Promise<Base> {
  const opts: ResvgRenderOptions = { fitTo: { mode: 'width', value: width }, font: fonts(), background: '#ffffff', logLevel: 'off' };
  const images = await Promise.all([layers.base, layers.bare].map((layer) => renderAsync(`${layers.open}\n${layer}\n</svg>`, opts)));
  const w = images[0]!.width;
  const h = images[0]!.height;
  const rgbs = images.map((image) => {
    const px = image.pixels;
    const rgb = new Uint32Array(w * h);
    for (let i = 0; i < w * h; i++) rgb[i] = (px[i * 4]! << 16) | (px[i * 4 + 1]! << 8) | px[i * 4 + 2]!;
    return rgb;
  });
  // One palette for both, from the colours counted (a run of one colour counted at once).
  const counts = new Map<number, number>();
  for (const rgb of rgbs) {
    let prev = rgb[0]!;
    let run = 0;
    for (const c of rgb) {
      if (c === prev) { run++; continue; }
      counts.set(prev, (counts.get(prev) ?? 0) + run);
      prev = c;
      run = 1;
    }
    counts.set(prev, (counts.get(prev) ?? 0) + run);
  }
  const { palette, indexOf } = choosePalette(counts, BASE_COLOURS);
  const [rows, bare] = rgbs.map((rgb) => {
    const out = Buffer.alloc(h * (w + 1));
    for (let y = 0; y < h; y++) {
      for (let x = 0, o = y * (w + 1) + 1, i = y * w; x < w; x++) out[o + x] = indexOf.get(rgb[i + x]!)!;
    }
    return out;
  });
  return { width: w, height: h, rows: rows!, bare: bare!, palette, indexOf };
}

/** The base for these layers at this width: drawn once, then shared (even while being drawn). */
function baseFor(layers: MapLayers, width: number): Promise<Base> {
  const key = `${width}|${layers.width}x${layers.height}|${layers.base}`;
  let hit = bases.get(key);
  if (hit) {
    bases.delete(key);
  } else {
    hit = drawBase(layers, width);
    hit.catch(() => bases.delete(key));
  }
  bases.set(key, hit);
  while (bases.size > BASES_KEPT) bases.delete(bases.keys().next().value!);
  return hit;
}

/** The map's pixels as PNG rows and a palette: the base with this reader's overlay laid over it. */
export async function rasterizeLayers(layers: MapLayers, width = MAP_PNG_WIDTH): Promise<{ width: number; height: number; rows: Buffer; palette: number[] }> {
  const base = await baseFor(layers, width);
  const scale = base.width / layers.width;
  const list = clusters(layers.overlay, scale, base.width, base.height);
  const rows = Buffer.from(base.rows);
  // The sea names this map leaves off: their spots as the base has them without names.
  const stride = base.width + 1;
  for (const b of layers.hidden) {
    const x0 = Math.max(0, Math.floor(b.x0 * scale));
    const x1 = Math.min(base.width, Math.ceil(b.x1 * scale));
    for (let y = Math.max(0, Math.floor(b.y0 * scale)); y < Math.min(base.height, Math.ceil(b.y1 * scale)); y++) {
      base.bare.copy(rows, y * stride + 1 + x0, y * stride + 1 + x0, y * stride + 1 + x1);
    }
  }
  if (list.length === 0) return { width: base.width, height: base.height, rows, palette: base.palette };
  const sheet = atlas(list, scale);
  const svg = textAsOutlines(sheet.svg, fonts());
  const image = await renderAsync(svg, { font: svg.includes('<text') ? fonts(svg) : { loadSystemFonts: false }, logLevel: 'off' });
  const px = image.pixels;

  // Each overlay pixel over the base (resvg's pixels are premultiplied by their alpha).
  // A colour the base has takes the base's index at once; the others are chosen for after.
  const size = list.reduce((sum, c) => sum + (c.x1 - c.x0) * (c.y1 - c.y0), 0);
  const at = new Int32Array(size);
  const colours = new Int32Array(size);
  let count = 0;
  const fresh = new Map<number, number>();
  for (const c of list) {
    for (let y = 0; y < c.y1 - c.y0; y++) {
      let i = ((c.ay + y) * sheet.width + c.ax) * 4;
      let pos = (c.y0 + y) * stride + 1 + c.x0;
      for (let x = c.x0; x < c.x1; x++, i += 4, pos++) {
        const a = px[i + 3]!;
        if (a === 0) continue;
        let colour: number;
        if (a === 255) {
          colour = (px[i]! << 16) | (px[i + 1]! << 8) | px[i + 2]!;
        } else {
          const under = base.palette[rows[pos]!]!;
          const k = 255 - a;
          const r = px[i]! + ((((under >> 16) & 255) * k + 127) / 255 | 0);
          const g = px[i + 1]! + ((((under >> 8) & 255) * k + 127) / 255 | 0);
          const b = px[i + 2]! + (((under & 255) * k + 127) / 255 | 0);
          colour = (Math.min(r, 255) << 16) | (Math.min(g, 255) << 8) | Math.min(b, 255);
        }
        const known = base.indexOf.get(colour);
        if (known !== undefined) {
          rows[pos] = known;
        } else {
          at[count] = pos;
          colours[count++] = colour;
          fresh.set(colour, (fresh.get(colour) ?? 0) + 1);
        }
      }
    }
  }
  // The overlay's commonest new colours (a power's colour, a track's) get palette entries
  // of their own; the rest are drawn with their nearest.
  const palette = [...base.palette];
  const indexOf = new Map<number, number>();
  for (const [c] of [...fresh.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])) {
    if (palette.length < 256) { indexOf.set(c, palette.length); palette.push(c); } else indexOf.set(c, nearest(palette, c));
  }
  for (let j = 0; j < count; j++) rows[at[j]!] = indexOf.get(colours[j]!)!;
  return { width: base.width, height: base.height, rows, palette };
}

/** A map's PNG for mail, from the map's input (a player's view, or the GM's state). */
export async function mapToPng(input: MapInput, width = MAP_PNG_WIDTH): Promise<MapPng> {
  return layersToPng(renderMapLayers(input, { width: MAP_SVG_WIDTH }), width);
}

export async function layersToPng(layers: MapLayers, width = MAP_PNG_WIDTH): Promise<MapPng> {
  const r = await rasterizeLayers(layers, width);
  return { png: await encodePalettePng(r.width, r.height, r.palette, r.rows), width: r.width, height: r.height };
}
