// Time zones and calendar feeds through the API: a player or the GM sets their zone
// (checked, audited for the GM), each gets a secret feed of the deadlines (ICS), which
// shows nothing of other powers, and a wrong or rotated address is a 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let app: App;
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
let c: { id: string; gm: string; pw: Record<string, string> };

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: { PUBLIC_URL: 'https://sasg.test' } });
  const scenario = (await app.inject({ url: '/api/scenarios/caribbean' })).json();
  const made = (await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario, seed: 'calendar' } })).json();
  const pw: Record<string, string> = {};
  for (const power of ['british', 'french', 'american']) {
    pw[power] = (await app.inject({ method: 'PUT', url: `/api/campaigns/${made.id}/players/${power}`, headers: auth(made.gmToken), payload: { name: power, email: `${power}@example.org` } })).json().password;
  }
  c = { id: made.id, gm: made.gmToken, pw };
}, 120_000);
afterAll(async () => { await app?.close(); await db?.destroy(); });

/** Unfold ICS lines (RFC 5545 §3.1) and read the VEVENTs' properties. */
function events(ics: string): Record<string, string>[] {
  const lines = ics.replace(/\r\n[ \t]/g, '').split(/\r\n/);
  const out: Record<string, string>[] = [];
  let cur: Record<string, string> | null = null;
  for (const l of lines) {
    if (l === 'BEGIN:VEVENT') cur = {};
    else if (l === 'END:VEVENT') { out.push(cur!); cur = null; } else if (cur && !cur.inAlarm) {
      if (l === 'BEGIN:VALARM') { cur.ALARM = 'yes'; continue; }
      const m = /^([A-Z-]+)(?:;[^:]*)?:(.*)$/.exec(l);
      if (m && !(m[1]! in cur)) cur[m[1]!] = m[2]!;
    }
  }
  return out;
}

describe('time zones', () => {
  it('a player sets their own zone; an unknown zone is a 400 naming the field; another power\'s is refused', async () => {
    const put = (power: string, token: string, timeZone: string) => app.inject({ method: 'PUT', url: `/api/campaigns/${c.id}/players/${power}/timezone`, headers: auth(token), payload: { timeZone } });
    const ok = await put('british', c.pw.british!, 'europe/paris');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ power: 'british', timeZone: 'Europe/Paris' });
    const bad = await put('british', c.pw.british!, 'Mars/Olympus_Mons');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().problems[0].path).toBe('timeZone');
    expect(bad.json().message).toContain('Mars/Olympus_Mons');
    expect((await put('french', c.pw.british!, 'UTC')).statusCode).toBe(403);
    // The GM may set it for a player: audited.
    expect((await put('american', c.gm, 'America/New_York')).statusCode).toBe(200);
    const audit = await db.prisma.auditEntry.findMany({ where: { campaignId: c.id, action: 'player.time_zone' } });
    expect(audit.map((a) => a.details)).toEqual([{ power: 'american', old: 'UTC', new: 'America/New_York' }]);
  });

  it('the GM sets their own zone (GM only, audited)', async () => {
    const put = (token: string) => app.inject({ method: 'PUT', url: `/api/campaigns/${c.id}/gm/timezone`, headers: auth(token), payload: { timeZone: 'Asia/Tokyo' } });
    expect((await put(c.pw.british!)).statusCode).toBe(403);
    expect((await put(c.gm)).json()).toEqual({ timeZone: 'Asia/Tokyo' });
    expect(await db.prisma.auditEntry.count({ where: { campaignId: c.id, action: 'campaign.gm_time_zone' } })).toBe(1);
    const doc = (await app.inject({ url: '/docs/json' })).json();
    expect(doc.paths['/api/campaigns/{id}/players/{power}/timezone'].put.requestBody.content['application/json'].schema.properties.timeZone).toBeDefined();
  });
});

