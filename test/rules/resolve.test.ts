/** SPEC §4: the turn, step by step (deterministic); the orchestrator's contract. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scriptedDice, seededDice } from '../../src/rules/dice.js';
import type { GameEvent } from '../../src/rules/events.js';
import type { FleetOrders, PowerOrders } from '../../src/rules/orders.js';
import { resolveTurn } from '../../src/rules/resolve.js';
import type { Battle, CampaignState } from '../../src/rules/state.js';
import { campaign, fleet, neutral, power, ship } from './build.js';
import { move, ofType, ordersOf, portMap } from './steps.js';

const CONVOYS: [string, string][] = [['n0', 'n6'], ['n6', 'n0'], ['n0', 'n3'], ['n3', 'n6'], ['n6', 'n3'], ['n3', 'n0']];

/** Two powers on a line of seven nodes, ports at both ends and a neutral one in the middle. */
function sea(): CampaignState {
  return campaign({
    ...portMap(7, { n0: 'british', n6: 'french', n3: 'spanish' }),
    powers: [power('british', { convoyTable: CONVOYS }), power('french', { convoyTable: CONVOYS }), neutral('spanish')],
    fleets: [
      fleet('B1', 'british', 'n0', [ship('sol-74', 'british'), ship('sol-74', 'british', { hull: 9, crew: [4, 6, 6] })], { inHarbor: true }),
      fleet('B2', 'british', 'n2', [ship('frigate-40', 'british')]),
      fleet('F1', 'french', 'n6', [ship('sol-74', 'french'), ship('frigate-40', 'french')], { inHarbor: true }),
      fleet('F2', 'french', 'n4', [ship('frigate-40', 'french', { supplies: 1 })]),
    ],
  });
}

const plan = (): PowerOrders[] => [
  ordersOf('british', [{ fleetId: 'B1', repair: true }, move('B2', ['n3', 'n4'], { stance: 'engage' })]),
  ordersOf('french', [move('F2', ['n3', 'n2']), move('F1', ['n5'], { leave: true })]),
];

