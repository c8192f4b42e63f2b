/**
 * The page templates (templates/pages/*.hbs) and the one Handlebars environment they run in.
 * Files starting with `_` are partials (`_layout.hbs` is the partial `layout`).
 * Every `{{value}}` is escaped; the only triple-stash is the server-drawn SVG map, which
 * escapes its own text (src/map/svg.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';

export const PAGE_TEMPLATE_DIR = fileURLToPath(new URL('../../../templates/pages/', import.meta.url));

type Template = (data: unknown) => string;

let env: { hb: typeof Handlebars; cache: Map<string, Template> } | null = null;

/** "2026-03-01 10:15 UTC" */
export function formatTime(v: unknown): string {
  if (v === null || v === undefined || v === '') return '';
  const d = v instanceof Date ? v : new Date(String(v));
  if (Number.isNaN(d.getTime())) return String(v);
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** "in 3 days", "2 hours ago" */
export function relativeTime(v: unknown, now = Date.now()): string {
  if (v === null || v === undefined || v === '') return '';
  const d = v instanceof Date ? v : new Date(String(v));
  const diff = d.getTime() - now;
  const abs = Math.abs(diff);
  const units: [number, string][] = [[86_400_000, 'day'], [3_600_000, 'hour'], [60_000, 'minute']];
  for (const [ms, name] of units) {
    if (abs >= ms) {
      const k = Math.floor(abs / ms);
      const text = `${k} ${name}${k === 1 ? '' : 's'}`;
      return diff >= 0 ? `in ${text}` : `${text} ago`;
    }
  }
  return diff >= 0 ? 'in less than a minute' : 'just now';
}

function environment() {
  if (env) return env;
  const hb = Handlebars.create();
  hb.registerHelper('eq', (a: unknown, b: unknown) => a === b);
  hb.registerHelper('time', (v: unknown) => formatTime(v));
  hb.registerHelper('ago', (v: unknown) => relativeTime(v));
  hb.registerHelper('plural', (count: unknown, one: unknown, many: unknown) => (Number(count) === 1 ? String(one) : String(many)));
  for (const file of readdirSync(PAGE_TEMPLATE_DIR)) {
    const m = /^_(.+)\.hbs$/.exec(file);
    if (m) hb.registerPartial(m[1]!, readFileSync(`${PAGE_TEMPLATE_DIR}${file}`, 'utf8'));
  }
  env = { hb, cache: new Map() };
  return env;
}

export function renderPage(name: string, data: object): string {
  const e = environment();
  let t = e.cache.get(name);
  if (!t) {
    t = e.hb.compile(readFileSync(`${PAGE_TEMPLATE_DIR}${name}.hbs`, 'utf8')) as Template;
    e.cache.set(name, t);
  }
  return t(data);
}