describe('the calendar feed', () => {
  it('lists each turn deadline with a stable UID, in UTC, and shows a player nothing of the other powers', async () => {
    const deadline = '2031-06-01T18:00:00.000Z';
    expect((await app.inject({ method: 'PUT', url: `/api/campaigns/${c.id}/turns/current/deadline`, headers: auth(c.gm), payload: { deadline } })).statusCode).toBe(200);
    const mine = (await app.inject({ url: `/api/campaigns/${c.id}/calendar`, headers: auth(c.pw.british!) })).json();
    expect(mine.timeZone).toBe('Europe/Paris');
    expect(mine.feedUrl).toMatch(/^https:\/\/sasg\.test\/ical\/[A-Za-z0-9_-]{32}\.ics$/);
    const path = new URL(mine.feedUrl).pathname;
    const res = await app.inject({ url: path });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/calendar/);
    const ics = res.body;
    expect(ics).toContain('X-WR-TIMEZONE:Europe/Paris');
    const [ev, ...more] = events(ics);
    expect(more).toEqual([]);
    expect(ev!.DTSTART).toBe('20310601T180000Z');
    expect(ev!.UID).toBe(`${c.id}-turn-1@sasg`);
    expect(ev!.SUMMARY).toContain('orders for turn 1 due (Great Britain)');
    // The description gives the time in the reader's zone: 20:00 in Paris in summer.
    expect(ev!.DESCRIPTION).toContain('Sunday\\, 1 June 2031 at 20:00 CEST (Europe/Paris)');
    expect(ev!.ALARM).toBe('yes');
    for (const other of ['France', 'United States', 'french', 'american', c.pw.french!, c.pw.american!]) expect(ics).not.toContain(other);

    // Moving the deadline keeps the UID (calendar apps update the event).
    await app.inject({ method: 'PUT', url: `/api/campaigns/${c.id}/turns/current/deadline`, headers: auth(c.gm), payload: { deadline: '2031-06-02T18:00:00.000Z' } });
    const moved = events((await app.inject({ url: path })).body);
    expect(moved.map((e) => [e.UID, e.DTSTART])).toEqual([[`${c.id}-turn-1@sasg`, '20310602T180000Z']]);

    // The same address again; a new one on rotation, and the old one is then a 404.
    expect((await app.inject({ url: `/api/campaigns/${c.id}/calendar`, headers: auth(c.pw.british!) })).json().feedUrl).toBe(mine.feedUrl);
    const rotated = (await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/calendar/rotate`, headers: auth(c.pw.british!) })).json();
    expect(rotated.feedUrl).not.toBe(mine.feedUrl);
    expect((await app.inject({ url: path })).statusCode).toBe(404);
    expect((await app.inject({ url: new URL(rotated.feedUrl).pathname })).statusCode).toBe(200);
  });

  it('a wrong token is a 404; the GM has a feed of their own in their zone', async () => {
    expect((await app.inject({ url: '/ical/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/ical/nothing' })).statusCode).toBe(404);
    const gm = (await app.inject({ url: `/api/campaigns/${c.id}/calendar`, headers: auth(c.gm) })).json();
    expect(gm.timeZone).toBe('Asia/Tokyo');
    const ics = (await app.inject({ url: new URL(gm.feedUrl).pathname })).body;
    expect(ics).toContain('X-WR-TIMEZONE:Asia/Tokyo');
    expect(events(ics)[0]!.SUMMARY).toContain('turn 1 deadline');
    expect((await app.inject({ url: `/api/campaigns/${c.id}/calendar` })).statusCode).toBe(401);
  });
  it('a replaced player\'s calendar address stops working; the new player starts in UTC', async () => {
    const old = (await app.inject({ url: `/api/campaigns/${c.id}/calendar`, headers: auth(c.pw.american!) })).json();
    expect(old.timeZone).toBe('America/New_York');
    expect((await app.inject({ url: new URL(old.feedUrl).pathname })).statusCode).toBe(200);
    const replaced = await app.inject({ method: 'PUT', url: `/api/campaigns/${c.id}/players/american`, headers: auth(c.gm), payload: { name: 'new', email: 'new@example.org' } });
    expect(replaced.statusCode).toBe(200);
    expect((await app.inject({ url: new URL(old.feedUrl).pathname })).statusCode).toBe(404);
    const fresh = (await app.inject({ url: `/api/campaigns/${c.id}/calendar`, headers: auth(replaced.json().password) })).json();
    expect(fresh.timeZone).toBe('UTC');
    expect(fresh.feedUrl).not.toBe(old.feedUrl);
  });
});
