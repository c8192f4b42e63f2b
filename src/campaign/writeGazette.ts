/**
 * The GM writes the open turn's Gazette (docs/gazette.md): one issue per turn, kept as a
 * draft (read by the GM alone) and changed at will until it is published — with the turn's
 * reports at the resolve, or at once by the GM's button (publishGazette.ts). Saving an empty
 * text throws the draft away. One-click news (gazetteNews.ts) is appended as paragraphs.
 *
 * Each write takes the campaign's state lock (src/db/stateLock.ts), as the resolve does: a
 * draft saved while the turn resolves waits, and then lands in the next turn's issue rather
 * than in a turn already gone to press.
 */
import type { Database } from '../db/client.js';
import type { Tx } from '../db/campaignStore.js';
import { lockStateForWrite } from '../db/stateLock.js';
import { GAZETTE_FORMATS, MAX_GAZETTE_CHARS, withNews, type GazetteFormat } from '../words/gazette.js';
import { GAZETTE, UseCaseError, notFound } from './errors.js';
import { issueView, type GazetteIssueView } from './gazette.js';
import { gazetteNews } from './gazetteNews.js';

export interface GazetteDraft { text: string; format?: string }

async function openIssue(tx: Tx, campaignId: string) {
  await lockStateForWrite(tx, campaignId);
  const c = await tx.campaign.findUnique({ where: { id: campaignId }, select: { currentTurn: true } });
  if (!c) throw notFound('campaign');
  const issue = await tx.gazetteIssue.findUnique({ where: { campaignId_turn: { campaignId, turn: c.currentTurn } } });
  if (issue?.publishedAt) {
    throw new UseCaseError('conflict', GAZETTE.published, `the Gazette for turn ${c.currentTurn} is published and can no longer be changed; the next turn's issue opens when this turn is resolved`);
  }
  return { turn: c.currentTurn, issue };
}

function checked(input: GazetteDraft): { text: string; format: GazetteFormat } {
  const format = (input.format ?? 'markdown') as GazetteFormat;
  if (!GAZETTE_FORMATS.includes(format)) {
    throw new UseCaseError('bad_request', GAZETTE.badFormat, `'${String(input.format).slice(0, 20)}' is not a format; write markdown or plain`, [{ path: 'format', message: 'markdown or plain' }]);
  }
  const text = input.text.replace(/\s+$/, '').replace(/^(?:[ \t]*\r?\n)+/, '');
  if (text.length > MAX_GAZETTE_CHARS) {
    throw new UseCaseError('bad_request', GAZETTE.tooLong, `the Gazette is ${text.length} characters long; at most ${MAX_GAZETTE_CHARS} may be published`, [{ path: 'text', message: `at most ${MAX_GAZETTE_CHARS} characters` }]);
  }
  return { text, format };
}

async function save(tx: Tx, campaignId: string, turn: number, text: string, format: GazetteFormat, actor: string, now: Date): Promise<GazetteIssueView | null> {
  if (text.trim() === '') {
    const gone = await tx.gazetteIssue.deleteMany({ where: { campaignId, turn, publishedAt: null } });
    if (gone.count) await tx.auditEntry.create({ data: { campaignId, actor, action: 'gazette.written', details: { turn, cleared: true } } });
    return null;
  }
  const row = await tx.gazetteIssue.upsert({
    where: { campaignId_turn: { campaignId, turn } },
    create: { campaignId, turn, text, format, updatedAt: now },
    update: { text, format, updatedAt: now },
  });
  await tx.auditEntry.create({ data: { campaignId, actor, action: 'gazette.written', details: { turn, chars: text.length, format } } });
  return issueView(row);
}

/** Save the open turn's draft; an empty text throws the draft away (null). */
export async function writeGazette(db: Database, campaignId: string, input: GazetteDraft, actor = 'gm', now = new Date()): Promise<{ turn: number; issue: GazetteIssueView | null }> {
  const { text, format } = checked(input);
  return db.prisma.$transaction(async (tx) => {
    const { turn } = await openIssue(tx, campaignId);
    return { turn, issue: await save(tx, campaignId, turn, text, format, actor, now) };
  });
}

/**
 * Put news in the draft with one click: the items named by key (or all), each as its own
 * paragraph at the end, skipped when the text already holds it. An unknown key is refused:
 * only the news gazetteNews offers now may go in this way.
 */
export async function addGazetteNews(db: Database, campaignId: string, keys: readonly string[] | 'all', actor = 'gm', now = new Date()): Promise<{ turn: number; issue: GazetteIssueView | null; added: number }> {
  const news = await gazetteNews(db, campaignId);
  const chosen = keys === 'all' ? news : keys.map((k) => {
    const n = news.find((x) => x.key === k);
    if (!n) throw new UseCaseError('bad_request', GAZETTE.unknownNews, `'${k.slice(0, 60)}' is not among this turn's news; the news offered now: ${news.map((x) => x.key).join(', ') || 'none'}`, [{ path: 'keys', message: 'a key from the news list' }]);
    return n;
  });
  return db.prisma.$transaction(async (tx) => {
    const { turn, issue } = await openIssue(tx, campaignId);
    const before = issue?.text ?? '';
    const text = withNews(before, chosen.map((n) => n.text));
    if (text.length > MAX_GAZETTE_CHARS) throw new UseCaseError('bad_request', GAZETTE.tooLong, `with the news the Gazette would be ${text.length} characters long; at most ${MAX_GAZETTE_CHARS}`);
    const added = chosen.filter((n) => !before.includes(n.text)).length;
    if (added === 0) return { turn, issue: issue ? issueView(issue) : null, added };
    return { turn, issue: await save(tx, campaignId, turn, text, (issue?.format ?? 'markdown') as GazetteFormat, actor, now), added };
  });
}
