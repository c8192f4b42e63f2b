// The turn through the API: a power's orders submitted by the GM, a dry run that stores
// nothing, a scripted-dice error naming the roll, the real resolution in one transaction,
// and the event log cut to each reader.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { drawQueuedMail } from '../../src/mail/deferred.js';

let db: TestDatabase;
let app: App;
let id: string;
let gm: string;
const pw: Record<string, string> = {};
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  // Two enemy squadrons start at sea in one node, so every phase has spotting rolls.
  const scenario = (await app.inject({ url: '/api/scenarios/caribbean' })).json();
  for (const f of scenario.fleets) {
    if (f.name === 'Escadre de la Martinique' || f.name === 'Leeward Islands Squadron') Object.assign(f, { at: 'lee-of-martinique', inHarbor: false });
  }
  const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario, seed: 'turn-test', gmEmail: 'gm@example.org' } });
  expect(res.statusCode).toBe(201);
  ({ id, gmToken: gm } = res.json());
  for (const power of ['british', 'french', 'american']) {
    const p = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/players/${power}`, headers: auth(gm), payload: { name: power, email: `${power}@example.org` } });
    pw[power] = p.json().password;
  }
});
afterAll(async () => { await app?.close(); await db?.destroy(); });

const orders = (power: string, text: string, token = gm) =>
  app.inject({ method: 'POST', url: `/api/campaigns/${id}/orders/${power}`, headers: auth(token), payload: { text } });
const resolve = (body: object, token = gm) =>
  app.inject({ method: 'POST', url: `/api/campaigns/${id}/turns/current/resolve`, headers: auth(token), payload: body });

describe('orders through the API', () => {
  it('clean orders are ready, with the fleet\'s position at the end of each phase', async () => {
    const res = await orders('british', 'POWER british\nFLEET "Jamaica Squadron": LEAVE HARBOR MOVE "South of Jamaica"\nThanks!\nFLEET "Jamaica Squadron": MISSION');
    expect(res.statusCode).toBe(200);
    const check = res.json();
    expect(check.status).toBe('ready');
    expect(check.warnings.map((w: { line: number }) => w.line)).toEqual([3]);
    const preview = check.preview[0];
    expect(preview.stopsAt).toBe('south-of-jamaica');
    // A 4-mp fleet of ships of the line is active in phases 3-6 (SPEC §4).
    expect(preview.phases.find((p: { phase: number }) => p.phase === 3).inHarbor).toBe(false);
  });

  it('an order set with errors is stored as "has errors", each error with its line', async () => {
    const res = await orders('french', 'POWER french\nFLEET "Escadre de la Martinique": MOVE Kingston\nFLEET "Escadre de la Martinique": MISSION');
    const check = res.json();
    expect(check.status).toBe('has_errors');
    expect(check.errors[0].line).toBe(2);
    expect(check.errors[0].message).toMatch(/not adjacent/);
    const stored = await db.prisma.orderSet.findFirstOrThrow({ where: { campaignId: id, power: { key: 'french' }, current: true } });
    expect(stored.ready).toBe(false);
  });

  it('a later set replaces the earlier one', async () => {
    await orders('french', 'POWER french\nFLEET "Escadre de la Martinique": HOLD\nFLEET "Escadre de la Martinique": MISSION');
    const sets = await db.prisma.orderSet.findMany({ where: { campaignId: id, power: { key: 'french' } }, orderBy: { receivedAt: 'asc' } });
    expect(sets.map((s) => s.current)).toEqual([false, true]);
    expect(sets[1]!.ready).toBe(true);
  });

  it('a player checks and sends their own orders, never another power\'s, and cannot resolve', async () => {
    const text = 'POWER american\nFLEET "Gulf Squadron": HOLD\nFLEET "Gulf Squadron": MISSION';
    const check = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/orders/american/check`, headers: auth(pw.american!), payload: { text } });
    expect(check.json().status).toBe('ready');
    expect(await db.prisma.orderSet.count({ where: { campaignId: id, power: { key: 'american' } } })).toBe(0);
    expect((await orders('american', text, pw.american)).json().status).toBe('ready');
    const mine = await app.inject({ url: `/api/campaigns/${id}/orders/american`, headers: auth(pw.american!) });
    expect(mine.json().text).toContain('Gulf Squadron');
    expect((await orders('british', 'POWER british', pw.american)).statusCode).toBe(403);
    expect((await app.inject({ url: `/api/campaigns/${id}/orders/british`, headers: auth(pw.american!) })).statusCode).toBe(403);
    expect((await resolve({ expectedTurn: 1, dryRun: true }, pw.british)).statusCode).toBe(403);
  });
});

