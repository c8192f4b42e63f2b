/**
 * Add or replace the player of a power. The password is returned once and stored only
 * as a hash; replacing a player invalidates the old password at once. The name is checked
 * (playerName.ts) and the welcome mail counted against the invitation limits
 * (invitations.ts) before anything is written: a refusal changes nothing.
 */
import type { Database } from '../db/client.js';
import { loadState } from '../db/campaignStore.js';
import { enqueueMail, replyToOrders } from '../mail/enqueue.js';
import { renderWelcome } from '../mail/render/index.js';
import { monthOf } from '../rules/common.js';
import { viewFor } from '../rules/view.js';
import { campaignUrl } from '../words/ordersHelp.js';
import { PLAYER, UseCaseError, notFound } from './errors.js';
import { countInvitations, invitationLimits, prismaQuery, type InvitationLimits } from './invitations.js';
import { checkPlayerEmail, checkPlayerName } from './playerName.js';
import { hashPassword, newPassword } from './secrets.js';

export interface PlayerInput {
  name: string;
  email: string;
  /** Chosen by the GM; a random one is made when absent. */
  password?: string;
}

export interface PlayerCreated {
  power: string;
  name: string;
  email: string;
  password: string;
  replaced: boolean;
}

export async function setPlayer(db: Database, campaignId: string, powerKey: string, given: PlayerInput, actor = 'gm', limits: InvitationLimits = invitationLimits()): Promise<PlayerCreated> {
  const input = { ...given, name: checkPlayerName(given.name), email: checkPlayerEmail(given.email) };
  const power = await db.prisma.power.findUnique({ where: { campaignId_key: { campaignId, key: powerKey } }, include: { player: true } });
  if (!power) throw notFound(`power '${powerKey}' in this campaign`);
  if (!power.playable) throw new UseCaseError('bad_request', PLAYER.notPlayable, `${power.name} is a neutral power and takes no player`);
  const password = input.password ?? newPassword();
  const passwordHash = await hashPassword(password);
  const replaced = power.player !== null;
  // The welcome mail goes into the queue with the player: power, password, how to send
  // orders, the deadline and a map of their view. It is drawn before the transaction (the
  // PNG map takes a while) so the transaction stays short.
  const state = await loadState(db.prisma, campaignId);
  const campaign = await db.prisma.campaign.findUniqueOrThrow({ where: { id: campaignId }, select: { slug: true } });
  const turn = await db.prisma.turn.findUnique({ where: { campaignId_number: { campaignId, number: state.turn } }, select: { deadline: true } });
  const welcome = await renderWelcome({
    campaignName: state.name, campaignSlug: campaign.slug, power: powerKey, playerName: input.name, password,
    deadline: turn?.deadline ?? null, view: viewFor(state, powerKey), date: monthOf(state, state.turn),
    ordersAddress: process.env.ORDERS_ADDRESS ?? null, webUrl: campaignUrl(process.env.PUBLIC_URL, campaign.slug, 'login'),
  });
  await db.prisma.$transaction(async (tx) => {
    await countInvitations(prismaQuery(tx), campaignId, [input.email], limits);
    await tx.player.upsert({
      where: { powerId: power.id },
      create: { campaignId, powerId: power.id, name: input.name, email: input.email, passwordHash },
      // A new person: the old player's calendar address stops working, and the zone starts at UTC.
      update: { name: input.name, email: input.email, passwordHash, missedTurns: 0, replacedAt: new Date(), calendarToken: null, timeZone: 'UTC' },
    });
    // The replaced player is signed out of the web pages at once, on every instance; their
    // absences and standing orders were theirs, not the new player's (docs/absences.md).
    if (power.player) {
      await tx.webSession.deleteMany({ where: { playerId: power.player.id } });
      await tx.absence.deleteMany({ where: { powerId: power.id } });
      await tx.standingOrders.deleteMany({ where: { powerId: power.id } });
    }
    await enqueueMail(tx, {
      campaignId, to: input.email, subject: welcome.subject, text: welcome.text, html: welcome.html, attachments: welcome.attachments,
      headers: { 'Auto-Submitted': 'auto-generated', ...replyToOrders() }, secrets: [password],
    });
    await tx.auditEntry.create({
      data: { campaignId, actor, action: replaced ? 'player.replaced' : 'player.added', details: { power: powerKey, name: input.name, email: input.email } },
    });
  });
  return { power: powerKey, name: input.name, email: input.email, password, replaced };
}
