/**
 * A power's orders for the open turn, from any source (web form, mail, API): parsed by
 * the one parser (src/orders), checked against the state with the resolver's own rules,
 * and stored even when they have errors. The latest set received replaces the earlier
 * one (SPEC §3); one received earlier but arriving late does not.
 */
import { sendDespatchBlocks } from './despatchesByMail.js';
import { absenceBlocksByMail, isAbsenceBlock } from './absenceByMail.js';
import { absenceBlockLines } from '../words/absence.js';
import type { Block } from '../orders/blocks.js';
import { despatchAlreadySentLine, despatchRefusedLine, despatchSentLine } from '../words/despatches.js';
import { knownEnemyMeetings } from '../rules/knownEnemies.js';
import { knownEnemyWarning } from '../words/knownEnemies.js';
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/client.js';
import { maskPassword, readableText, tooLargeReason, type OrderMessage } from '../orders/index.js';
import type { FleetPreview } from '../rules/movement/index.js';
import type { CampaignState } from '../rules/state.js';
import { CheckFailed, ordersCheckPool } from '../workers/checkPool.js';
import type { OrdersCheck, TextCheck } from '../orders/check.js';
import { ORDERS, TURN, UseCaseError, notFound } from './errors.js';
import { refuseWhenOver } from './campaignOver.js';
import { ordersReady } from './ordersReady.js';
import { readCampaign } from './readCampaign.js';

export interface SubmitInput {
  text: string;
  source: 'web' | 'email' | 'api';
  /** When the message was written (a mail's Date); now when absent. */
  receivedAt?: Date;
  inboundId?: string;
  actor?: string;
  /** The campaign's slug, when the caller has it already (mail in): one read fewer. */
  campaignSlug?: string;
}

export type { OrdersCheck } from '../orders/check.js';

/** What the caller already read in this request, before writing anything: each saves a query. */
export interface KnownCampaign {
  /** The campaign's short name (mail in). */
  slug?: string;
  /** The stateVersion read with the sign-in (docs/performance.md). */
  version?: string | null;
  /** The boardVersion read with it (mail in): a new order set since then costs no reload. */
  board?: string | null;
}

/**
 * `route`: how the orders came. The web form and the API name the power in their address, so
 * they need no POWER line; a mail names it only in its text.
 */
export async function checkOrders(db: Database, campaignId: string, power: string, sent: string, route: SubmitInput['source'] = 'api', known: KnownCampaign = {}) {
  // Refused whole before anything is read (MAX_ORDERS_BYTES, src/orders/limits.ts).
  const tooLarge = tooLargeReason(sent);
  if (tooLarge) throw new UseCaseError('too_large', ORDERS.tooLarge, tooLarge, [{ path: 'text', message: tooLarge }]);
  // A NUL or a broken character is read as U+FFFD, and the parser names its line (the API refuses them earlier).
  const text = readableText(sent);
  // The campaign as kept at its stateVersion (readCampaign.ts): ten players checking at once
  // cost ten small version queries, not ten whole loads.
  // (readCampaign answers a missing campaign with not_found; any other error is a real one.)
  const read = await readCampaign(db, campaignId, known.version, known.board);
  const { state } = read;
  const powerState = state.powers.find((p) => p.key === power);
  if (!powerState) throw notFound(`power '${power}'`);
  if (!powerState.playable) throw new UseCaseError('bad_request', ORDERS.neutral, `${powerState.name} is neutral and gives no orders`);
  const slug = known.slug ?? (await read.made('slug', async () => (await db.prisma.campaign.findUnique({ where: { id: campaignId }, select: { slug: true } }))!.slug));
  // Parsed and checked on a worker thread (src/workers/checkPool.ts): a long text never holds up
  // the event loop. The thread keeps the state by its boardVersion, so it is sent once per
  // change of the board, not once per order set (docs/performance.md, "Mail in").
  let checked: TextCheck;
  try {
    checked = await ordersCheckPool().check(campaignId, read.stateKey, state, { text, power, campaign: { id: campaignId, slug }, powerLineOptional: route !== 'email' });
  } catch (err) {
    if (!(err instanceof CheckFailed)) throw err;
    throw new UseCaseError('unprocessable', ORDERS.checkFailed, `${err.message}; nothing was stored: try again, and if it happens again send your orders to the GM`);
  }
  const { parsed, errors, preview } = checked;
  return { state, parsed, errors, preview, text };
}

export async function submitOrders(db: Database, campaignId: string, power: string, input: SubmitInput): Promise<OrdersCheck> {
  return (await submitOrdersReading(db, campaignId, power, input)).check;
}

/**
 * submitOrders, also giving the state the orders were checked against. (Mail in writes its
 * order set, answer and status in one statement instead: inbox/submitOrdersByMail.ts.)
 */
