/**
 * The GM names a stand-in for an absent player (docs/absences.md): an email address that gets
 * a welcome mail and a password of its own (only its hash is kept), and plots for the power
 * until the absence ends. Named for one absence, in force or to come; naming another stand-in
 * for the same absence ends the first. The welcome mail counts against the invitation limits,
 * and is queued with the stand-in in one transaction: a refusal changes nothing.
 */
import { randomBytes } from 'node:crypto';
import type { Database } from '../db/client.js';
import { loadState } from '../db/campaignStore.js';
import { enqueueMail, replyToOrders } from '../mail/enqueue.js';
import { renderWelcome } from '../mail/render/index.js';
import { monthOf } from '../rules/common.js';
import { viewFor } from '../rules/view.js';
import { campaignUrl } from '../words/ordersHelp.js';
import { dayIn } from './absenceDays.js';
import { STANDIN, UseCaseError, notFound } from './errors.js';
import { countInvitations, invitationLimits, prismaQuery, type InvitationLimits } from './invitations.js';
import { checkPlayerEmail } from './playerName.js';
import { hashPassword, newPassword } from './secrets.js';

export interface StandInNamed { id: string; power: string; powerName: string; email: string; password: string; absence: string; until: string; calendar: boolean }

export async function nameStandIn(
  db: Database, campaignId: string, powerKey: string, input: { email: string; absence?: string | null }, actor = 'gm',
  limits: InvitationLimits = invitationLimits(), now: Date = new Date(),
): Promise<StandInNamed> {
  const email = checkPlayerEmail(input.email).toLowerCase();
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new UseCaseError('bad_request', STANDIN.badEmail, 'the stand-in\'s email address must be written like name@example.org');
  const power = await db.prisma.power.findUnique({
    where: { campaignId_key: { campaignId, key: powerKey } },
    select: { id: true, name: true, player: { select: { name: true, email: true, timeZone: true, calendarToken: true } } },
  });
  if (!power?.player) throw notFound(`the player of '${powerKey}' in this campaign`);
  if (email === power.player.email.trim().toLowerCase()) throw new UseCaseError('bad_request', STANDIN.samePerson, 'that is the absent player\'s own address: a stand-in is someone else');
  const today = dayIn(now, power.player.timeZone);
  const absences = await db.prisma.absence.findMany({
    where: { campaignId, powerId: power.id, cancelledAt: null, toDay: { gte: today }, ...(input.absence ? { id: input.absence } : {}) },
    orderBy: { fromDay: 'asc' }, select: { id: true, fromDay: true, toDay: true },
  });
  const absence = absences[0];
  if (!absence) {
    throw new UseCaseError('conflict', STANDIN.noAbsence, input.absence
      ? `${power.name} has no absence ${input.absence} in force or to come: a stand-in is named for one`
      : `${power.name}'s player has filed no absence in force or to come: a stand-in is named for one (the player files it, or the GM files it for them)`);
  }
  const password = newPassword();
  const passwordHash = await hashPassword(password);
  const state = await loadState(db.prisma, campaignId);
  const campaign = await db.prisma.campaign.findUniqueOrThrow({ where: { id: campaignId }, select: { slug: true } });
  const turn = await db.prisma.turn.findUnique({ where: { campaignId_number: { campaignId, number: state.turn } }, select: { deadline: true } });
  const welcome = await renderWelcome({
    campaignName: state.name, campaignSlug: campaign.slug, power: powerKey, playerName: email, password,
    deadline: turn?.deadline ?? null, view: viewFor(state, powerKey), date: monthOf(state, state.turn), timeZone: power.player.timeZone,
    ordersAddress: process.env.ORDERS_ADDRESS ?? null, webUrl: campaignUrl(process.env.PUBLIC_URL, campaign.slug, 'login'),
    standIn: { forPlayer: power.player.name, until: absence.toDay },
  });
  // Their own calendar address, when the player has one: the player's keeps working for the player.
  const calendarToken = power.player.calendarToken ? randomBytes(24).toString('base64url') : null;
  return db.prisma.$transaction(async (tx) => {
    await countInvitations(prismaQuery(tx), campaignId, [email], limits, now);
    // One stand-in an absence: an earlier one ends, signed out everywhere.
    const earlier = await tx.standIn.findMany({ where: { absenceId: absence.id, endedAt: null }, select: { id: true } });
    if (earlier.length > 0) {
      await tx.standIn.updateMany({ where: { id: { in: earlier.map((e) => e.id) } }, data: { endedAt: now, calendarToken: null } });
      await tx.webSession.deleteMany({ where: { standInId: { in: earlier.map((e) => e.id) } } });
    }
    const made = await tx.standIn.create({ data: { campaignId, powerId: power.id, absenceId: absence.id, email, passwordHash, calendarToken, createdAt: now } });
    await enqueueMail(tx, {
      campaignId, to: email, subject: welcome.subject, text: welcome.text, html: welcome.html, attachments: welcome.attachments,
      headers: { 'Auto-Submitted': 'auto-generated', ...replyToOrders() }, secrets: [password],
    });
    await tx.auditEntry.create({ data: { campaignId, actor, action: 'standin.named', details: { power: powerKey, email, from: absence.fromDay, to: absence.toDay, ended: earlier.length } } });
    return { id: made.id, power: powerKey, powerName: power.name, email, password, absence: absence.id, until: absence.toDay, calendar: calendarToken !== null };
  });
}
