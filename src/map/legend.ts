/**
 * The legend band under the map: the powers' colours and the trade wind on the first
 * line; the fleet markers (kind and size) and, on a turn's map, the tracks on the second.
 */
import { markPath, type FleetShape } from './fleetMarks.js';
import { textWidth } from './labels.js';
import { escapeXml, n, safeColor } from './xml.js';

const INK = '#1d2b36';
const WIND = '#4f7394';
const FONT = 9;

export function drawLegend(
  powers: readonly { key: string; name?: string; color: string }[],
  at: { y: number; width: number; types: boolean; turn: boolean },
): string[] {
  const out: string[] = [`<g class="legend" font-size="${FONT}">`];
  const text = (x: number, y: number, t: string) => `<text x="${n(x)}" y="${n(y)}" fill="${INK}">${escapeXml(t)}</text>`;
  const y1 = at.y + 14;
  let x = 8;
  for (const pw of powers) {
    const label = pw.name ?? pw.key;
    out.push(`<circle cx="${n(x + 4)}" cy="${n(y1 - 3)}" r="4" fill="${safeColor(pw.color)}" stroke="${INK}" stroke-width="0.8"/>${text(x + 11, y1, label)}`);
    x += 18 + textWidth(label, FONT);
  }
  out.push(`<polygon points="${n(x + 9)},${n(y1 - 3)} ${n(x)},${n(y1 - 7)} ${n(x)},${n(y1 + 1)}" fill="${WIND}"/>${text(x + 13, y1, 'trade wind (2 mp against)')}`);

  const y2 = at.y + 31;
  x = 8;
  const mark = (shape: FleetShape, label: string) => {
    out.push(`<path d="${markPath(shape, x, y2 - 3)}" fill="#ffffff" stroke="${INK}" stroke-width="1"/>`);
    x += 18 + (shape.ships - 1) * 2;
    out.push(text(x, y2, label));
    x += textWidth(label, FONT) + 10;
  };
  if (at.types) {
    mark({ kind: 'line', ships: 1 }, 'with ships of the line');
    mark({ kind: 'frigates', ships: 1 }, 'frigates only');
  }
  mark({ kind: 'convoy', ships: 1 }, 'convoy');
  mark({ kind: 'frigates', ships: 4 }, 'bigger: more ships (1 to 8+)');
  if (at.turn) {
    out.push(`<line x1="${n(x)}" y1="${n(y2 - 3)}" x2="${n(x + 18)}" y2="${n(y2 - 3)}" stroke="${INK}" stroke-width="2"/>`);
    x += 22;
    out.push(text(x, y2, 'track, dot per phase'));
    x += textWidth('track, dot per phase', FONT) + 10;
    out.push(`<path d="M${n(x)} ${n(y2 - 7)}l8 8m0 -8l-8 8" stroke="#b00020" stroke-width="2" stroke-linecap="round"/>`);
    x += 12;
    out.push(text(x, y2, 'battle'));
    x += textWidth('battle', FONT) + 10;
    out.push(`<circle cx="${n(x + 5)}" cy="${n(y2 - 3)}" r="5" fill="none" stroke="${INK}" stroke-width="2"/>`);
    x += 14;
    out.push(text(x, y2, 'port taken'));
  }
  out.push('</g>');
  return out;
}
