/**
 * Page fragments kept with the campaign's version (docs/performance.md, "Page fragments"):
 * the big parts of the map page and the GM dashboard (the SVG map, the fleet tables, the
 * missions, the audit) rendered once per stateVersion and reader key, then pasted into
 * each reader's page. What is per request (CSRF token, the reader's name, the clock, jobs
 * running in this process, query flags) stays out of them and is rendered every time.
 *
 * The key is made here from the page context, never by the caller: the template, the
 * reader's role (a GM and a player never share an entry), the power whose view it shows
 * (a player's is always their own: readerPower in player.ts) and, only for fragments that
 * show times, the reader's time zone. A fragment that has no zone in its key cannot show
 * a time, and no fragment can show the clock: rendering it throws (render.ts).
 *
 * Why keep them (bench/pageLoad.ts, 10 connections, embedded database, 2-core machine under
 * other load): rendered on every request, the map page answered at a median of 286 ms and a
 * p99 of 1,090 ms (GM dashboard 427 / 1,049 ms, 23-30 requests/s); kept, 76 / 265 ms at
 * 114-118 requests/s. Rendering the SVG map and the tables costs each request several
 * milliseconds of the one event loop, so ten readers at once queue behind each other and the
 * p99 goal (under 100 ms) is out of reach without keeping them.
 */
import { randomBytes } from 'node:crypto';
import type { CampaignRead } from '../../campaign/readCampaign.js';
import type { PageContext } from './context.js';
import { renderKeptFragment, renderPage } from './render.js';

/**
 * A rendered fragment, kept as UTF-8 bytes: each page pastes the bytes in (renderWithFragments)
 * instead of encoding ~80 KB of text again. Never written to: it is shared by every reader.
 */
export class KeptHtml {
  constructor(readonly bytes: Buffer) {}
}

export interface FragmentSpec {
  /** templates/pages/<template>.hbs */
  template: string;
  /** The power whose view it shows; null for the GM's whole-campaign fragments. */
  power: string | null;
  /** Whether it shows times (then the reader's time zone is part of the key). */
  times?: boolean;
}

/** PAGE_FRAGMENTS=render: every request renders its fragments (only for measuring). */
const renderEveryTime = process.env.PAGE_FRAGMENTS === 'render';

/** The name a fragment is kept under in the campaign's version entry. */
export function fragmentName(ctx: Pick<PageContext, 'session' | 'timeZone'>, spec: FragmentSpec): string {
  return ['fragment', spec.template, ctx.session.r, spec.power ?? '*', spec.times ? ctx.timeZone : '-'].join('\u0000');
}

/**
 * The fragment as rendered from `data()`, made once for this version of the campaign and
 * this key. `data` runs only when it is not kept yet: the page's other work is not repeated.
 * It must read nothing but the campaign's state tables (readCampaign.ts `made`).
 */
export async function keptFragment(read: CampaignRead, ctx: Pick<PageContext, 'session' | 'timeZone'>, spec: FragmentSpec, data: () => object | Promise<object>): Promise<KeptHtml> {
  // bench/pageLoad.ts measures the pages with nothing kept, to see whether keeping pays.
  if (renderEveryTime) {
    const d = await data();
    return new KeptHtml(Buffer.from(renderKeptFragment(spec.template, { ...d, timeZone: spec.times ? ctx.timeZone : undefined })));
  }
  return read.made(fragmentName(ctx, spec), async () => {
    const d = await data();
    // The zone comes from the key alone: a zone in `data` would be one the key does not name.
    return new KeptHtml(Buffer.from(renderKeptFragment(spec.template, { ...d, timeZone: spec.times ? ctx.timeZone : undefined })));
  // The cache counts what the promise gives (stateCache.ts made): the fragment's bytes.
  }, (v) => (v as unknown as KeptHtml).bytes.length);
}

/**
 * Stands where a fragment goes while the page around it renders: nothing a reader types can
 * contain it, since it is drawn at random by each process.
 */
const MARK = `\u0002kept-${randomBytes(12).toString('hex')}\u0002`;

/**
 * The page as UTF-8 bytes. A KeptHtml among the data's own values is rendered as a mark
 * (use it with a triple-stash, `{{{body}}}`) and its bytes are pasted where the mark is.
 */
export function renderWithFragments(template: string, data: object): Buffer {
  const kept: KeptHtml[] = [];
  const marked: Record<string, unknown> = { ...data };
  for (const [k, v] of Object.entries(marked)) {
    if (v instanceof KeptHtml) marked[k] = `${MARK}${kept.push(v) - 1}${MARK}`;
  }
  const html = renderPage(template, marked);
  if (kept.length === 0) return Buffer.from(html);
  // [text, index, text, index, ..., text]
  return Buffer.concat(html.split(MARK).map((piece, i) => (i % 2 === 0 ? Buffer.from(piece) : kept[Number(piece)]!.bytes)));
}
