/**
 * The page templates (templates/pages/*.hbs) and the one Handlebars environment they run in.
 * Files starting with `_` are partials (`_layout.hbs` is the partial `layout`).
 * Every `{{value}}` is escaped; the only triple-stashes are the server-drawn SVG map, which
 * escapes its own text (src/map/svg.ts), and page fragments rendered by these same
 * templates (fragments.ts).
 *
 * Fragments kept across readers (fragments.ts) render in a second environment without the
 * clock: there `ago` throws, and `time`/`fullTime` throw unless the fragment's data has a
 * time zone, which is then part of its key. What is kept can therefore never hold
 * "3 minutes ago" or another reader's zone.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';
import { formatDeadline, formatTimeShort } from '../../words/time.js';

export const PAGE_TEMPLATE_DIR = fileURLToPath(new URL('../../../templates/pages/', import.meta.url));

type Template = (data: unknown) => string;

interface Environment { hb: typeof Handlebars; cache: Map<string, Template> }

/** [for whole pages, for kept fragments] */
const envs: [Environment | null, Environment | null] = [null, null];

/** "2026-03-01 10:15 UTC", or "2026-03-01 11:15 CET" in the reader's zone. */
export function formatTime(v: unknown, timeZone = 'UTC'): string {
  if (v === null || v === undefined || v === '') return '';
  const d = v instanceof Date ? v : new Date(String(v));
  if (Number.isNaN(d.getTime())) return String(v);
  return formatTimeShort(d, timeZone);
}

type HelperOptions = { data?: { root?: { timeZone?: unknown } } };

/** The reader's zone, from the page's data (layoutData puts it there). */
function zoneOf(options: HelperOptions | undefined): string {
  const z = options?.data?.root?.timeZone;
  return typeof z === 'string' ? z : 'UTC';
}

/** In a kept fragment: the zone its key names, or an error (a time in no known zone would be kept for every reader). */
function keptZoneOf(options: HelperOptions | undefined): string {
  const z = options?.data?.root?.timeZone;
  if (typeof z !== 'string') throw new Error('A kept page fragment shows a time: its key must name the reader\'s time zone (fragments.ts).');
  return z;
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

function environment(kept: boolean): Environment {
  const made = envs[kept ? 1 : 0];
  if (made) return made;
  const hb = Handlebars.create();
  const zone = kept ? keptZoneOf : zoneOf;
  hb.registerHelper('eq', (a: unknown, b: unknown) => a === b);
  hb.registerHelper('time', (v: unknown, options: HelperOptions) => formatTime(v, zone(options)));
  // A deadline in full, in the reader's zone: "Tuesday, 5 January 2027 at 19:00 CET (Europe/Paris)".
  hb.registerHelper('fullTime', (v: unknown, options: HelperOptions) => (v ? formatDeadline(v instanceof Date ? v : String(v), zone(options)) ?? '' : ''));
  hb.registerHelper('iso', (v: unknown) => {
    const d = v instanceof Date ? v : new Date(String(v));
    return Number.isNaN(d.getTime()) ? '' : d.toISOString();
  });
  hb.registerHelper('ago', kept
    ? () => { throw new Error('A kept page fragment cannot say how long ago something was: render that part per request (fragments.ts).'); }
    : (v: unknown) => relativeTime(v));
  // A page's <title>: the page, the campaign, the product, each said once (a campaign named
  // like the product, or a page titled with the campaign's name, is not said twice).
  hb.registerHelper('pageTitle', (...args: unknown[]) => {
    const parts = args.slice(0, -1).filter((x): x is string => typeof x === 'string' && x.trim() !== '');
    return [...new Set([...parts, 'Steady as She Goes!'].map((x) => x.trim()))].join(' · ');
  });
  hb.registerHelper('plural', (count: unknown, one: unknown, many: unknown) => (Number(count) === 1 ? String(one) : String(many)));
  for (const file of readdirSync(PAGE_TEMPLATE_DIR)) {
    const m = /^_(.+)\.hbs$/.exec(file);
    if (m) hb.registerPartial(m[1]!, readFileSync(`${PAGE_TEMPLATE_DIR}${file}`, 'utf8'));
  }
  const e: Environment = { hb, cache: new Map() };
  envs[kept ? 1 : 0] = e;
  return e;
}

function render(kept: boolean, name: string, data: object): string {
  const e = environment(kept);
  let t = e.cache.get(name);
  if (!t) {
    t = e.hb.compile(readFileSync(`${PAGE_TEMPLATE_DIR}${name}.hbs`, 'utf8')) as Template;
    e.cache.set(name, t);
  }
  return t(data);
}

export function renderPage(name: string, data: object): string {
  return render(false, name, data);
}

/** A fragment to be kept across readers (fragments.ts): no clock, and times only in a zone its data names. */
export function renderKeptFragment(name: string, data: object): string {
  return render(true, name, data);
}
