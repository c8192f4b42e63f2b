/**
 * The VP ledger by turn as a line chart, one line per power in its colour, with the goal as
 * a dashed line (docs/web-pages.md, "After-action report"). SVG for the page; the mail shows
 * it as a PNG (svgToPng, src/map/png.ts). Pure: the numbers in, the drawing out.
 */
import { escapeXml, safeColor } from './xml.js';
import { MAP_FONT_ATTRS } from './base.js';

export interface VpChartInput {
  title: string;
  goal: number;
  /** Turn numbers along the x axis: 0 is the start, then each resolved turn. */
  turns: readonly number[];
  /** Each power's VP after each of `turns` (same length). */
  powers: readonly { name: string; color: string; vp: readonly number[] }[];
}

export const VP_CHART_WIDTH = 640;
const H = 340;
const PAD = { left: 44, right: 150, top: 34, bottom: 40 };

export function vpChartSvg(input: VpChartInput): string {
  const w = VP_CHART_WIDTH - PAD.left - PAD.right;
  const h = H - PAD.top - PAD.bottom;
  const all = input.powers.flatMap((p) => p.vp);
  const top = Math.max(input.goal, ...all, 1);
  const bottom = Math.min(0, ...all);
  const lastTurn = Math.max(1, input.turns.at(-1) ?? 1);
  const x = (t: number) => PAD.left + (w * t) / lastTurn;
  const y = (v: number) => PAD.top + h - (h * (v - bottom)) / (top - bottom || 1);
  const f = (v: number) => v.toFixed(1);
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${VP_CHART_WIDTH} ${H}" width="${VP_CHART_WIDTH}" height="${H}" role="img" aria-labelledby="vp-chart-title" class="vp-chart" ${MAP_FONT_ATTRS}>`);
  out.push(`<title id="vp-chart-title">${escapeXml(input.title)}</title>`);
  out.push(`<rect width="${VP_CHART_WIDTH}" height="${H}" fill="#ffffff"/>`);
  out.push(`<text x="${PAD.left}" y="20" font-size="14" fill="#1d2b36">${escapeXml(input.title)}</text>`);
  // Axes, a gridline at each fifth of the range, a tick at each turn.
  out.push(`<line x1="${PAD.left}" y1="${PAD.top + h}" x2="${PAD.left + w}" y2="${PAD.top + h}" stroke="#6b6250"/>`);
  out.push(`<line x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${PAD.top + h}" stroke="#6b6250"/>`);
  const step = Math.max(1, Math.ceil((top - bottom) / 5));
  for (let v = Math.ceil(bottom / step) * step; v <= top; v += step) {
    out.push(`<line x1="${PAD.left}" y1="${f(y(v))}" x2="${PAD.left + w}" y2="${f(y(v))}" stroke="#e6e0d0"/>`);
    out.push(`<text x="${PAD.left - 6}" y="${f(y(v) + 4)}" font-size="11" text-anchor="end" fill="#6b6250">${v}</text>`);
  }
  const every = Math.max(1, Math.ceil(input.turns.length / 12));
  input.turns.forEach((t, i) => {
    if (i % every !== 0 && i !== input.turns.length - 1) return;
    out.push(`<text x="${f(x(t))}" y="${PAD.top + h + 16}" font-size="11" text-anchor="middle" fill="#6b6250">${t}</text>`);
  });
  out.push(`<text x="${PAD.left + w / 2}" y="${H - 6}" font-size="11" text-anchor="middle" fill="#6b6250">turn (0: the start)</text>`);
  out.push(`<line class="vp-goal" x1="${PAD.left}" y1="${f(y(input.goal))}" x2="${PAD.left + w}" y2="${f(y(input.goal))}" stroke="#9b2c2c" stroke-dasharray="6 4"/>`);
  out.push(`<text x="${PAD.left + w - 2}" y="${f(y(input.goal) - 4)}" font-size="11" text-anchor="end" fill="#9b2c2c">goal ${input.goal}</text>`);
  input.powers.forEach((p, i) => {
    const color = safeColor(p.color);
    const pts = p.vp.map((v, j) => `${f(x(input.turns[j] ?? j))},${f(y(v))}`).join(' ');
    out.push(`<g class="vp-line" data-power="${escapeXml(p.name)}"><polyline points="${pts}" fill="none" stroke="${color}" stroke-width="2.5"/>`);
    for (const [j, v] of p.vp.entries()) out.push(`<circle cx="${f(x(input.turns[j] ?? j))}" cy="${f(y(v))}" r="3" fill="${color}"/>`);
    out.push('</g>');
    const ly = PAD.top + 8 + i * 20;
    out.push(`<line x1="${PAD.left + w + 14}" y1="${ly}" x2="${PAD.left + w + 34}" y2="${ly}" stroke="${color}" stroke-width="3"/>`);
    out.push(`<text x="${PAD.left + w + 40}" y="${ly + 4}" font-size="12" fill="#1d2b36">${escapeXml(p.name)} ${p.vp.at(-1) ?? 0}</text>`);
  });
  out.push('</svg>');
  return out.join('');
}
