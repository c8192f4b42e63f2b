/**
 * The mail templates (templates/mail/*.hbs) and the one Handlebars environment they run in.
 *
 * Each mail has a text and an HTML template: `<name>.text.hbs` and `<name>.html.hbs`.
 * Files starting with `_` are partials (`_layout.html.hbs` is the partial `layout`).
 * HTML templates escape every `{{value}}` (never use `{{{triple}}}` on anything a player
 * or GM wrote); text templates are compiled with noEscape, since text/plain has nothing
 * to escape. The renderers (ordersCheck.ts, turnReport.ts, welcome.ts) hand templates
 * ready-made words; templates only lay them out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';

/** templates/mail, from src/mail/render (tsx runs the sources in place). */
export const TEMPLATE_DIR = fileURLToPath(new URL('../../../templates/mail/', import.meta.url));

type Template = (data: unknown) => string;

interface Env {
  html: typeof Handlebars;
  text: typeof Handlebars;
  cache: Map<string, Template>;
}

let env: Env | null = null;

function registerHelpers(hb: typeof Handlebars): void {
  hb.registerHelper('eq', (a: unknown, b: unknown) => a === b);
  hb.registerHelper('gt', (a: unknown, b: unknown) => Number(a) > Number(b));
  hb.registerHelper('plural', (count: unknown, one: unknown, many: unknown) => (Number(count) === 1 ? String(one) : String(many)));
  hb.registerHelper('signed', (v: unknown) => (Number(v) >= 0 ? `+${Number(v)}` : String(Number(v))));
  hb.registerHelper('padStart', (v: unknown, width: unknown) => String(v).padStart(Number(width)));
  hb.registerHelper('padEnd', (v: unknown, width: unknown) => String(v).padEnd(Number(width)));
}

/** The environments, built once: helpers and partials registered a single time. */
function environment(): Env {
  if (env) return env;
  const html = Handlebars.create();
  const text = Handlebars.create();
  registerHelpers(html);
  registerHelpers(text);
  for (const file of readdirSync(TEMPLATE_DIR)) {
    const m = /^_(.+)\.(text|html)\.hbs$/.exec(file);
    if (!m) continue;
    const source = readFileSync(`${TEMPLATE_DIR}${file}`, 'utf8');
    if (m[2] === 'html') html.registerPartial(m[1]!, source);
    else text.registerPartial(m[1]!, source);
  }
  env = { html, text, cache: new Map() };
  return env;
}

function template(name: string, kind: 'text' | 'html'): Template {
  const e = environment();
  const key = `${name}.${kind}`;
  let t = e.cache.get(key);
  if (!t) {
    const source = readFileSync(`${TEMPLATE_DIR}${name}.${kind}.hbs`, 'utf8');
    const hb = kind === 'html' ? e.html : e.text;
    t = hb.compile(source, { strict: true, noEscape: kind === 'text' }) as Template;
    e.cache.set(key, t);
  }
  return t;
}

/** Both parts of a mail from its templates. Text lines are tidied: no trailing blanks, at most one empty line in a row. */
export function renderParts(name: string, data: unknown): { text: string; html: string } {
  const text = template(name, 'text')(data)
    .split('\n').map((l) => l.trimEnd()).join('\n') // not /\s+$/: quadratic on a long run of spaces mid-line
    .replace(/\n{3,}/g, '\n\n').trim() + '\n';
  const html = template(name, 'html')(data);
  return { text, html };
}
