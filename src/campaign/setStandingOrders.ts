/**
 * A player sets their power's standing orders (docs/absences.md): on the web, by the API, or
 * by mail (`STANDING ORDERS` … `END STANDING ORDERS`). They are checked like any orders
 * against the campaign as it stands (src/orders/standing.ts); with any error nothing is
 * stored and the errors come back as values, each with its line and reason. An empty text
 * clears them. Audited.
 */
import type { Database } from '../db/client.js';
import { loadState } from '../db/campaignStore.js';
import { checkStandingOrders, type StandingFleet } from '../orders/standing.js';
import type { OrderMessage } from '../orders/parse.js';
import { readableText, tooLargeReason } from '../orders/index.js';
import { readStandingOrders, type StandingView } from './absenceRead.js';
import { ORDERS, UseCaseError, notFound } from './errors.js';
import { refuseWhenOver } from './campaignOver.js';

export type StandingResult =
  | { ok: true; standing: StandingView | null }
  | { ok: false; errors: OrderMessage[] };

/** `lines`: numbered as in the text sent (a mail's block keeps the mail's numbers); a web text is numbered from 1. */
export async function setStandingOrders(db: Database, campaignId: string, power: string, lines: readonly { line: number; text: string }[], actor: string): Promise<StandingResult> {
  const text = lines.map((l) => l.text).join('\n');
  const tooLarge = tooLargeReason(text);
  if (tooLarge) throw new UseCaseError('too_large', ORDERS.tooLarge, `standing orders: ${tooLarge}`);
  const p = await db.prisma.power.findUnique({ where: { campaignId_key: { campaignId, key: power } }, select: { id: true, playable: true, campaign: { select: { slug: true } } } });
  if (!p?.playable) throw notFound(`power '${power}' in this campaign`);
  await refuseWhenOver(db.prisma, campaignId, 'standing orders');
  const readable = lines.map((l) => ({ line: l.line, text: readableText(l.text) }));
  if (readable.every((l) => l.text.trim() === '')) {
    await db.prisma.$transaction(async (tx) => {
      const { count } = await tx.standingOrders.deleteMany({ where: { powerId: p.id } });
      if (count > 0) await tx.auditEntry.create({ data: { campaignId, actor, action: 'standing_orders.cleared', details: { power } } });
    });
    return { ok: true, standing: null };
  }
  const state = await loadState(db.prisma, campaignId);
  const check = checkStandingOrders(state, power, readable, { id: campaignId, slug: p.campaign.slug });
  if (check.errors.length > 0) return { ok: false, errors: check.errors };
  const fleets: StandingFleet[] = check.fleets;
  const body = readable.map((l) => l.text).join('\n').trim();
  await db.prisma.$transaction(async (tx) => {
    await tx.standingOrders.upsert({
      where: { powerId: p.id },
      create: { campaignId, powerId: p.id, text: body, fleets: fleets as object[], setBy: actor },
      update: { text: body, fleets: fleets as object[], setBy: actor },
    });
    await tx.auditEntry.create({ data: { campaignId, actor, action: 'standing_orders.set', details: { power, fleets: fleets.map((f) => ({ fleet: f.fleet, kind: f.kind })) } } });
  });
  return { ok: true, standing: await readStandingOrders(db, campaignId, power) };
}

/** A web or API text, its lines numbered from 1. */
export function linesOf(text: string): { line: number; text: string }[] {
  return text.split(/\r\n|\r|\n/).map((t, i) => ({ line: i + 1, text: t }));
}

/** For the web and the API: errors refused with 422, each line named. */
export function refuseErrors(result: StandingResult): StandingView | null {
  if (result.ok) return result.standing;
  const lines = result.errors.map((e) => `line ${e.line}: ${e.message}`);
  throw new UseCaseError('unprocessable', ORDERS.standingInvalid, `the standing orders were not stored: ${lines.join('; ')}`,
    result.errors.map((e) => ({ path: `line ${e.line}`, message: e.message })));
}
