/**
 * HTML pages from the handlebars templates in templates/export. Templates whose names start
 * with "_" are partials (the page layout, the battle summary, a row of boxes); the rest are
 * pages. Every value goes through `{{ }}`, which escapes it: no template uses the raw
 * triple-stash (a test checks), so a ship called `<script>` prints as text.
 * Templates are compiled in strict mode: a misspelt field is an error, not a blank.
 */
import { readdirSync, readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import type { BattlePackage } from './json.js';
import { QUALITY_LABEL, roleOf, sightedText } from './common.js';

export const TEMPLATE_DIR = new URL('../../templates/export/', import.meta.url);

type Page = (view: object) => string;

let env: { pages: Map<string, Page> } | null = null;

function load(): { pages: Map<string, Page> } {
  if (env) return env;
  const hb = Handlebars.create();
  hb.registerHelper('join', (xs: unknown, sep: unknown) => (Array.isArray(xs) ? xs.map(String).join(typeof sep === 'string' ? sep : ', ') : ''));
  hb.registerHelper('quality', (q: unknown) => (typeof q === 'string' && q in QUALITY_LABEL ? QUALITY_LABEL[q as keyof typeof QUALITY_LABEL] : String(q)));
  hb.registerHelper('sightedText', (side: unknown) => (side && typeof side === 'object' && 'seen' in side ? sightedText(side as Parameters<typeof sightedText>[0]) : ''));
  hb.registerHelper('role', (attacker: unknown) => roleOf({ attacker: attacker === true }));
  const pages = new Map<string, Page>();
  for (const file of readdirSync(TEMPLATE_DIR).filter((f) => f.endsWith('.hbs')).sort()) {
    const text = readFileSync(new URL(file, TEMPLATE_DIR), 'utf8');
    const name = file.slice(0, -'.hbs'.length);
    if (name.startsWith('_')) hb.registerPartial(name.slice(1), hb.compile(text, { strict: true }));
    else pages.set(name, hb.compile(text, { strict: true }));
  }
  env = { pages };
  return env;
}

/** Render page `name` (templates/export/<name>.hbs) for a battle package plus the format's view. */
export function renderPage(name: string, pkg: BattlePackage, view: Record<string, unknown>): string {
  const page = load().pages.get(name);
  if (!page) throw new Error(`no export template ${name}.hbs`);
  return page({ pkg, ...view });
}
