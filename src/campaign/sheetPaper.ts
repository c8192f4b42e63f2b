/**
 * The paper a campaign's PDF sheets are laid out for (A4 or US Letter): a club prints on what
 * its printer holds. The GM sets it for the campaign; a download link may ask for the other
 * size (`?paper=letter`), for the one player whose printer differs.
 */
import type { Database } from '../db/client.js';
import type { Tx } from '../db/campaignStore.js';
import { isPaper, PAPER_NAMES, PAPERS, type Paper } from '../export/paper.js';
import { PAPER, UseCaseError, notFound } from './errors.js';

type Client = Database['prisma'] | Tx;

function refused(value: unknown): UseCaseError {
  const shown = typeof value === 'string' ? `'${value.slice(0, 20)}'` : String(value);
  const message = `paper: the sheets print on ${PAPERS.map((p) => `${p} (${PAPER_NAMES[p]})`).join(' or ')}, not ${shown}`;
  return new UseCaseError('bad_request', PAPER.unknown, message, [{ path: 'paper', message }]);
}

/** The paper a download link asks for: none (the campaign's), or a4 / letter; anything else is refused with the sizes. */
export function paperAsked(value: unknown): Paper | undefined {
  if (value === undefined || value === '') return undefined;
  if (!isPaper(value)) throw refused(value);
  return value;
}

/** The campaign's paper. */
export async function sheetPaper(prisma: Client, campaignId: string): Promise<Paper> {
  const c = await prisma.campaign.findUnique({ where: { id: campaignId }, select: { sheetPaper: true } });
  if (!c) throw notFound('campaign');
  return isPaper(c.sheetPaper) ? c.sheetPaper : 'a4';
}

/** The paper a sheet is printed on: the one asked for, else the campaign's. */
export async function paperFor(prisma: Client, campaignId: string, asked: unknown): Promise<Paper> {
  return paperAsked(asked) ?? sheetPaper(prisma, campaignId);
}

/** The GM sets the campaign's paper; audited. In force at once: it changes no rule, only the print. */
export async function setSheetPaper(db: Database, campaignId: string, paper: unknown, actor = 'gm'): Promise<{ paper: Paper }> {
  if (!isPaper(paper)) throw refused(paper);
  return db.prisma.$transaction(async (tx) => {
    const before = await sheetPaper(tx, campaignId);
    if (before === paper) return { paper };
    await tx.campaign.update({ where: { id: campaignId }, data: { sheetPaper: paper } });
    await tx.auditEntry.create({ data: { campaignId, actor, action: 'campaign.sheet_paper', details: { before, after: paper } } });
    return { paper };
  });
}

/** The campaign's paper, for the GM's pages. */
export function campaignSheetPaper(db: Database, campaignId: string): Promise<Paper> {
  return sheetPaper(db.prisma, campaignId);
}
