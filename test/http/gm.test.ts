// The GM's turn through the API: status per power, deadlines (audited), checkable dice, a
// whole turn with three powers' orders — preview, resolve, roll back, correct one power's
// orders, re-run — and GM overrides, all on the real database.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let app: App;
let id: string;
let gm: string;
const pw: Record<string, string> = {};
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

const CLEAN = {
  british: 'POWER british\nFLEET "Jamaica Squadron": LEAVE HARBOR MOVE "South of Jamaica"\nFLEET "Jamaica Squadron": MISSION',
  french: 'POWER french\nFLEET "Escadre de la Martinique": HOLD\nFLEET "Escadre de la Martinique": MISSION',
  american: 'POWER american\nFLEET "Chesapeake Squadron": LEAVE HARBOR MOVE "Hampton Roads"\nFLEET "Chesapeake Squadron": MISSION',
};

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', seed: 'gm-test' } });
  expect(res.statusCode).toBe(201);
  ({ id, gmToken: gm } = res.json());
  for (const power of ['british', 'french', 'american']) {
    const p = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/players/${power}`, headers: auth(gm), payload: { name: `Admiral ${power}`, email: `${power}@example.org` } });
    pw[power] = p.json().password;
  }
});
afterAll(async () => { await app?.close(); await db?.destroy(); });

const orders = (power: string, text: string) =>
  app.inject({ method: 'POST', url: `/api/campaigns/${id}/orders/${power}`, headers: auth(gm), payload: { text } });
const resolve = (body: { expectedTurn: number } & Record<string, unknown>) =>
  app.inject({ method: 'POST', url: `/api/campaigns/${id}/turns/current/resolve`, headers: auth(gm), payload: body });
const status = (token = gm) => app.inject({ url: `/api/campaigns/${id}/turns/current`, headers: auth(token) });
const fleetAt = async (name: string) => {
  const f = await db.prisma.fleet.findFirstOrThrow({ where: { campaignId: id, name }, include: { node: true } });
  return { at: f.node.key, inHarbor: f.inHarbor };
};
const audit = (action: string) => db.prisma.auditEntry.findMany({ where: { campaignId: id, action }, orderBy: { at: 'asc' } });

let seedHashBefore = '';

describe('the open turn\'s status', () => {
  it('the GM sees every playable power with none / has errors / ready, when, and the seed hash', async () => {
    let s = (await status()).json();
    expect(s.turn).toBe(1);
    expect(s.run).toBe(0);
    expect(s.seedHash).toMatch(/^[0-9a-f]{64}$/);
    seedHashBefore = s.seedHash;
    expect(s.powers.map((p: { power: string }) => p.power)).toEqual(['british', 'french', 'american']);
    expect(s.powers.every((p: { status: string }) => p.status === 'none')).toBe(true);
    expect(s.powers[0].player).toEqual({ name: 'Admiral british', email: 'british@example.org' });
    expect(s.everyoneReady).toBe(false);

    expect((await orders('british', CLEAN.british)).json().status).toBe('ready');
    expect((await orders('french', 'POWER french\nFLEET "Escadre de la Martinique": MOVE Kingston\nFLEET "Escadre de la Martinique": MISSION')).json().status).toBe('has_errors');
    s = (await status()).json();
    const by = Object.fromEntries(s.powers.map((p: { power: string }) => [p.power, p]));
    expect([by.british.status, by.french.status, by.american.status]).toEqual(['ready', 'has_errors', 'none']);
    expect(Date.parse(by.british.receivedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(by.american.receivedAt).toBeNull();
  });

  it('a player sees the deadline and who is ready: not what anyone ordered, no emails', async () => {
    const res = await app.inject({ url: `/api/campaigns/${id}/status`, headers: auth(pw.british!) });
    expect(res.statusCode).toBe(200);
    const s = res.json();
    expect(s.you).toMatchObject({ power: 'british', status: 'ready' });
    expect(s.powers.map((p: { power: string; ready: boolean }) => [p.power, p.ready])).toEqual([['british', true], ['french', false], ['american', false]]);
    const text = res.body;
    expect(text).not.toContain('@example.org');
    expect(text).not.toContain('has_errors'); // the French player's trouble is their own
    expect(text).not.toMatch(/Escadre|Kingston|MOVE|HOLD/i);
    expect(text).not.toContain('seedHash');
    // The French player sees their own status, and the British one only as ready.
    const fr = (await app.inject({ url: `/api/campaigns/${id}/status`, headers: auth(pw.french!) })).json();
    expect(fr.you).toMatchObject({ power: 'french', status: 'has_errors' });
    expect(JSON.stringify(fr)).not.toMatch(/Jamaica|South of Jamaica|british@/);
  });
});

describe('deadlines', () => {
  it('sets and extends the deadline, each change audited old → new', async () => {
    const first = new Date(Date.now() + 3 * 86_400_000);
    const put = (body: object) => app.inject({ method: 'PUT', url: `/api/campaigns/${id}/turns/current/deadline`, headers: auth(gm), payload: body });
    let res = await put({ deadline: first.toISOString(), graceMinutes: 60, reason: 'first month' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ turn: 1, deadline: first.toISOString(), graceMinutes: 60, autoResolve: false });
    expect(res.json().closesAt).toBe(new Date(first.getTime() + 3_600_000).toISOString());

    const later = new Date(first.getTime() + 2 * 86_400_000);
    res = await put({ deadline: later.toISOString() });
    expect(res.statusCode).toBe(200);
    expect(res.json().graceMinutes).toBe(60); // kept

    const [set] = await audit('turn.deadline_set');
    expect(set!.actor).toBe('gm');
    expect(set!.details).toMatchObject({ turn: 1, old: { deadline: null }, new: { deadline: first.toISOString(), graceMinutes: 60 }, reason: 'first month' });
    const [ext] = await audit('turn.deadline_extended');
    expect(ext!.details).toMatchObject({ old: { deadline: first.toISOString() }, new: { deadline: later.toISOString() } });

    const s = (await status()).json();
    expect(s.deadline).toBe(later.toISOString());
    expect(s.graceMinutes).toBe(60);
  });

  it('refuses a deadline in the past, or a bad date', async () => {
    const put = (body: object) => app.inject({ method: 'PUT', url: `/api/campaigns/${id}/turns/current/deadline`, headers: auth(gm), payload: body });
    const past = await put({ deadline: '2001-01-01T00:00:00Z' });
    expect(past.statusCode).toBe(400);
    expect(past.json().error).toBe('deadline/past');
    const bad = await put({ deadline: 'next tuesday' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().problems[0].path).toMatch(/deadline/);
  });
});

let run0Events: { type: string; fleetIds?: string[]; to?: string; nodeId?: string }[] = [];
let run0Seed = '';
let rerunHash = '';

describe('a whole turn: preview, resolve, roll back, correct, re-run', () => {
  it('with the three powers\' orders in, everyone is ready', async () => {
    expect((await orders('french', CLEAN.french)).json().status).toBe('ready');
    expect((await orders('american', CLEAN.american)).json().status).toBe('ready');
    const s = (await status()).json();
    expect(s.everyoneReady).toBe(true);
  });

  it('preview (dry run) shows the whole turn and stores nothing', async () => {
    const res = await resolve({ expectedTurn: 1, dryRun: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().dryRun).toBe(true);
    expect(res.json().rerun).toBe(false);
    expect(res.json().events.some((e: { type: string }) => e.type === 'move')).toBe(true);
    expect(await db.prisma.event.count({ where: { campaignId: id } })).toBe(0);
    expect(await fleetAt('Jamaica Squadron')).toEqual({ at: 'kingston', inHarbor: true });
  });

  it('resolves, and the revealed seed matches the hash shown before', async () => {
    const res = await resolve({ expectedTurn: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ turn: 1, nextTurn: 2, rerun: false, missingOrders: [], alreadyResolved: false, dice: { source: 'published', seedHash: seedHashBefore } });
    expect((await fleetAt('Jamaica Squadron')).at).toBe('south-of-jamaica');
    const log = (await app.inject({ url: `/api/campaigns/${id}/turns/1/events`, headers: auth(gm) })).json();
    expect(log.seed).toBeTruthy();
    expect(sha256(log.seed)).toBe(seedHashBefore);
    expect(log.seedHash).toBe(seedHashBefore);
    expect(log.seedSource).toBe('published');
    run0Seed = log.seed;
    run0Events = log.events;
    // Turn 2 shows its own hash only.
    const s = (await status()).json();
    expect(s.turn).toBe(2);
    expect(s.seedHash).not.toBe(seedHashBefore);
  });

  it('rolls back the last turn: position as turn 1 opened, turn 2 and its orders gone', async () => {
    await orders('british', 'POWER british\nFLEET "Jamaica Squadron": HOLD\nFLEET "Jamaica Squadron": MISSION');
    const vpBefore = await db.prisma.power.findMany({ where: { campaignId: id }, select: { key: true, vp: true } });
    const res = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/turns/last/rollback`, headers: auth(gm), payload: { turn: 1, reason: 'wrong French orders' } });
    expect(res.statusCode).toBe(200);
    const out = res.json();
    expect(out).toMatchObject({ turn: 1, run: 1, previousRun: 0, discardedTurn: 2 });
    // The re-run gets a fresh seed: its hash is published now, before the re-run; the seed
    // everyone has seen (run 0's, revealed) is not used again.
    expect(out.previousDice).toEqual({ seed: run0Seed, source: 'published', seedHash: seedHashBefore });
    expect(out.seedHash).toMatch(/^[0-9a-f]{64}$/);
    expect(out.seedHash).not.toBe(seedHashBefore);
    rerunHash = out.seedHash;
    expect(out.discardedOrders.map((o: { power: string }) => o.power)).toEqual(['british']);

    expect(await fleetAt('Jamaica Squadron')).toEqual({ at: 'kingston', inHarbor: true });
    const turns = await db.prisma.turn.findMany({ where: { campaignId: id }, orderBy: { number: 'asc' } });
    expect(turns.map((t) => [t.number, t.status, t.reruns])).toEqual([[1, 'open', 1]]);
    expect((await db.prisma.campaign.findUniqueOrThrow({ where: { id } })).currentTurn).toBe(1);
    expect(await db.prisma.vpEntry.count({ where: { campaignId: id } })).toBe(0);
    expect(vpBefore.length).toBeGreaterThan(0);
    for (const p of await db.prisma.power.findMany({ where: { campaignId: id } })) expect(p.vp).toBe(0);
    // The earlier result stays in history, under run 0.
    expect(await db.prisma.event.count({ where: { campaignId: id, run: 0 } })).toBe(run0Events.length);
    const [entry] = await audit('turn.rolled_back');
    expect(entry!.details).toMatchObject({ turn: 1, previousRun: 0, run: 1, discardedTurn: 2, reason: 'wrong French orders' });
    expect((entry!.details as { discardedOrderSets: { rawText: string }[] }).discardedOrderSets[0]!.rawText).toContain('"Jamaica Squadron": HOLD');
    // The GM's status shows a re-run; the orders of turn 1 are still there.
    const s = (await status()).json();
    expect(s).toMatchObject({ turn: 1, run: 1, rerun: true, autoResolve: false, everyoneReady: true, seedHash: rerunHash });
    const open = (await app.inject({ url: `/api/campaigns/${id}/turns/1/events`, headers: auth(pw.french!) })).json();
    expect(open).toMatchObject({ status: 'open', seed: null, seedHash: rerunHash, seedSource: null });
  });

  it('the GM corrects one power\'s orders and re-runs: a different result, stored as run 1', async () => {
    expect((await orders('british', 'POWER british\nFLEET "Jamaica Squadron": LEAVE HARBOR MOVE "Off Morant Point"\nFLEET "Jamaica Squadron": MISSION')).json().status).toBe('ready');
    const res = await resolve({ expectedTurn: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ turn: 1, nextTurn: 2, rerun: true, dice: { source: 'published', seedHash: rerunHash } });
    expect((await fleetAt('Jamaica Squadron')).at).toBe('off-morant-point');

    const log = (await app.inject({ url: `/api/campaigns/${id}/turns/1/events`, headers: auth(gm) })).json();
    expect(log.run).toBe(1);
    // The re-run's seed is the fresh one: it checks against the hash published after the roll-back.
    expect(sha256(log.seed)).toBe(rerunHash);
    expect(log).toMatchObject({ seedHash: rerunHash, seedSource: 'published' });
    expect(JSON.stringify(log.events)).not.toBe(JSON.stringify(run0Events));
    expect(await db.prisma.event.count({ where: { campaignId: id, run: 1 } })).toBe(log.events.length);

    const hist = await app.inject({ url: `/api/campaigns/${id}/turns/1/history`, headers: auth(gm) });
    expect(hist.statusCode).toBe(200);
    const h = hist.json();
    expect(h.currentRun).toBe(1);
    expect(h.runs.map((r: { run: number; current: boolean }) => [r.run, r.current])).toEqual([[0, false], [1, true]]);
    expect(JSON.stringify(h.runs[0].events)).toBe(JSON.stringify(run0Events));
    expect(JSON.stringify(h.runs[0].events)).toContain('south-of-jamaica');
    // Each run keeps its own dice: run 0's seed stays revealed as the seed of the rolled-back run.
    expect(h.runs[0].dice).toEqual({ seed: run0Seed, source: 'published', seedHash: seedHashBefore });
    expect(h.runs[1].dice).toEqual({ seed: log.seed, source: 'published', seedHash: rerunHash });
    expect(h.audit.map((a: { action: string }) => a.action)).toEqual(['turn.resolved', 'turn.rolled_back', 'turn.resolved']);
    expect(JSON.stringify(h.audit)).not.toContain('rawText');
  });

  it('only the last resolved turn can be rolled back', async () => {
    const res = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/turns/last/rollback`, headers: auth(gm), payload: { turn: 2 } });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('rollback/not_last');
  });
});

describe('GM overrides', () => {
  it('moves a fleet anywhere, audited and shown in the GM state', async () => {
    const res = await app.inject({
      method: 'POST', url: `/api/campaigns/${id}/overrides/move-fleet`, headers: auth(gm),
      payload: { fleet: 'Jamaica Squadron', to: 'Windward Passage', inHarbor: false, reason: 'storm' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ turn: 2, name: 'Jamaica Squadron', from: { at: 'off-morant-point' }, to: { at: 'windward-passage', inHarbor: false } });
    const state = (await app.inject({ url: `/api/campaigns/${id}`, headers: auth(gm) })).json().state;
    expect(state.fleets.find((f: { name: string }) => f.name === 'Jamaica Squadron').at).toBe('windward-passage');
    const [a] = await audit('override.fleet_moved');
    expect(a!.details).toMatchObject({ name: 'Jamaica Squadron', from: { at: 'off-morant-point' }, to: { at: 'windward-passage' }, reason: 'storm' });
  });

  it('refuses an unknown node or fleet, naming each problem, and changes nothing', async () => {
    const res = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/overrides/move-fleet`, headers: auth(gm), payload: { fleet: 'Flying Dutchman', to: 'Atlantis' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().problems.map((p: { path: string }) => p.path)).toEqual(['override/unknown_fleet', 'override/unknown_node']);
    const harbor = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/overrides/move-fleet`, headers: auth(gm), payload: { fleet: 'Jamaica Squadron', to: 'south-of-jamaica', inHarbor: true } });
    expect(harbor.statusCode).toBe(400);
    expect(harbor.json().problems[0].path).toBe('override/no_harbor');
    expect((await audit('override.fleet_moved')).length).toBe(1);
  });

  it('changes a port\'s owner', async () => {
    const res = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/overrides/port-owner`, headers: auth(gm), payload: { port: 'St Kitts', owner: 'french' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ port: 'st-kitts', from: 'british', to: 'french', fleetsInHarbor: ['Leeward Islands Squadron'] });
    const state = (await app.inject({ url: `/api/campaigns/${id}`, headers: auth(gm) })).json().state;
    expect(state.ports.find((p: { node: string }) => p.node === 'st-kitts').owner).toBe('french');
    const [a] = await audit('override.port_owner');
    expect(a!.details).toMatchObject({ port: 'st-kitts', from: 'british', to: 'french' });
  });

  it('adds reinforcements: a new fleet of new ships', async () => {
    const res = await app.inject({
      method: 'POST', url: `/api/campaigns/${id}/overrides/reinforcements`, headers: auth(gm),
      payload: { power: 'british', at: 'kingston', fleetName: 'Reinforcements from Home', ships: [{ name: 'HMS Victory', class: 'sol-100' }, { name: 'HMS Euryalus', class: 'frigate-28' }] },
    });
    expect(res.statusCode).toBe(200);
    const out = res.json();
    expect(out).toMatchObject({ power: 'british', at: 'kingston', inHarbor: true });
    expect(out.ships.map((s: { name: string }) => s.name)).toEqual(['HMS Victory', 'HMS Euryalus']);
    const state = (await app.inject({ url: `/api/campaigns/${id}`, headers: auth(gm) })).json().state;
    const fleet = state.fleets.find((f: { name: string }) => f.name === 'Reinforcements from Home');
    expect(fleet).toMatchObject({ id: out.fleetId, power: 'british', at: 'kingston', inHarbor: true });
    const victory = fleet.ships[0];
    const cls = state.shipClasses.find((c: { key: string }) => c.key === 'sol-100');
    expect(victory).toMatchObject({ hull: cls.hull, guns: cls.guns, crew: cls.crewSections, supplies: 4, status: 'afloat' });
    const [a] = await audit('override.reinforcements');
    expect(a!.details).toMatchObject({ power: 'british', name: 'Reinforcements from Home', at: 'kingston' });
    // The British player sees the new fleet in their view.
    const view = (await app.inject({ url: `/api/campaigns/${id}/view`, headers: auth(pw.british!) })).json();
    expect(view.fleets.some((f: { name: string }) => f.name === 'Reinforcements from Home')).toBe(true);
  });

  it('refuses an unknown ship class or a name in use', async () => {
    const res = await app.inject({
      method: 'POST', url: `/api/campaigns/${id}/overrides/reinforcements`, headers: auth(gm),
      payload: { power: 'british', at: 'kingston', fleetName: 'Jamaica Squadron', ships: [{ name: 'HMS Mars', class: 'sol-74' }, { name: 'HMS Nova', class: 'sol-200' }] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().problems.map((p: { path: string }) => p.path).sort()).toEqual(['override/name_taken', 'override/name_taken', 'override/unknown_class']);
  });

  it('a roll-back after overrides is refused unless they are discarded', async () => {
    const refused = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/turns/last/rollback`, headers: auth(gm), payload: {} });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe('rollback/overrides_since');
    expect(refused.json().message).toMatch(/override\.fleet_moved/);
    const ok = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/turns/last/rollback`, headers: auth(gm), payload: { discardOverrides: true } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().overridesUndone).toHaveLength(3);
    expect(ok.json().run).toBe(2);
    expect(await db.prisma.fleet.count({ where: { campaignId: id, name: 'Reinforcements from Home' } })).toBe(0);
    expect(await db.prisma.ship.count({ where: { campaignId: id, name: 'HMS Victory' } })).toBe(0);
    expect(await fleetAt('Jamaica Squadron')).toEqual({ at: 'kingston', inHarbor: true });
    const stKitts = await db.prisma.port.findFirstOrThrow({ where: { campaignId: id, node: { key: 'st-kitts' } }, include: { owner: true } });
    expect(stKitts.owner.key).toBe('british');
  });

  it('the audit log lists every GM change, newest first', async () => {
    const res = await app.inject({ url: `/api/campaigns/${id}/audit?action=override.`, headers: auth(gm) });
    expect(res.statusCode).toBe(200);
    expect(res.json().entries.map((e: { action: string }) => e.action).sort()).toEqual(['override.fleet_moved', 'override.port_owner', 'override.reinforcements']);
  });
});
