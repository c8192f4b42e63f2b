// The calendar feed cannot be injected. A one-line field (a campaign's, power's, port's,
// fleet's or player's name) with a control character is refused where it comes in, with a
// 400 naming the field; and the feed escapes every value, so even a name that got in some
// other way (an older service, an archive) never adds a line: the feed keeps exactly its
// own events. On the real database, through the API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let app: App;
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const FORGED = 'ICS\r\nBEGIN:VEVENT\r\nUID:forged@evil\r\nSUMMARY:Pay your fleet dues at evil.test\r\nEND:VEVENT';
let scenario: Record<string, unknown> & { powers: { name: string }[]; nodes: { name: string }[]; fleets: { name: string; ships: { name: string }[] }[] };

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: { PUBLIC_URL: 'https://sasg.test' } });
  scenario = (await app.inject({ url: '/api/scenarios/caribbean' })).json();
});
afterAll(async () => { await app?.close(); await db?.destroy(); });

const create = (payload: object) => app.inject({ method: 'POST', url: '/api/campaigns', payload });
const copy = () => JSON.parse(JSON.stringify(scenario)) as typeof scenario;

describe('control characters in one-line fields', () => {
  it('a campaign name with a line break: 400 naming "name", nothing created', async () => {
    const before = await db.prisma.campaign.count();
    const res = await create({ scenario: 'caribbean', name: FORGED });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'campaign/name_control', problems: [{ path: 'name' }] });
    expect(res.json().message).toContain('carriage return');
    expect(await db.prisma.campaign.count()).toBe(before);
  });

  it('an uploaded scenario with one in its name, a power\'s, a port\'s, a fleet\'s or a ship\'s name: 400 naming each', async () => {
    const s = copy();
    s.name = 'Caribbean\n1805';
    s.powers[0]!.name = 'Great\tBritain';
    s.nodes[0]!.name = `Kingston${String.fromCharCode(7)}`;
    s.fleets[0]!.name = 'Jamaica\u2028Squadron';
    s.fleets[0]!.ships[0]!.name = FORGED;
    const res = await create({ scenario: s });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('scenario/invalid');
    const paths = res.json().problems.map((p: { path: string }) => p.path);
    expect(paths).toEqual(expect.arrayContaining(['name', 'powers[0].name', 'nodes[0].name', 'fleets[0].name', 'fleets[0].ships[0].name']));
    for (const p of res.json().problems) expect(p.message).toMatch(/holds .* at character \d+; write it as plain text on one line/);
  });

  it('a player\'s name with a line break: 400 player/name_control, no player, no mail', async () => {
    const made = (await create({ scenario: 'caribbean', seed: 'control-player' })).json();
    const res = await app.inject({ method: 'PUT', url: `/api/campaigns/${made.id}/players/british`, headers: auth(made.gmToken), payload: { name: 'Nelson\r\nBEGIN:VEVENT', email: 'nelson@example.org' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'player/name_control' });
    expect(res.json().message).toContain("the player's name holds a carriage return");
    expect(await db.prisma.player.count({ where: { campaignId: made.id } })).toBe(0);
    expect(await db.prisma.outgoingMail.count({ where: { campaignId: made.id } })).toBe(0);
  });

  it('a reinforcement\'s fleet or ship name with one: 400 naming it, nothing added', async () => {
    const made = (await create({ scenario: 'caribbean', seed: 'control-reinforce' })).json();
    const res = await app.inject({
      method: 'POST', url: `/api/campaigns/${made.id}/overrides/reinforcements`, headers: auth(made.gmToken),
      payload: { power: 'british', at: 'kingston', fleetName: 'Relief\r\nSquadron', ships: [{ name: `HMS ${String.fromCharCode(0x1b)}Bold`, class: 'sol-74' }] },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(/fleetName holds a carriage return/);
    expect(res.json().message).toMatch(/ships\.0\.name holds a control character \(\\u001b\)/);
  });
});

/** The feed's content lines, unfolded (RFC 5545 §3.1). */
const lines = (ics: string) => ics.replace(/\r\n[ \t]/g, '').split('\r\n').filter((l) => l !== '');

describe('the calendar feed escapes every value', () => {
  it('a campaign and a power named with line breaks (as an older service let in) write no line of their own', async () => {
    const made = (await create({ scenario: 'caribbean', seed: 'feed-escape' })).json();
    const put = await app.inject({ method: 'PUT', url: `/api/campaigns/${made.id}/players/british`, headers: auth(made.gmToken), payload: { name: 'Nelson', email: 'nelson@example.org' } });
    const password = put.json().password;
    const deadline = new Date(Date.now() + 7 * 86_400_000).toISOString();
    expect((await app.inject({ method: 'PUT', url: `/api/campaigns/${made.id}/turns/current/deadline`, headers: auth(made.gmToken), payload: { deadline } })).statusCode).toBe(200);
    // What the checks at the door now refuse, written straight into the database.
    await db.prisma.campaign.update({ where: { id: made.id }, data: { name: `${FORGED}, part; two\\` } });
    await db.prisma.power.updateMany({ where: { campaignId: made.id, key: 'british' }, data: { name: `Britain\r\nX-EVIL:1${String.fromCharCode(7)}` } });

    for (const token of [made.gmToken, password]) {
      const where = (await app.inject({ url: `/api/campaigns/${made.id}/calendar`, headers: auth(token) })).json();
      const feed = await app.inject({ url: new URL(where.feedUrl).pathname });
      expect(feed.statusCode).toBe(200);
      const ls = lines(feed.body);
      expect(ls.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(1); // turn 1's deadline, nothing forged
      expect(ls.filter((l) => l.startsWith('UID:'))).toEqual([`UID:${made.id}-turn-1@sasg`]);
      expect(ls.some((l) => /^(X-EVIL|SUMMARY:Pay)/.test(l))).toBe(false);
      for (const l of feed.body.split('\r\n')) expect(l).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f]/);
      const calName = ls.find((l) => l.startsWith('X-WR-CALNAME:'))!;
      expect(calName).toMatch(/^X-WR-CALNAME:ICS BEGIN:VEVENT UID:forged@evil SUMMARY:Pay your fleet dues at evil.test END:VEVENT\\, part\\; two\\\\: deadlines \((GM|Britain X-EVIL:1)\)$/);
      expect(ls.find((l) => l.startsWith('SUMMARY:'))).toMatch(/^SUMMARY:ICS BEGIN:VEVENT/);
    }
  });
});
