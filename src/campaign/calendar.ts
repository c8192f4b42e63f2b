/**
 * The calendar feed of a campaign's deadlines (ICS, written by ical-generator), one per
 * player and one for the GM, at a secret address (/ical/<token>.ics; src/campaign/
 * timeZones.ts makes the token). One event per turn that has a deadline, its UID fixed
 * per campaign and turn so calendar apps update it when the GM moves the deadline; an
 * alarm the day before, when the reminder mail goes out.
 *
 * Times are written in UTC ("…Z"): a TZID needs a VTIMEZONE definition to be read the
 * same everywhere, a UTC time never does, and every calendar app shows it in the
 * reader's own zone. The calendar names the reader's zone (X-WR-TIMEZONE) and each
 * event's description gives the time in it, in words.
 *
 * A player's feed says nothing of other powers: only the turns, their deadlines and
 * whether the turn is open, and the battles their power fought that await a result: each
 * battle's result deadline and, once both sides agreed one, its table date (battleDesk.ts).
 * The GM's feed has every pending battle's.
 *
 * Every value goes through icsText.ts: no name can add a line to the feed.
 */
import ical, { ICalAlarmType } from 'ical-generator';
import type { Database } from '../db/client.js';
import { standInLasts } from './standInLasts.js';
import { campaignUrl } from '../words/ordersHelp.js';
import { formatDeadline } from '../words/time.js';
import { checkedFeed, icsLine, icsRawText } from './icsText.js';
import { battleDesks } from './battleDesk.js';
import { FALLBACK_WORDS } from '../words/battleDesk.js';

/** Hours before the deadline of the calendar's alarm: the scheduler's reminder (24 h by default). */
export const CALENDAR_ALARM_HOURS = 24;

/** Tokens are 32 base64url characters (timeZones.ts); anything else is not looked up. */
const TOKEN = /^[A-Za-z0-9_-]{20,64}$/;

interface FeedReader {
  campaignId: string;
  label: string;
  powerKey: string | null;
  timeZone: string;
}

async function readerOf(db: Database, token: string): Promise<FeedReader | null> {
  if (!TOKEN.test(token)) return null;
  const player = await db.prisma.player.findUnique({ where: { calendarToken: token }, select: { campaignId: true, timeZone: true, power: { select: { key: true, name: true } } } });
  if (player) return { campaignId: player.campaignId, label: player.power.name, powerKey: player.power.key, timeZone: player.timeZone };
  // A stand-in's own address (docs/absences.md): only while the stand-in lasts.
  const standIn = await db.prisma.standIn.findUnique({
    where: { calendarToken: token },
    select: { campaignId: true, endedAt: true, absence: { select: { toDay: true, cancelledAt: true } }, power: { select: { key: true, name: true, player: { select: { timeZone: true } } } } },
  });
  if (standIn) {
    const timeZone = standIn.power.player?.timeZone ?? 'UTC';
    if (!standInLasts({ toDay: standIn.absence.toDay, cancelledAt: standIn.absence.cancelledAt, endedAt: standIn.endedAt, timeZone })) return null;
    return { campaignId: standIn.campaignId, label: standIn.power.name, powerKey: standIn.power.key, timeZone };
  }
  const gm = await db.prisma.campaign.findUnique({ where: { gmCalendarToken: token }, select: { id: true, gmTimeZone: true } });
  if (gm) return { campaignId: gm.id, label: 'GM', powerKey: null, timeZone: gm.gmTimeZone };
  return null;
}

/** The feed's text, or null for a token nobody has (the route answers 404). */
export async function calendarFeed(db: Database, token: string, publicUrl?: string | null): Promise<string | null> {
  const reader = await readerOf(db, token);
  if (!reader) return null;
  const campaign = await db.prisma.campaign.findUniqueOrThrow({
    where: { id: reader.campaignId },
    select: { id: true, name: true, slug: true, turns: { where: { deadline: { not: null } }, orderBy: { number: 'asc' }, select: { number: true, status: true, deadline: true, graceMinutes: true } } },
  });
  const gm = reader.powerKey === null;
  const name = icsLine(campaign.name);
  const label = icsLine(reader.label);
  const cal = ical({
    name: icsRawText(`${name}: deadlines (${label})`),
    prodId: { company: 'Steady as She Goes', product: 'deadlines', language: 'EN' },
    x: [{ key: 'X-WR-TIMEZONE', value: icsRawText(reader.timeZone) }],
    ttl: 60 * 60,
  });
  const url = campaignUrl(publicUrl, campaign.slug, gm ? 'gm' : 'orders');
  for (const t of campaign.turns) {
    const deadline = t.deadline!;
    const when = formatDeadline(deadline, reader.timeZone);
    const lines = [
      `Orders for turn ${t.number} of ${name} are due by ${when}.`,
      t.status === 'open' ? 'The turn is open for orders.' : 'The turn has been resolved.',
      ...(gm && t.graceMinutes ? [`Grace: ${t.graceMinutes} minutes after the deadline.`] : []),
      ...(url ? [url] : []),
    ].map(icsLine);
    cal.createEvent({
      id: `${campaign.id}-turn-${t.number}@sasg`,
      start: deadline,
      end: new Date(deadline.getTime() + 30 * 60_000),
      summary: gm ? `${name}: turn ${t.number} deadline` : `${name}: orders for turn ${t.number} due (${label})`,
      description: lines.join('\n'),
      ...(url ? { url: icsLine(url) } : {}),
      alarms: t.status === 'open'
        ? [{ type: ICalAlarmType.display, trigger: CALENDAR_ALARM_HOURS * 3600, description: `Orders for turn ${t.number} are due in ${CALENDAR_ALARM_HOURS} hours` }]
        : [],
    });
  }
  const desks = await battleDesks(db.prisma, campaign.id, gm ? { role: 'gm' } : { role: 'player', power: reader.powerKey! });
  for (const d of desks) {
    const place = icsLine(d.place);
    const sides = d.powers.map((p) => icsLine(p.name)).join(' against ');
    cal.createEvent({
      id: `${campaign.id}-battle-${icsLine(d.key)}-deadline@sasg`,
      start: d.deadline,
      end: new Date(d.deadline.getTime() + 30 * 60_000),
      summary: `${name}: result of the battle at ${place} due`,
      description: [`The result of battle ${icsLine(d.key)} at ${place} (turn ${d.turn}, ${sides}) is due by ${formatDeadline(d.deadline, reader.timeZone)}.`,
        `If none is in by then, ${FALLBACK_WORDS[d.fallback]}.`].join('\n'),
    });
    if (d.tableDate) {
      cal.createEvent({
        id: `${campaign.id}-battle-${icsLine(d.key)}-table@sasg`,
        start: d.tableDate,
        end: new Date(d.tableDate.getTime() + 3 * 3_600_000),
        summary: `${name}: the battle at ${place} at the table`,
        description: `Battle ${icsLine(d.key)} at ${place} (turn ${d.turn}): ${sides}, as both sides agreed, ${formatDeadline(d.tableDate, reader.timeZone)}.`,
        alarms: [{ type: ICalAlarmType.display, trigger: 24 * 3600, description: `The battle at ${place} is fought tomorrow` }],
      });
    }
  }
  return checkedFeed(cal.toString());
}
