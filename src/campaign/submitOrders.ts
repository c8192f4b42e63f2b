/**
 * A power's orders for the open turn, from any source (web form, mail, API): parsed by
 * the one parser (src/orders), checked against the state with the resolver's own rules,
 * and stored even when they have errors. The latest set received replaces the earlier
 * one (SPEC §3); one received earlier but arriving late does not.
 */
import type { Database } from '../db/client.js';
import { maskPassword, parseOrders, readableText, tooLargeReason, type OrderMessage } from '../orders/index.js';
import { previewMovement, type FleetPreview } from '../rules/movement/index.js';
import { validateOrders } from '../rules/validateOrders.js';
import { UseCaseError, notFound } from './errors.js';
import { readCampaign } from './readCampaign.js';

export interface SubmitInput {
  text: string;
  source: 'web' | 'email' | 'api';
  /** When the message was written (a mail's Date); now when absent. */
  receivedAt?: Date;
  inboundId?: string;
  actor?: string;
}

export interface OrdersCheck {
  orderSetId: string;
  turn: number;
  power: string;
  status: 'ready' | 'has_errors';
  /** False when a later set had already been received: this one is kept but not used. */
  current: boolean;
  errors: OrderMessage[];
  warnings: OrderMessage[];
  lines: { line: number; text: string; status: string }[];
  /** Where each ordered fleet is at the end of each phase (ignoring enemies and dice). */
  preview: FleetPreview[];
}

export async function checkOrders(db: Database, campaignId: string, power: string, sent: string) {
  // Refused whole before anything is read (MAX_ORDERS_BYTES, src/orders/limits.ts).
  const tooLarge = tooLargeReason(sent);
  if (tooLarge) throw new UseCaseError('too_large', 'orders/too_large', tooLarge, [{ path: 'text', message: tooLarge }]);
  // A NUL or a broken character is read as U+FFFD, and the parser names its line (the API refuses them earlier).
  const text = readableText(sent);
  // The campaign as kept at its stateVersion (readCampaign.ts): ten players checking at once
  // cost ten small version queries, not ten whole loads.
  const read = await readCampaign(db, campaignId).catch(() => null);
  if (!read) throw notFound('campaign');
  const { state } = read;
  const powerState = state.powers.find((p) => p.key === power);
  if (!powerState) throw notFound(`power '${power}'`);
  if (!powerState.playable) throw new UseCaseError('bad_request', 'orders/neutral', `${powerState.name} is neutral and gives no orders`);
  const slug = await read.made('slug', async () => (await db.prisma.campaign.findUnique({ where: { id: campaignId }, select: { slug: true } }))!.slug);
  const parsed = parseOrders(text, state, { power, campaign: { id: campaignId, slug } });
  const ruleErrors: OrderMessage[] = parsed.orders
    ? validateOrders(state, parsed.orders).map((v) => ({ line: v.line ?? 0, code: v.code, message: v.message, severity: 'error' as const }))
    : [];
  // The parser already reports some rules by line; do not say the same thing twice.
  const seen = new Set(parsed.errors.map((e) => `${e.line}\u0000${e.code}`));
  const errors = [...parsed.errors, ...ruleErrors.filter((e) => !seen.has(`${e.line}\u0000${e.code}`))].sort((a, b) => a.line - b.line);
  const preview = parsed.orders ? previewMovement(state, parsed.orders.fleets, power) : [];
  return { state, parsed, errors, preview, text };
}

export async function submitOrders(db: Database, campaignId: string, power: string, input: SubmitInput): Promise<OrdersCheck> {
  const { state, parsed, errors, preview, text } = await checkOrders(db, campaignId, power, input.text);
  const receivedAt = input.receivedAt ?? new Date();
  const ready = errors.length === 0 && parsed.orders !== null;
  return db.prisma.$transaction(async (tx) => {
    const turn = await tx.turn.findUnique({ where: { campaignId_number: { campaignId, number: state.turn } } });
    if (!turn || turn.status !== 'open') throw new UseCaseError('conflict', 'turn/not_open', `turn ${state.turn} is not open for orders`);
    const powerRow = await tx.power.findUniqueOrThrow({ where: { campaignId_key: { campaignId, key: power } } });
    const newer = await tx.orderSet.findFirst({ where: { turnId: turn.id, powerId: powerRow.id, current: true, receivedAt: { gt: receivedAt } } });
    if (!newer) await tx.orderSet.updateMany({ where: { turnId: turn.id, powerId: powerRow.id, current: true }, data: { current: false } });
    const set = await tx.orderSet.create({
      data: {
        campaignId, turnId: turn.id, powerId: powerRow.id, rawText: text.split(/\r?\n/).map((l) => maskPassword(l, parsed.header.password)).join("\n"), source: input.source, receivedAt,
        parsed: (parsed.orders ?? undefined) as object | undefined, errors: errors as object[], warnings: parsed.warnings as object[],
        ready, current: !newer, inboundId: input.inboundId ?? null,
      },
    });
    return {
      orderSetId: set.id, turn: state.turn, power, status: ready ? 'ready' : 'has_errors', current: !newer,
      errors, warnings: parsed.warnings, lines: parsed.lines, preview,
    };
  });
}

/** A power's current order set for the open turn, as sent (password masked), or null. */
export async function currentOrders(db: Database, campaignId: string, power: string) {
  const campaign = await db.prisma.campaign.findUnique({ where: { id: campaignId }, select: { currentTurn: true } });
  if (!campaign) throw notFound('campaign');
  const set = await db.prisma.orderSet.findFirst({
    where: { campaignId, current: true, power: { key: power }, turn: { number: campaign.currentTurn } },
    select: { id: true, rawText: true, source: true, receivedAt: true, ready: true, errors: true, warnings: true },
  });
  if (!set) return null;
  return {
    orderSetId: set.id, turn: campaign.currentTurn, power, status: set.ready ? 'ready' : 'has_errors', text: set.rawText,
    source: set.source, receivedAt: set.receivedAt.toISOString(), errors: set.errors, warnings: set.warnings,
  };
}
