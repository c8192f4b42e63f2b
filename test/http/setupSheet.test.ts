// The setup sheet through the API: a turn that makes a battle rolls its weather with the
// campaign's own dice (logged, stored with the battle), and the battle's setup sheet comes as
// HTML and PDF, cut to the reader like the package: "battles they took part in" (SPEC §6).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { auth, campaignWithBattle as withBattle } from '../support/battleCampaign.js';

let db: TestDatabase;
let app: App;

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
});
afterAll(async () => { await app?.close(); await db?.destroy(); });

const weatherEvents = async (c: { id: string }, token: string) =>
  (await app.inject({ url: `/api/campaigns/${c.id}/turns/1/events`, headers: auth(token) })).json().events
    .filter((e: { type: string }) => e.type === 'weather') as { battleId: string; visibleTo: string[]; roll: { die: number; purpose: string } }[];

describe('battle weather from the campaign\'s dice, and the setup sheet', () => {
  it('two campaigns\' battle b1 on turn 1 get their own weather, logged for the powers that fought and stored with the battle', async () => {
    const a = await withBattle(app, 'setup-a', { turnSeed: 'setup-a-turn-1' });
    const b = await withBattle(app, 'setup-b', { turnSeed: 'setup-b-turn-1' });
    const rollsA = (await weatherEvents(a, a.gm)).filter((e) => e.battleId === 'b1');
    const rollsB = (await weatherEvents(b, b.gm)).filter((e) => e.battleId === 'b1');
    expect(rollsA.map((e) => e.roll.purpose)).toEqual(['battle b1: wind direction', 'battle b1: wind force', 'battle b1: sea state', 'battle b1: time of day']);
    expect(rollsA.map((e) => e.roll.die)).not.toEqual(rollsB.map((e) => e.roll.die));
    expect(rollsA[0]!.visibleTo.sort()).toEqual(['british', 'french']);
    // A power that did not fight does not see the battle's weather.
    expect(await weatherEvents(a, a.pw.american!)).toEqual([]);
    expect((await weatherEvents(a, a.pw.french!)).length).toBeGreaterThanOrEqual(4);
    // Stored in the battle's record: the package reads the same dice.
    const row = await db.prisma.battle.findFirstOrThrow({ where: { campaignId: a.id, key: 'b1' } });
    expect((row.record as { weather: { seed: unknown; rolls: { value: number }[] } }).weather).toMatchObject({ seed: null, rolls: rollsA.map((e) => ({ value: e.roll.die })) });
    const pkg = (await app.inject({ url: `/api/campaigns/${a.id}/battles/b1/package?format=json`, headers: auth(a.gm) })).json();
    expect(pkg.weather.source).toBe('dice');
    expect(pkg.weather.rolls.map((r: { value: number }) => r.value)).toEqual(rollsA.map((e) => e.roll.die));
  });

  it('serves the sheet as HTML and PDF to the GM and the powers that fought; another power gets 404', async () => {
    const c = await withBattle(app, 'setup-sheet', { turnSeed: 'setup-sheet-turn-1' });
    const sheet = (token: string, format: string, extra = '') => app.inject({ url: `/api/campaigns/${c.id}/battles/b1/package?format=${format}${extra}`, headers: auth(token) });
    const html = await sheet(c.pw.british!, 'setup-html');
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toMatch(/text\/html/);
    expect(html.body).toContain('<svg xmlns="http://www.w3.org/2000/svg" class="setup-diagram"');
    expect(html.body).toMatch(/Wooden Ships &amp; Iron Men: 2 minutes a turn, nightfall after turn \d+/);
    expect(html.body).toContain('The fleets met: both sides sighted each other and sought contact.');
    expect(html.body).not.toContain('(both sides sighted and sought contact.)'); // said once, not twice
    const pdf = await sheet(c.gm, 'setup-pdf');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toMatch(/attachment; filename=".*-b1-turn-1-setup\.pdf"/);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await sheet(c.pw.american!, 'setup-html')).statusCode).toBe(404);
    expect((await sheet(c.pw.american!, 'setup-pdf')).statusCode).toBe(404);
  });

  it('bad input is refused with the reason: shoals at sea, shoals outside 11-16 feet, shoals on a package', async () => {
    const c = await withBattle(app, 'setup-bad', { turnSeed: 'setup-bad-turn-1' });
    const sheet = (extra: string) => app.inject({ url: `/api/campaigns/${c.id}/battles/b1/package${extra}`, headers: auth(c.gm) });
    const atSea = await sheet('?format=setup-html&shoals=12');
    expect(atSea.statusCode).toBe(400);
    expect(atSea.json()).toMatchObject({ error: 'setup/no_shoals', problems: [{ path: 'shoals' }] });
    expect(atSea.json().message).toContain('If attacked while in harbor');
    const onPackage = await sheet('?format=json&shoals=12');
    expect(onPackage.statusCode).toBe(400);
    expect(onPackage.json().error).toBe('setup/shoals_format');
    const notNumber = await sheet('?format=setup-html&shoals=deep');
    expect(notNumber.statusCode).toBe(400);
    expect(notNumber.json().message).toContain('shoals');
  });
});
