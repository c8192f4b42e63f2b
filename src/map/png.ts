/**
 * The map as a PNG, for mail: Gmail and Outlook do not show SVG images, every client
 * shows a PNG. The same SVG as the pages (src/map/svg.ts), rasterized by resvg (native
 * code shipped in the @resvg/resvg-js package: no browser, no download).
 *
 * Fonts: the SVG asks for Georgia / Times New Roman / serif. resvg draws no text without
 * a font, so the serif family is set to DejaVu Serif (Debian's fonts-dejavu-core) when it
 * is installed, else to the first serif font the system has. Loading four font files is
 * much cheaper than scanning every system font for each map.
 */
import { existsSync } from 'node:fs';
import { renderAsync, type ResvgRenderOptions } from '@resvg/resvg-js';

/** The PNG's width in pixels: sharp on a laptop, small enough for mail (~100–150 KB). */
export const MAP_PNG_WIDTH = 1100;

const DEJAVU_DIR = '/usr/share/fonts/truetype/dejavu/';
const DEJAVU_SERIF = ['DejaVuSerif.ttf', 'DejaVuSerif-Bold.ttf', 'DejaVuSerif-Italic.ttf', 'DejaVuSerif-BoldItalic.ttf'].map((f) => DEJAVU_DIR + f);

let fontOptions: ResvgRenderOptions['font'] | null = null;

function fonts(): NonNullable<ResvgRenderOptions['font']> {
  if (!fontOptions) {
    const files = DEJAVU_SERIF.filter((f) => existsSync(f));
    fontOptions = files.length > 0
      ? { loadSystemFonts: false, fontFiles: files, defaultFontFamily: 'DejaVu Serif', serifFamily: 'DejaVu Serif' }
      // No DejaVu: let resvg find the system's fonts (slower, but the labels still show).
      : { loadSystemFonts: true, serifFamily: 'DejaVu Serif' };
  }
  return fontOptions;
}

export interface MapPng {
  png: Buffer;
  width: number;
  height: number;
}

/**
 * SVG text → PNG bytes, scaled to `width` px (height keeps the map's shape). Runs on
 * libuv's thread pool, so several maps (one per power) render side by side.
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
