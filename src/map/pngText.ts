/**
 * Labels as outlines, for the overlay's drawing (src/map/png.ts). resvg turns every <text>
 * into paths before drawing it, and that step (shaping the text with its font) costs a
 * few milliseconds a label: more than the rest of a report's overlay. The same labels
 * (fleet names) come back on every map of a campaign, so each label's outline is made
 * once, at the origin, with resvg's own conversion (Resvg#toString writes the SVG with
 * its text as paths), kept, and put where the label stands with a translation. The
 * pixels are the ones resvg would draw for the <text> itself.
 */
import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
import { MAP_FONT_ATTRS } from './base.js';

/** Outlines kept (a label's is a few kB). */
const KEPT = 400;
const outlines = new Map<string, string>();

const TEXT = /<text ([^>]*)>([^<]*)<\/text>/g;
const COORD = / (x|y)="(-?[\d.]+)"/g;

function outline(attrs: string, content: string, font: NonNullable<ResvgRenderOptions['font']>): string {
  const key = `${attrs}>${content}`;
  const hit = outlines.get(key);
  if (hit !== undefined) return hit;
  const svg = new Resvg(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" ${MAP_FONT_ATTRS}><text x="0" y="0" ${attrs}>${content}</text></svg>`, { font, logLevel: 'off' }).toString();
  // The converted drawing: what stands between the root's opening and closing tags, less the empty <defs/>.
  const inner = svg.slice(svg.indexOf('>') + 1, svg.lastIndexOf('</svg>')).replace(/<defs\s*\/>/, '').trim();
  if (outlines.size >= KEPT) outlines.delete(outlines.keys().next().value!);
  outlines.set(key, inner);
  return inner;
}

/**
 * `svg` with each <text> that sets its own font size replaced by its outline (others, which
 * take their size from a group, are left as they are). `font` is what resvg would draw with.
 */
export function textAsOutlines(svg: string, font: NonNullable<ResvgRenderOptions['font']>): string {
  return svg.replace(TEXT, (whole, attrs: string, content: string) => {
    if (!/ ?font-size="/.test(attrs)) return whole;
    let x = 0;
    let y = 0;
    const rest = ` ${attrs}`.replace(COORD, (_m, axis: string, v: string) => {
      if (axis === 'x') x = Number(v); else y = Number(v);
      return '';
    }).trim();
    return `<g transform="translate(${x} ${y})">${outline(rest, content, font)}</g>`;
  });
}
