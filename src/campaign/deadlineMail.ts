/**
 * Deadline mail: a notice to every player when the GM sets or extends the deadline, and
 * a reminder, a set time before it, to each power that has no clean orders yet. Both go
 * through the mail queue; a reminder is queued once per power and deadline.
 */
import type { Database } from '../db/client.js';
import type { Tx } from '../db/campaignStore.js';
import { enqueueMail, replyToOrders } from '../mail/enqueue.js';
import { queueNotices } from '../webhooks/enqueue.js';
import { campaignUrl, ordersHelp, ordersHelpText } from '../words/ordersHelp.js';

const REMINDER_HEADER = 'X-Sasg-Reminder';

/** How to send orders, with this player's power filled in and the deadline in their time zone. */
function help(slug: string, power: string, turn: number, deadline: Date, timeZone: string) {
  const h = ordersHelp({
    campaignSlug: slug, power, turn, deadline, timeZone,
    ordersAddress: process.env.ORDERS_ADDRESS ?? null, webUrl: campaignUrl(process.env.PUBLIC_URL, slug, 'orders'),
  });
  return { when: h.deadline!, text: ordersHelpText(h) };
}

/** To every player of the campaign: the open turn's deadline was set, extended or moved. */
export async function queueDeadlineNotice(tx: Tx, campaignId: string, turn: number, deadline: Date, action: string): Promise<number> {
  const campaign = await tx.campaign.findUniqueOrThrow({
    where: { id: campaignId },
    select: { name: true, slug: true, players: { select: { email: true, name: true, timeZone: true, power: { select: { key: true, name: true } } } } },
  });
  const verb = action === 'turn.deadline_extended' ? 'has been extended' : action === 'turn.deadline_set' ? 'is set' : 'has been changed';
  for (const p of campaign.players) {
    const h = help(campaign.slug, p.power.key, turn, deadline, p.timeZone);
    await enqueueMail(tx, {
      campaignId, to: p.email,
      subject: `${campaign.name}: the deadline for turn ${turn} ${verb}`,
      text: `Dear ${p.name},\n\nThe deadline for turn ${turn} of ${campaign.name} ${verb}: orders from ${p.power.name} are due by ${h.when}.\n\n${h.text}\n`,
      headers: { 'Auto-Submitted': 'auto-generated', ...replyToOrders() },
    });
  }
  return campaign.players.length;
}

/**
 * Queue reminders for every open turn whose deadline falls within `hoursBefore` of `now`
 * and has not passed, to each power whose current orders are missing or have errors (unless
 * its player chose no reminders: Player.mailReminders), and once per turn and deadline to
 * the campaign's webhooks: which powers have sent orders, by name (docs/notifications.md).
 */
export async function queueReminders(db: Database, now: Date, hoursBefore: number): Promise<number> {
  const horizon = new Date(now.getTime() + hoursBefore * 3_600_000);
  const turns = await db.prisma.turn.findMany({
    where: { status: 'open', deadline: { gt: now, lte: horizon }, campaign: { pausedAt: null, winner: null, endedAt: null } },
    include: { campaign: { select: { name: true, slug: true, players: { include: { power: { select: { id: true, key: true, name: true } } } }, powers: { where: { playable: true }, select: { id: true, name: true }, orderBy: { position: 'asc' } } } } },
  });
  let queued = 0;
  for (const turn of turns) {
    const ready = new Set((await db.prisma.orderSet.findMany({ where: { turnId: turn.id, current: true, ready: true }, select: { powerId: true } })).map((s) => s.powerId));
    const powers = turn.campaign.powers;
    // The table hears it while some power's orders are still awaited.
    if (powers.some((p) => !ready.has(p.id))) await db.prisma.$transaction((tx) => queueNotices(tx, turn.campaignId, [{
      occasion: `deadline-reminder:${turn.id}:${turn.deadline!.toISOString()}`,
      notice: {
        event: 'deadline-reminder', campaign: turn.campaign.name, slug: turn.campaign.slug, turn: turn.number, deadline: turn.deadline!.toISOString(),
        ordersIn: powers.filter((p) => ready.has(p.id)).map((p) => p.name), waitingFor: powers.filter((p) => !ready.has(p.id)).map((p) => p.name),
        path: `/c/${turn.campaign.slug}/orders`,
      },
    }]));
    for (const player of turn.campaign.players) {
      if (ready.has(player.power.id) || !player.mailReminders) continue;
      const key = `${turn.id}:${player.power.key}:${turn.deadline!.toISOString()}`;
      await db.prisma.$transaction(async (tx) => {
        const already = await tx.outgoingMail.findFirst({ where: { campaignId: turn.campaignId, headers: { path: [REMINDER_HEADER], equals: key } } });
        if (already) return;
        const h = help(turn.campaign.slug, player.power.key, turn.number, turn.deadline!, player.timeZone);
        await enqueueMail(tx, {
          campaignId: turn.campaignId, to: player.email,
          subject: `${turn.campaign.name}: reminder, orders for turn ${turn.number} are due by ${h.when}`,
          text: `Dear ${player.name},\n\nWe have no clean orders from ${player.power.name} for turn ${turn.number} yet. They are due by ${h.when}; without them your fleets hold and your mission stands.\n\n${h.text}\n`,
          headers: { 'Auto-Submitted': 'auto-generated', [REMINDER_HEADER]: key, ...replyToOrders() },
        });
        queued++;
      });
    }
  }
  return queued;
}