describe('resolving', () => {
  it('a dry run shows the whole turn and stores nothing; the same seed gives the same log', async () => {
    await orders('american', 'POWER american\nFLEET "Chesapeake Squadron": LEAVE HARBOR MOVE "Hampton Roads"\nFLEET "Chesapeake Squadron": MISSION');
    const a = await resolve({ expectedTurn: 1, dryRun: true, seed: 'same' });
    const b = await resolve({ expectedTurn: 1, dryRun: true, seed: 'same' });
    expect(a.statusCode).toBe(200);
    expect(JSON.stringify(a.json().events)).toBe(JSON.stringify(b.json().events));
    expect(a.json().events.some((e: { type: string }) => e.type === 'move')).toBe(true);
    expect(await db.prisma.event.count({ where: { campaignId: id } })).toBe(0);
    const turn = await db.prisma.turn.findFirstOrThrow({ where: { campaignId: id, number: 1 } });
    expect(turn.status).toBe('open');
    const fleet = await db.prisma.fleet.findFirstOrThrow({ where: { campaignId: id, name: 'Jamaica Squadron' }, include: { node: true } });
    expect(fleet.node.key).toBe('kingston');
  });

  it('a dice script that runs out is an error naming the roll wanted, and nothing is stored', async () => {
    const res = await resolve({ expectedTurn: 1, dice: [] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('dice/script_exhausted');
    expect(res.json().message).toMatch(/wanted for: \S+/);
    expect((await db.prisma.turn.findFirstOrThrow({ where: { campaignId: id, number: 1 } })).status).toBe('open');
  });

  it('a bad dice script is refused with the field named', async () => {
    const res = await resolve({ expectedTurn: 1, dice: [1, 7] });
    expect(res.statusCode).toBe(400);
    expect(res.json().problems[0].path).toMatch(/dice/);
  });

  it('a resolve without expectedTurn, or naming a turn that is not open, is refused and changes nothing', async () => {
    const none = await resolve({});
    expect(none.statusCode).toBe(400);
    expect(none.json().problems.map((p: { path: string }) => p.path)).toEqual(['body.expectedTurn']);
    const bad = await resolve({ expectedTurn: 'one' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('expectedTurn');
    const later = await resolve({ expectedTurn: 5 });
    expect(later.statusCode).toBe(409);
    expect(later.json()).toMatchObject({ error: 'turn/not_open', message: 'turn 5 is not open: the open turn is 1; nothing was done' });
    expect((await db.prisma.campaign.findUniqueOrThrow({ where: { id } })).currentTurn).toBe(1);
  });

  it('six resolves of turn 1 at once resolve it exactly once; the others get its outcome, and turn 2 stays open', async () => {
    const all = await Promise.all(Array.from({ length: 6 }, () => resolve({ expectedTurn: 1 })));
    expect(all.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    const bodies = all.map((r) => r.json());
    expect(bodies.filter((b) => !b.alreadyResolved)).toHaveLength(1);
    expect(bodies.every((b) => b.turn === 1 && b.nextTurn === 2)).toBe(true);
    const first = bodies.find((b) => !b.alreadyResolved);
    // The idempotent answers carry the stored outcome: the same events and dice.
    for (const b of bodies) {
      expect(b.events).toEqual(first.events);
      expect(b.dice).toEqual(first.dice);
    }
    expect((await db.prisma.campaign.findUniqueOrThrow({ where: { id } })).currentTurn).toBe(2);
    expect(await db.prisma.auditEntry.count({ where: { campaignId: id, action: 'turn.resolved' } })).toBe(1);
    // A retry later is answered the same way; a preview of the resolved turn is refused.
    const retry = await resolve({ expectedTurn: 1 });
    expect(retry.json()).toMatchObject({ turn: 1, alreadyResolved: true, missingOrders: first.missingOrders });
    const preview = await resolve({ expectedTurn: 1, dryRun: true });
    expect(preview.statusCode).toBe(409);
    expect(preview.json().message).toContain('the open turn is 2');
  });

  it('resolved turn 1 opened turn 2, and the log is cut to each reader', async () => {
    const fleet = await db.prisma.fleet.findFirstOrThrow({ where: { campaignId: id, name: 'Jamaica Squadron' }, include: { node: true } });
    expect(fleet.node.key).toBe('south-of-jamaica');
    const turns = await db.prisma.turn.findMany({ where: { campaignId: id }, orderBy: { number: 'asc' } });
    expect(turns.map((t) => [t.number, t.status])).toEqual([[1, 'resolved'], [2, 'open']]);

    const gmLog = (await app.inject({ url: `/api/campaigns/${id}/turns/1/events`, headers: auth(gm) })).json();
    expect(gmLog.seed).toBeTruthy(); // revealed after the turn
    const british = (await app.inject({ url: `/api/campaigns/${id}/turns/1/events`, headers: auth(pw.british!) })).json();
    const french = (await app.inject({ url: `/api/campaigns/${id}/turns/1/events`, headers: auth(pw.french!) })).json();
    const moved = (log: { events: { type: string; fleetIds?: string[] }[] }) => log.events.filter((e) => e.type === 'move').flatMap((e) => e.fleetIds ?? []);
    expect(moved(gmLog).length).toBeGreaterThan(moved(british).length);
    expect(moved(british).length).toBeGreaterThan(0);
    const britishFleetIds = new Set((await db.prisma.fleet.findMany({ where: { campaignId: id, power: { key: 'british' } } })).map((f) => f.key));
    expect(moved(french).some((f) => britishFleetIds.has(f))).toBe(false);
    for (const e of british.events) expect(e.visibleTo).toContain('british');
  });

  it('each player is mailed their own report, queued with the turn', async () => {
    await drawQueuedMail(db, { campaignId: id, kinds: ['turn-report'] }); // what the mail worker does before sending (src/mail/deferred.ts)
    const mails = await db.prisma.outgoingMail.findMany({ where: { campaignId: id, subject: { contains: 'Turn 1' }, to: { not: 'gm@example.org' } } });
    expect(mails.map((m) => m.to).sort()).toEqual(['american@example.org', 'british@example.org', 'french@example.org']);
    const british = mails.find((m) => m.to === 'british@example.org')!;
    expect(british.text).toContain('Jamaica Squadron');
    // The Guadeloupe squadron stayed in harbor far from any British fleet: never sighted.
    expect(british.text).not.toContain('Escadre de la Guadeloupe');
    expect(british.html).not.toContain('Escadre de la Guadeloupe');
  });

  it('the GM is mailed the full report, with every roll', async () => {
    await drawQueuedMail(db, { campaignId: id, kinds: ['gm-report'] }); // what the mail worker does before sending (src/mail/deferred.ts)
    const gmMail = await db.prisma.outgoingMail.findFirstOrThrow({ where: { campaignId: id, to: 'gm@example.org' } });
    expect(gmMail.subject).toContain('1');
    expect(gmMail.text).toMatch(/spot/i);
    expect(gmMail.text).toContain('Escadre de la Martinique');
  });

  it('setting the deadline tells every player; a reminder goes once to each power without clean orders', async () => {
    const deadline = new Date(Date.now() + 2 * 3_600_000);
    const res = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/turns/current/deadline`, headers: auth(gm), payload: { deadline: deadline.toISOString() } });
    expect(res.statusCode).toBe(200);
    const notices = await db.prisma.outgoingMail.findMany({ where: { campaignId: id, subject: { contains: 'deadline for turn 2' } } });
    expect(notices).toHaveLength(3);
    await orders('british', 'POWER british\nFLEET "Jamaica Squadron": HOLD\nFLEET "Jamaica Squadron": MISSION');
    const { queueReminders } = await import('../../src/campaign/deadlineMail.js');
    expect(await queueReminders(db, new Date(), 24)).toBe(2);
    expect(await queueReminders(db, new Date(), 24)).toBe(0);
    const reminders = await db.prisma.outgoingMail.findMany({ where: { campaignId: id, subject: { contains: 'reminder' } } });
    expect(reminders.map((m) => m.to).sort()).toEqual(['american@example.org', 'french@example.org']);
  });

  it('the open turn shows only the hash of its seed', async () => {
    const log = (await app.inject({ url: `/api/campaigns/${id}/turns/2/events`, headers: auth(gm) })).json();
    expect(log.seed).toBeNull();
    expect(log.seedHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a seed the GM gives is published as given, marked as the GM\'s: the published hash is kept and not claimed to check it', async () => {
    const made = (await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', slug: 'gm-seed', gmEmail: 'gm@example.org' } })).json();
    const player = (await app.inject({ method: 'PUT', url: `/api/campaigns/${made.id}/players/french`, headers: auth(made.gmToken), payload: { name: 'f', email: 'f@example.org' } })).json().password;
    const resolveIt = (body: object) => app.inject({ method: 'POST', url: `/api/campaigns/${made.id}/turns/current/resolve`, headers: auth(made.gmToken), payload: body });
    const published = (await app.inject({ url: `/api/campaigns/${made.id}/turns/1/events`, headers: auth(made.gmToken) })).json().seedHash;
    const res = await resolveIt({ expectedTurn: 1, seed: 'my-own-seed' });
    expect(res.statusCode).toBe(200);
    expect(res.json().dice).toEqual({ seed: 'my-own-seed', source: 'gm', seedHash: published });
    for (const token of [made.gmToken, player]) {
      const log = (await app.inject({ url: `/api/campaigns/${made.id}/turns/1/events`, headers: auth(token) })).json();
      expect(log).toMatchObject({ seed: 'my-own-seed', seedSource: 'gm', seedHash: published });
      expect(createHash('sha256').update(log.seed).digest('hex')).not.toBe(log.seedHash); // why it must say so
    }
    await drawQueuedMail(db, { campaignId: made.id, kinds: ['gm-report'] }); // what the mail worker does before sending (src/mail/deferred.ts)
    const gmMail = await db.prisma.outgoingMail.findFirstOrThrow({ where: { campaignId: made.id, to: 'gm@example.org', subject: { contains: 'Turn 1' } } });
    expect(gmMail.text).toContain('Seeded dice, seed my-own-seed, given by the GM. It is not the seed whose hash was published before the turn');
    // The GM typing in the turn's own seed is not "given": it checks against the hash.
    const turn2 = await db.prisma.turn.findFirstOrThrow({ where: { campaignId: made.id, number: 2 } });
    const own = await resolveIt({ expectedTurn: 2, seed: turn2.seed! });
    expect(own.statusCode).toBe(200);
    expect(own.json().dice).toEqual({ seed: turn2.seed, source: 'published', seedHash: turn2.seedHash });
  });
});