describe('resolveTurn', () => {
  it('runs the steps in canonical order and opens the next turn with the same dice', () => {
    const state = sea();
    const r = resolveTurn(state, plan(), seededDice('order'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const types = r.events.map((e) => e.type);
    const first = (t: string) => types.indexOf(t as never);
    expect(first('repair')).toBeGreaterThanOrEqual(0);
    expect(first('repair')).toBeLessThan(first('move'));
    expect(first('crew')).toBeLessThan(first('move'));
    expect(first('move')).toBeLessThan(first('supplies'));
    // The next turn's opening rolls belong to that turn, apart from this turn's events.
    expect(first('turnOpened')).toBe(-1);
    const opening = r.opening;
    expect(opening[0]!.type).toBe('turnOpened');
    expect(opening.filter((e) => e.roll?.purpose.startsWith('orders table')).map((e) => e.power)).toEqual(['british', 'french']);
    expect(r.state.turn).toBe(2);
    expect(state.turn).toBe(1); // the input is untouched
    for (const e of [...r.events, ...r.opening]) {
      expect(typeof e.text).toBe('string');
      expect(Array.isArray(e.visibleTo)).toBe(true);
      expect(e.phase).toBeGreaterThanOrEqual(0);
      if (e.roll) expect(Object.keys(e.roll)).toEqual(expect.arrayContaining(['die', 'modifier', 'total', 'result', 'purpose']));
    }
  });

  it('same seed, same orders → the same event log and state, byte for byte (JSON.stringify)', () => {
    const base = sea();
    const run = () => {
      let s = structuredClone(base);
      const log: unknown[] = [];
      for (let t = 0; t < 3; t++) {
        const r = resolveTurn(s, t === 0 ? plan() : [], seededDice(`seed-${t}`));
        if (!r.ok) throw new Error(r.error.message);
        log.push(r.events);
        s = r.state;
        s.battles.forEach((b) => { b.status = 'resolved'; });
      }
      return JSON.stringify({ log, s });
    };
    expect(run()).toBe(run());
  });

  it('"A script that runs out is an error that names the roll that was wanting"', () => {
    const r = resolveTurn(sea(), plan(), scriptedDice([]));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('dice/script_exhausted');
    expect(r.error.message).toMatch(/roll 1, wanted for: crew: N0 \(d6-5\)/);
  });

  it('"The next turn cannot be resolved while a battle of this turn is pending, unless the GM says so"', () => {
    const state = sea();
    const battle: Battle = { id: 'b7', turn: 1, phase: 2, node: 'n3', harbor: false, fort: null, sides: [], status: 'pending', result: null };
    state.battles.push(battle);
    const r = resolveTurn(state, [], seededDice('x'));
    expect(r).toMatchObject({ ok: false, error: { code: 'turn/pending_battles', message: expect.stringContaining('b7 (turn 1)') } });
    state.settings.allowPendingBattles = true;
    expect(resolveTurn(state, [], seededDice('x')).ok).toBe(true);
  });

  it('a finished campaign resolves no more turns', () => {
    const state = sea();
    state.winner = 'british';
    expect(resolveTurn(state, [], seededDice('x'))).toMatchObject({ ok: false, error: { code: 'turn/campaign_over' } });
  });

  it('returns the battles made this turn; settings.autoResolveBattles fights them on the abstract table at once', () => {
    const meet = () => {
      const s = sea();
      // Each the mission fleet of its power's patrol (rules VI: orders "in keeping with the orders they receive").
      s.fleets = [fleet('B2', 'british', 'n2', [ship('sol-74', 'british')], { stance: 'engage', onMission: true }), fleet('F2', 'french', 'n3', [ship('sol-74', 'french')], { stance: 'engage', onMission: true })];
      s.powers.forEach((p) => { if (p.playable) p.mission = { type: 'patrol', target: null, from: null, to: null, since: 1, progress: null }; });
      return s;
    };
    const orders = [ordersOf('british', [{ fleetId: 'B2', hold: true }]), ordersOf('french', [move('F2', ['n2'])])];
    // Spotting in phase 4: both roll 6 (+1 per enemy ship) and both want contact: a battle.
    // After step 7 the battle's weather: four d6 (wind direction, force, sea state, time of day).
    const pending = resolveTurn(meet(), orders, scriptedDice([6, 6, 2, 5, 4, 6]));
    expect(pending.ok).toBe(true);
    if (!pending.ok) return;
    expect(pending.battles).toHaveLength(1);
    expect(pending.battles[0]!.status).toBe('pending');
    const auto = meet();
    auto.settings.autoResolveBattles = true;
    const r = resolveTurn(auto, orders, scriptedDice([6, 6, 3, 3, 3, 3, 3, 3, 6, 6, 6, 6, 2, 5, 4, 6]));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.battles[0]!.status).toBe('resolved');
    expect(r.battles[0]!.result!.source).toBe('abstract');
    expect(ofType(r.events, 'battleResult')).not.toHaveLength(0);
  });

  it('orders that break a rule are dropped with an orderRejected event for that power only', () => {
    const state = sea();
    const r = resolveTurn(state, [ordersOf('british', [move('B2', ['n5'])])], seededDice('x'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const [rej] = ofType(r.events, 'orderRejected');
    expect(rej).toMatchObject({ code: 'orders/not_adjacent', visibleTo: ['british'] });
    expect(r.state.fleets.find((f) => f.id === 'B2')!.at).toBe('n2');
  });

  it('property: ships are conserved except by sinking, loss or capture', () => {
    const nodes = ['n0', 'n1', 'n2', 'n3', 'n4', 'n5', 'n6'];
    const route = fc.array(fc.integer({ min: -1, max: 1 }), { minLength: 0, maxLength: 4 });
    const fleetOrder = fc.record({ steps: route, fort: fc.boolean(), stance: fc.constantFrom('engage', 'engage', 'avoid', 'engage-if-stronger' as const) });
    const seen = { lost: 0, prizes: 0 };
    fc.assert(fc.property(fc.string(), fc.array(fleetOrder, { minLength: 4, maxLength: 4 }), fc.boolean(), (seed, plans, auto) => {
      let state = sea();
      // Crowd the middle of the map so that fleets meet, fight and attack forts.
      state.fleets[1]!.at = 'n3';
      state.fleets[3]!.at = 'n3';
      state.fleets[0]!.ships.push(ship('frigate-40', 'british', { guns: 2 }));
      state.settings.autoResolveBattles = auto;
      state.settings.allowPendingBattles = true;
      const before = new Set(state.fleets.flatMap((f) => f.ships.map((s) => s.id)));
      const log: GameEvent[] = [];
      for (let turn = 0; turn < 3; turn++) {
        const orders: PowerOrders[] = [];
        for (const p of ['british', 'french']) {
          const mine: FleetOrders[] = [];
          state.fleets.filter((f) => f.power === p).forEach((f, i) => {
            const pl = plans[(i + (p === 'french' ? 2 : 0)) % plans.length]!;
            let at = nodes.indexOf(f.at);
            const r: string[] = [];
            for (const d of pl.steps) { const n = at + d; if (d !== 0 && n >= 0 && n < nodes.length) { r.push(nodes[n]!); at = n; } }
            mine.push(r.length ? move(f.id, r, { leave: f.inHarbor, stance: pl.stance, reduceFort: pl.fort }) : { fleetId: f.id, hold: true, reduceFort: pl.fort });
          });
          orders.push(ordersOf(p, mine));
        }
        const r = resolveTurn(state, orders, seededDice(`${seed}/${turn}`));
        if (!r.ok) throw new Error(r.error.message);
        log.push(...r.events);
        state = r.state;
      }
      const all = state.fleets.flatMap((f) => f.ships);
      const ids = all.map((s) => s.id);
      expect(new Set(ids).size).toBe(ids.length); // no ship in two fleets
      expect(new Set(ids)).toEqual(before); // none made, none vanished: the sunk stay listed as sunk
      const lost = all.filter((s) => s.status !== 'afloat');
      expect(lost.every((s) => s.status === 'sunk')).toBe(true);
      expect(state.fleets.every((f) => f.ships.length > 0)).toBe(true);
      // Every ship that stopped being afloat was reported lost.
      const reported = new Set(log.flatMap((e) => (e.type === 'shipLost' && !e.fleetGone && e.cause !== 'captured' ? e.shipIds?.slice(0, 1) ?? [] : [])));
      expect(new Set(lost.map((s) => s.id))).toEqual(reported);
      seen.lost += lost.length;
      seen.prizes += state.fleets.flatMap((f) => f.ships).filter((s) => s.capturedBy).length;
    // A fixed seed: since prizes go only to the side that wins, a random 60 runs sometimes
    // took no prize at all and the check below failed by chance; this seed takes several.
    }), { numRuns: 100, seed: 1805 });
    // The property is only worth something if ships were in fact lost and taken.
    expect(seen.lost).toBeGreaterThan(0);
    expect(seen.prizes).toBeGreaterThan(0);
  });
});
