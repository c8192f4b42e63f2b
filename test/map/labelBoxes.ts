/**
 * Label boxes read back from a map's SVG, with the same fixed per-character width the map
 * uses to place them (src/map/labels.ts): for tests that check that no two labels overlap.
 */
import { CHAR_EM, LINE_EM } from '../../src/map/labels.js';

export interface LabelBox { text: string; cls: string; x0: number; y0: number; x1: number; y1: number }

const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

/** The labels of the detail inset (src/map/inset.ts) are in its own frame: moved by its translate. */
function insetOffset(svg: string, at: number): { dx: number; dy: number } {
  const open = /<g class="inset" transform="translate\(([-\d.]+) ([-\d.]+)\)">/.exec(svg);
  if (!open || at < open.index) return { dx: 0, dy: 0 };
  const end = svg.indexOf('<!--/inset-->', open.index);
  if (end >= 0 && at > end) return { dx: 0, dy: 0 };
  return { dx: Number(open[1]), dy: Number(open[2]) };
}

export function labelBoxes(svg: string): LabelBox[] {
  const boxes: LabelBox[] = [];
  for (const m of svg.matchAll(/<text class="label ([^"]*)"([^>]*)>([^<]*)<\/text>/g)) {
    const attrs = m[2]!;
    const num = (name: string) => Number(new RegExp(` ${name}="([-\\d.]+)"`).exec(attrs)?.[1]);
    const { dx, dy } = insetOffset(svg, m.index);
    const x = num('x') + dx;
    const y = num('y') + dy;
    const size = num('font-size');
    const text = unescape(m[3]!);
    const w = [...text].length * size * CHAR_EM;
    const anchor = / text-anchor="(start|middle|end)"/.exec(attrs)?.[1] ?? 'start';
    const x0 = anchor === 'end' ? x - w : anchor === 'middle' ? x - w / 2 : x;
    // The baseline sits at 0.88 of the font size below the box's top.
    const y0 = y - size * 0.88;
    boxes.push({ text, cls: m[1]!, x0, y0, x1: x0 + w, y1: y0 + size * LINE_EM });
  }
  return boxes;
}

export function overlapping(boxes: readonly LabelBox[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i]!;
      const b = boxes[j]!;
      if (a.x0 < b.x1 && a.x1 > b.x0 && a.y0 < b.y1 && a.y1 > b.y0) pairs.push([a.text, b.text]);
    }
  }
  return pairs;
}