export async function submitOrdersReading(
  db: Database, campaignId: string, power: string, input: SubmitInput,
): Promise<{ check: OrdersCheck; state: CampaignState }> {
  const { state, parsed, errors, preview, text } = await checkOrders(db, campaignId, power, input.text, input.source, { slug: input.campaignSlug });
  // A text of blocks only leaves the stored orders as they are (SPEC §3). Absences and standing
  // orders alone are carried out by the web form and the API (sendOrders.ts); despatches alone
  // go by the despatches page, and battle blocks by mail or the battle's page.
  if (parsed.orderLines === 0 && parsed.blocks.length > 0) {
    const what = parsed.blocks.map((b) => `line ${b.line}: ${b.opening}`).join('; ');
    if (parsed.blocks.every(isAbsenceBlock)) {
      throw new BlocksOnlyText(parsed.blocks, state.turn, `this text carries no orders, only absences and standing orders (${what}); send them on your absence page, and your orders for this turn are as they were`);
    }
    const message = parsed.blocks.every((b) => b.kind === 'despatch')
      ? `this text carries no orders, only despatches (${what}); nothing was sent or stored: send a despatch on its own on the despatches page or POST /api/campaigns/<id>/despatches, and your orders for this turn are as they were`
      : `this text carries no orders, only blocks that are not carried out without orders here (${what}); nothing was carried out or stored: send absences and standing orders on their own, a despatch on the despatches page, battle dates and results on the battle's page or by mail; your orders for this turn are as they were`;
    throw new UseCaseError('unprocessable', ORDERS.blocksOnly, message, [{ path: 'text', message }]);
  }
  const warnings = checkWarnings(state, power, parsed, preview);
  const receivedAt = input.receivedAt ?? new Date();
  const ready = errors.length === 0 && parsed.orders !== null;
  const check = await db.prisma.$transaction(async (tx) => {
    // The open turn and the power's row in one read.
    const [row] = await tx.$queryRaw<{ powerId: string; turnId: string | null; status: string | null }[]>`
      SELECT p.id AS "powerId", t.id AS "turnId", t.status::text AS status
        FROM "Power" p LEFT JOIN "Turn" t ON t."campaignId" = p."campaignId" AND t.number = ${state.turn}
       WHERE p."campaignId" = ${campaignId} AND p.key = ${power}`;
    if (!row?.turnId || row.status !== 'open') throw new UseCaseError('conflict', TURN.notOpen, `turn ${state.turn} is not open for orders`);
    await refuseWhenOver(tx, campaignId, 'orders');
    const { turnId, powerId } = row as { turnId: string; powerId: string };
    // The latest set wins (an equal time is not older), with one writer per power at a time:
    // "store_order_set" (migration 20261204110000_store_order_set), as mail in does.
    const orderSetId = randomUUID();
    const rawText = text.split(/\r?\n/).map((l) => maskPassword(l, parsed.header.password)).join('\n');
    const [stored] = await tx.$queryRaw<{ current: boolean }[]>`
      SELECT "store_order_set"(${orderSetId}, ${campaignId}, ${turnId}, ${powerId}, ${power}, ${rawText}, ${input.source}::"OrderSource",
        ${receivedAt.toISOString().replace('Z', '')}::timestamp(3), ${parsed.orders === null ? null : JSON.stringify(parsed.orders)}::jsonb,
        ${JSON.stringify(errors)}::jsonb, ${JSON.stringify(warnings)}::jsonb, ${ready}, ${input.inboundId ?? null}, ${input.actor ?? null}::text) AS current`;
    const done: OrdersCheck = {
      orderSetId, turn: state.turn, power, status: ready ? 'ready' as const : 'has_errors' as const, current: stored!.current,
      errors, warnings, lines: parsed.lines, preview,
    };
    return done;
  });
  if (check.status === 'ready' && check.current) ordersReady(campaignId);
  // Despatches beside the orders are sent as by mail, each confirmed or refused by its line
  // (SPEC §3, "Blocks beside the orders"; mail in sends its own: src/inbound/handle.ts).
  const despatchBlocks = parsed.blocks.filter((b) => b.kind === 'despatch');
  if (despatchBlocks.length > 0 && input.source !== 'email') {
    const sent = await sendDespatchBlocks(db, campaignId, power, despatchBlocks, { source: input.source });
    check.despatches = sent.map((r) => !r.ok ? despatchRefusedLine(r.line, r.message)
      : r.despatch.already ? despatchAlreadySentLine(r.line, r.despatch.recipientNames)
        : despatchSentLine(r.line, r.despatch.recipientNames, r.despatch.delivery, r.despatch.turn, r.despatch.grey, r.despatch.awaitsGm));
  }
  // ABSENT lines and STANDING ORDERS blocks beside the orders are carried out as by mail,
  // each confirmed or refused by its line (docs/absences.md; mail in carries out its own).
  const absenceBlocks = parsed.blocks.filter(isAbsenceBlock);
  if (absenceBlocks.length > 0 && input.source !== 'email') {
    const done = await absenceBlocksByMail(db, campaignId, power, absenceBlocks, input.actor ?? input.source);
    check.absences = done.map((r) => absenceBlockLines(r).join('\n'));
  }
  return { check, state };
}

/** A text of absence blocks only, refused here as no order set; the web form and the API carry it out (sendOrders.ts). */
export class BlocksOnlyText extends UseCaseError {
  constructor(readonly blocks: Block[], readonly turn: number, message: string) {
    super('unprocessable', ORDERS.blocksOnly, message, [{ path: 'text', message }]);
  }
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

/**
 * The check's warnings: the parser's, and each plotted fleet that ends a phase where a
 * warring enemy was last seen (said, never refused). The same for a stored set and the web form's Check.
 */
export function checkWarnings(
  state: CampaignState, power: string,
  parsed: { warnings: OrderMessage[]; orders: { fleets: { fleetId: string; lines?: number[] }[] } | null },
  preview: Parameters<typeof knownEnemyMeetings>[2],
): OrderMessage[] {
  const enemyWarnings: OrderMessage[] = knownEnemyMeetings(state, power, preview).map((m) => ({
    line: parsed.orders?.fleets.find((f) => f.fleetId === m.fleetId)?.lines?.[0] ?? 0, code: ORDERS.knownEnemy, severity: 'warning' as const,
    message: knownEnemyWarning(m, {
      fleet: (id) => state.fleets.find((f) => f.id === id)?.name ?? id,
      node: (id) => state.nodes.find((nd) => nd.id === id)?.name ?? id,
      power: (k) => state.powers.find((x) => x.key === k)?.name ?? k,
    }),
  }));
  return [...parsed.warnings, ...enemyWarnings].sort((a, b) => a.line - b.line);
}
