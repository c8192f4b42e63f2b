/**
 * Each player and the GM read deadlines in their own time zone (an IANA name, UTC until
 * they set one), and each has a calendar feed of the deadlines at a secret address. The
 * secret is a random id (192 bits), made the first time the reader asks for it; rotating
 * it makes the old address a 404 at once.
 */
import { randomBytes } from 'node:crypto';
import type { Database } from '../db/client.js';
import type { Reader } from '../rules/view.js';
import { canonicalTimeZone } from '../words/time.js';
import { TIME_ZONE, UseCaseError, notFound } from './errors.js';

export function checkTimeZone(name: string, field = 'timeZone'): string {
  const zone = canonicalTimeZone(name);
  if (!zone) {
    throw new UseCaseError('bad_request', TIME_ZONE.unknown,
      `'${name.slice(0, 64)}' is not a time zone we know: give an IANA name such as Europe/London, America/New_York or UTC`,
      [{ path: field, message: 'an IANA time zone name, e.g. Europe/London' }]);
  }
  return zone;
}

async function playerOf(db: Database, campaignId: string, power: string) {
  const player = await db.prisma.player.findFirst({ where: { campaignId, power: { key: power } }, select: { id: true, timeZone: true, calendarToken: true } });
  if (!player) throw notFound(`a player for power '${power}'`);
  return player;
}

/** The reader's zone: the player's, or the GM's. */
export async function timeZoneOf(db: Database, campaignId: string, reader: Reader): Promise<string> {
  if (reader.role === 'gm') {
    const c = await db.prisma.campaign.findUnique({ where: { id: campaignId }, select: { gmTimeZone: true } });
    if (!c) throw notFound('campaign');
    return c.gmTimeZone;
  }
  return (await playerOf(db, campaignId, reader.power)).timeZone;
}

/** Set a player's zone (the player, or the GM for them; the GM's change is audited). */
export async function setPlayerTimeZone(db: Database, campaignId: string, power: string, name: string, actor: 'gm' | 'player'): Promise<{ power: string; timeZone: string }> {
  const timeZone = checkTimeZone(name);
  const player = await playerOf(db, campaignId, power);
  await db.prisma.$transaction(async (tx) => {
    await tx.player.update({ where: { id: player.id }, data: { timeZone } });
    if (actor === 'gm') {
      await tx.auditEntry.create({ data: { campaignId, actor, action: 'player.time_zone', details: { power, old: player.timeZone, new: timeZone } } });
    }
  });
  return { power, timeZone };
}

/** Set the GM's own zone (audited). */
export async function setGmTimeZone(db: Database, campaignId: string, name: string): Promise<{ timeZone: string }> {
  const timeZone = checkTimeZone(name);
  await db.prisma.$transaction(async (tx) => {
    const c = await tx.campaign.findUnique({ where: { id: campaignId }, select: { gmTimeZone: true } });
    if (!c) throw notFound('campaign');
    await tx.campaign.update({ where: { id: campaignId }, data: { gmTimeZone: timeZone } });
    await tx.auditEntry.create({ data: { campaignId, actor: 'gm', action: 'campaign.gm_time_zone', details: { old: c.gmTimeZone, new: timeZone } } });
  });
  return { timeZone };
}

const newToken = () => randomBytes(24).toString('base64url');

/**
 * The reader's calendar secret: made on first use, or a new one with `rotate` (the old
 * address stops working). Made with a conditional update so two first requests agree.
 */
export async function calendarToken(db: Database, campaignId: string, reader: Reader & { standIn?: { id: string } }, rotate = false): Promise<string> {
  // A stand-in has an address of their own (docs/absences.md): the player's is never shown to them.
  if (reader.role !== 'gm' && reader.standIn) {
    const s = await db.prisma.standIn.findFirst({ where: { id: reader.standIn.id, campaignId }, select: { id: true, calendarToken: true } });
    if (!s) throw notFound('the stand-in');
    if (s.calendarToken && !rotate) return s.calendarToken;
    const token = newToken();
    const n = await db.prisma.standIn.updateMany({ where: { id: s.id, calendarToken: s.calendarToken }, data: { calendarToken: token } });
    return n.count === 1 ? token : calendarToken(db, campaignId, reader, false);
  }
  if (reader.role === 'gm') {
    const c = await db.prisma.campaign.findUnique({ where: { id: campaignId }, select: { gmCalendarToken: true } });
    if (!c) throw notFound('campaign');
    if (c.gmCalendarToken && !rotate) return c.gmCalendarToken;
    const token = newToken();
    const n = await db.prisma.campaign.updateMany({ where: { id: campaignId, gmCalendarToken: c.gmCalendarToken }, data: { gmCalendarToken: token } });
    return n.count === 1 ? token : calendarToken(db, campaignId, reader, false);
  }
  const p = await playerOf(db, campaignId, reader.power);
  if (p.calendarToken && !rotate) return p.calendarToken;
  const token = newToken();
  const n = await db.prisma.player.updateMany({ where: { id: p.id, calendarToken: p.calendarToken }, data: { calendarToken: token } });
  return n.count === 1 ? token : calendarToken(db, campaignId, reader, false);
}

/** "/ical/<token>.ics", absolute when PUBLIC_URL is set. */
export function calendarPath(token: string, publicUrl?: string | null): string {
  return `${publicUrl ? publicUrl.replace(/\/+$/, '') : ''}/ical/${token}.ics`;
}
