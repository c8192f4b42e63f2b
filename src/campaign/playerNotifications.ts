/**
 * A player's notification settings (their settings page, docs/notifications.md): which mails
 * they get (a reminder before each deadline, or none; the whole turn report, or a notice with
 * a link), and one personal webhook of their own (a Discord DM channel, a Slack channel,
 * their own JSON endpoint) that hears their private notices: orders received, report ready.
 */
import type { Database } from '../db/client.js';
import { PERSONAL_EVENTS } from '../webhooks/events.js';
import { newSecret } from '../webhooks/sign.js';
import { listCampaignWebhooks, testWebhook, type WebhookShown } from './campaignWebhooks.js';
import { NOTIFY, UseCaseError, notFound } from './errors.js';
import { checkKind, checkTarget } from './webhookInput.js';

export const REPORT_CHOICES = ['report', 'notice'] as const;

export interface Notifications {
  mailReminders: boolean;
  mailReports: (typeof REPORT_CHOICES)[number];
  webhook: WebhookShown | null;
}

async function playerOf(db: Database, campaignId: string, power: string) {
  const p = await db.prisma.player.findFirst({ where: { campaignId, power: { key: power } }, select: { id: true, mailReminders: true, mailReports: true } });
  if (!p) throw notFound('player');
  return p;
}

export async function notificationsOf(db: Database, campaignId: string, power: string): Promise<Notifications> {
  const p = await playerOf(db, campaignId, power);
  const [webhook] = await listCampaignWebhooks(db, campaignId, p.id);
  return { mailReminders: p.mailReminders, mailReports: p.mailReports === 'notice' ? 'notice' : 'report', webhook: webhook ?? null };
}

export async function setMailChoices(db: Database, campaignId: string, power: string, choice: { mailReminders?: boolean; mailReports?: string }): Promise<Notifications> {
  if (choice.mailReports !== undefined && !(REPORT_CHOICES as readonly string[]).includes(choice.mailReports)) {
    throw new UseCaseError('bad_request', NOTIFY.badChoice, `mailReports must be "report" (the whole report by mail) or "notice" (a notice with a link), not "${choice.mailReports}"`, [{ path: 'mailReports', message: 'report or notice' }]);
  }
  const p = await playerOf(db, campaignId, power);
  await db.prisma.player.update({
    where: { id: p.id },
    data: { ...(choice.mailReminders !== undefined ? { mailReminders: choice.mailReminders } : {}), ...(choice.mailReports !== undefined ? { mailReports: choice.mailReports } : {}) },
  });
  return notificationsOf(db, campaignId, power);
}

/** Set (or replace) the player's personal webhook; it receives every personal event. */
export async function setPersonalWebhook(db: Database, campaignId: string, power: string, input: { kind: string; url: string }): Promise<Notifications> {
  const kind = checkKind(input.kind);
  const url = checkTarget(input.url);
  const p = await playerOf(db, campaignId, power);
  await db.prisma.$transaction(async (tx) => {
    await tx.webhook.deleteMany({ where: { campaignId, playerId: p.id } });
    await tx.webhook.create({ data: { campaignId, playerId: p.id, kind, url, events: [...PERSONAL_EVENTS], secret: kind === 'json' ? newSecret() : null } });
  });
  return notificationsOf(db, campaignId, power);
}

export async function removePersonalWebhook(db: Database, campaignId: string, power: string): Promise<Notifications> {
  const p = await playerOf(db, campaignId, power);
  await db.prisma.webhook.deleteMany({ where: { campaignId, playerId: p.id } });
  return notificationsOf(db, campaignId, power);
}

export async function testPersonalWebhook(db: Database, campaignId: string, power: string): Promise<string> {
  const p = await playerOf(db, campaignId, power);
  const hook = await db.prisma.webhook.findFirst({ where: { campaignId, playerId: p.id }, select: { id: true } });
  if (!hook) throw notFound('personal webhook');
  return testWebhook(db, campaignId, hook.id, p.id);
}
