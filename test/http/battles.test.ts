// Battles to the miniatures table and back through the API: a turn makes a battle,
// the package is exported, a result is imported (or the abstract table used), and the
// next turn and the VP reflect it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { auth, campaignWithBattle as withBattle } from '../support/battleCampaign.js';
import { drawQueuedMail } from '../../src/mail/deferred.js';

let db: TestDatabase;
let app: App;

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
});
afterAll(async () => { await app?.close(); await db?.destroy(); });

describe('a battle from the turn to the table and back', () => {
  it('is listed for the GM and the powers that fought, and hidden from the others', async () => {
    const c = await withBattle(app, 'battle-list');
    const list = (token: string) => app.inject({ url: `/api/campaigns/${c.id}/battles`, headers: auth(token) }).then((r) => r.json().battles);
    expect((await list(c.gm)).length).toBeGreaterThan(0);
    expect((await list(c.pw.french!)).map((b: { id: string }) => b.id)).toContain(c.battle);
    expect(await list(c.pw.american!)).toEqual([]);
    const pkg = (token: string, format: string) => app.inject({ url: `/api/campaigns/${c.id}/battles/${c.battle}/package?format=${format}`, headers: auth(token) });
    expect((await pkg(c.pw.american!, 'json')).statusCode).toBe(404);
    const json = await pkg(c.pw.british!, 'json');
    expect(json.statusCode).toBe(200);
    expect(json.json().sides.length).toBe(2);
    const html = await pkg(c.gm, 'wsim-html');
    expect(html.headers['content-type']).toMatch(/text\/html/);
    expect(html.body).toContain('HMS');
    // The players who fight are mailed the package; the American is not.
    await drawQueuedMail(db, { campaignId: c.id, kinds: ['battle-package'] }); // what the mail worker does before sending (src/mail/deferred.ts)
    const mails = await db.prisma.outgoingMail.findMany({ where: { campaignId: c.id, subject: { contains: 'battle at' } } });
    expect(mails.map((m) => m.to).sort()).toEqual(['british@example.org', 'french@example.org']);
    expect(JSON.stringify(mails[0]!.attachments)).toContain('application/json');
    // ... with the battle's setup sheet beside the ship logs.
    const files = (mails[0]!.attachments as { filename: string; contentBase64: string }[]);
    const setup = files.find((f) => /-setup\.html$/.test(f.filename));
    expect(setup, files.map((f) => f.filename).join(', ')).toBeDefined();
    expect(Buffer.from(setup!.contentBase64, 'base64').toString()).toContain('class="setup-diagram"');
    // Each side's mail holds its own side whole and the enemy only as seen across the water (SPEC §6).
    for (const m of mails) {
      const own = m.to.startsWith('british') ? 'british' : 'french';
      const mailed = (m.attachments as { filename: string; contentBase64: string }[]).find((f) => f.filename.endsWith('.json'))!;
      const sent = JSON.parse(Buffer.from(mailed.contentBase64, 'base64').toString()) as { seenBy: { power: string }; sides: { power: string; seen: string; ships: unknown[]; fleets: unknown[]; sighted: unknown[] }[] };
      expect(sent.seenBy.power).toBe(own);
      for (const side of sent.sides) {
        expect(side.seen).toBe(side.power === own ? 'whole' : 'sighted');
        if (side.power !== own) expect([side.ships, side.fleets]).toEqual([[], []]);
        expect(side.sighted.length).toBeGreaterThan(0);
      }
      const logs = Buffer.from((m.attachments as { filename: string; contentBase64: string }[]).find((f) => /-wsim\.html$/.test(f.filename))!.contentBase64, 'base64').toString();
      expect(logs).not.toContain(own === 'british' ? 'Escadre de la Martinique' : 'Leeward Islands Squadron');
      expect(logs).toContain(own === 'british' ? 'Leeward Islands Squadron' : 'Escadre de la Martinique');
    }
    const pdf = await pkg(c.gm, 'wsim-pdf');
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('a pending battle blocks the next turn; the abstract table settles it in one click', async () => {
    const c = await withBattle(app, 'battle-abstract');
    const next = () => app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/turns/current/resolve`, headers: auth(c.gm), payload: { expectedTurn: 2 } });
    const blocked = await next();
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().error).toBe('turn/pending_battles');
    const battles = (await app.inject({ url: `/api/campaigns/${c.id}/battles`, headers: auth(c.gm) })).json().battles;
    for (const b of battles.filter((x: { status: string }) => x.status === 'pending')) {
      const r = await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/battles/${b.id}/abstract`, headers: auth(c.gm), payload: {} });
      expect(r.statusCode).toBe(200);
      expect(r.json().battle.status).toBe('resolved');
      expect(r.json().battle.result.source).toBe('abstract');
      expect(r.json().events.some((e: { roll?: unknown }) => e.roll)).toBe(true);
    }
    const after = await next();
    expect(after.json()).toEqual(expect.objectContaining({ nextTurn: 3 }));
  });

  it('an impossible result is refused whole; a good one is applied, logged and scored', async () => {
    const c = await withBattle(app, 'battle-import');
    const pkg = (await app.inject({ url: `/api/campaigns/${c.id}/battles/${c.battle}/package?format=json`, headers: auth(c.gm) })).json();
    const british = pkg.sides.find((s: { power: string }) => s.power === 'british');
    const victim = british.ships[0];
    const none = (s: { id: string; rigging: { capacity: number }[] | unknown; crew: unknown }) => ({
      shipId: s.id, hullLost: 0, riggingLost: [0, 0, 0], gunsLost: 0, carronadesLost: 0, crewLost: [0, 0, 0], final: 'afloat' as const,
    });
    const all = pkg.sides.flatMap((s: { ships: { id: string }[] }) => s.ships);
    const base = all.map(none);
    const url = `/api/campaigns/${c.id}/battles/${c.battle}/result`;

    const tooMuch = base.map((o: { shipId: string }) => (o.shipId === victim.id ? { ...o, hullLost: 999 } : o));
    const bad = await app.inject({ method: 'POST', url, headers: auth(c.gm), payload: { winner: 'french', ships: tooMuch } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/hull/i);
    const vpBefore = await db.prisma.power.findFirstOrThrow({ where: { campaignId: c.id, key: 'french' } });

    const sunk = base.map((o: { shipId: string }) => (o.shipId === victim.id ? { ...o, final: 'sunk' } : o));
    const good = await app.inject({ method: 'POST', url, headers: auth(c.gm), payload: { winner: 'french', ships: sunk } });
    expect(good.statusCode).toBe(200);
    expect(good.json().battle.status).toBe('resolved');
    const vpAfter = await db.prisma.power.findFirstOrThrow({ where: { campaignId: c.id, key: 'french' } });
    expect(vpAfter.vp).toBeGreaterThan(vpBefore.vp);
    const ship = await db.prisma.ship.findFirstOrThrow({ where: { campaignId: c.id, key: victim.id } });
    expect(ship.status).toBe('sunk');
    // The players who fought are told the result; the American is not.
    const told = await db.prisma.outgoingMail.findMany({ where: { campaignId: c.id, subject: { contains: 'result of the battle' } } });
    expect(told.map((m) => m.to).sort()).toEqual(['british@example.org', 'french@example.org']);
    expect(told.find((m) => m.to === 'british@example.org')!.text).toContain(victim.name);
    const log = (await app.inject({ url: `/api/campaigns/${c.id}/turns/1/events`, headers: auth(c.pw.french!) })).json();
    expect(log.events.some((e: { type: string }) => e.type === 'vp')).toBe(true);
    const again = await app.inject({ method: 'POST', url, headers: auth(c.gm), payload: { winner: 'french', ships: sunk } });
    expect(again.statusCode).toBe(409);
    const player = await app.inject({ method: 'POST', url, headers: auth(c.pw.french!), payload: { winner: 'french', ships: sunk } });
    expect(player.statusCode).toBe(403);

    // A wrong import is corrected: the sinking is undone, its VP taken back, the correction logged.
    const fix = await app.inject({ method: 'PUT', url, headers: auth(c.gm), payload: { winner: null, ships: base } });
    expect(fix.statusCode, fix.body).toBe(200);
    expect((await db.prisma.ship.findFirstOrThrow({ where: { campaignId: c.id, key: victim.id } })).status).toBe('afloat');
    expect((await db.prisma.power.findFirstOrThrow({ where: { campaignId: c.id, key: 'french' } })).vp).toBe(vpBefore.vp);
    expect(await db.prisma.vpEntry.count({ where: { campaignId: c.id, battleKey: c.battle } })).toBe(0);
    expect(await db.prisma.auditEntry.count({ where: { campaignId: c.id, action: 'battle.result_corrected' } })).toBe(1);
    const after = (await app.inject({ url: `/api/campaigns/${c.id}/turns/1/events`, headers: auth(c.gm) })).json();
    expect(after.events.filter((e: { type: string; battleId?: string }) => e.type === 'vp' && e.battleId === c.battle)).toEqual([]);

    // Once a turn has been resolved after it, the result can no longer be corrected this way.
    const battles = (await app.inject({ url: `/api/campaigns/${c.id}/battles`, headers: auth(c.gm) })).json().battles;
    for (const b of battles.filter((x: { status: string }) => x.status === 'pending')) {
      await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/battles/${b.id}/abstract`, headers: auth(c.gm), payload: {} });
    }
    await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/turns/current/resolve`, headers: auth(c.gm), payload: { expectedTurn: 2 } });
    const late = await app.inject({ method: 'PUT', url, headers: auth(c.gm), payload: { winner: 'french', ships: sunk } });
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toBe('battle/not_correctable');
  });
});
