import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { describeOrders, parseOrders } from '../../src/orders/index.js';
import { mapIndex } from '../../src/rules/map.js';
import type { FleetOrders, FormOrder, PowerOrders } from '../../src/rules/orders.js';
import type { Stance } from '../../src/scenario/types.js';
import { caribbean } from './fixture.js';

const state = caribbean();
const map = mapIndex(state);
const isPort = (id: string) => state.ports.some((p) => p.node === id);

/** Orders without the line numbers the parser adds. */
function bare(o: PowerOrders | null): PowerOrders | null {
  if (!o) return o;
  return {
    ...o,
    fleets: o.fleets.map(({ lines: _l, ...f }) => f),
    forms: o.forms.map(({ line: _l, ...f }) => f),
  };
}

describe('describeOrders', () => {
  it('writes orders back in the canonical language, one order a line', () => {
    const orders: PowerOrders = {
      power: 'british',
      forms: [{ name: 'Flying Squadron', shipIds: ['b4', 'b5'] }],
      missionTarget: 'cap-francais',
      fleets: [
        { fleetId: 'f1', move: { leaveHarbor: true, route: ['windward-passage', 'mona-passage'], enterHarbor: false }, stance: 'engage-if-stronger', mission: true },
        { fleetId: 'f2', move: { leaveHarbor: false, route: [], enterHarbor: true }, dropSlow: true },
        { fleetId: 'f4', hold: true, repair: true },
        { fleetId: 'Flying Squadron', reduceFort: true, stance: 'avoid' },
        { fleetId: 'f5', move: { leaveHarbor: false, route: ['mona-passage', 'leeward-islands', 'box-1'], enterHarbor: false }, attackHarbor: true },
      ],
    };
    expect(describeOrders(orders, state)).toEqual([
      'POWER british',
      'FORM "Flying Squadron" FROM "HMS Tartar", "HMS Cerberus"',
      'MISSION TARGET "Cap Français"',
      'FLEET "Jamaica Squadron": LEAVE HARBOR MOVE "Windward Passage" "Mona Passage"',
      'FLEET "Jamaica Squadron": STANCE ENGAGE IF STRONGER',
      'FLEET "Jamaica Squadron": MISSION',
      'FLEET "Leeward Squadron": MOVE HARBOR',
      'FLEET "Leeward Squadron": DROP SLOW',
      'FLEET "Inshore Squadron": HOLD',
      'FLEET "Inshore Squadron": REPAIR',
      'FLEET "Flying Squadron": STANCE AVOID',
      'FLEET "Flying Squadron": REDUCE FORT',
      'FLEET "Frigate Squadron": MOVE "Mona Passage" "Leeward Islands" "Box 1 (Atlantic)"',
      'FLEET "Frigate Squadron": ATTACK HARBOR',
    ]);
    const back = parseOrders(describeOrders(orders, state).join('\n'), state);
    expect(back.errors).toEqual([]);
    expect(bare(back.orders)).toEqual(orders);
  });

  it('uses the id where two things share a name', () => {
    const s = caribbean();
    s.fleets.find((f) => f.id === 'f2')!.name = 'Jamaica Squadron';
    const lines = describeOrders({ power: 'british', forms: [], fleets: [{ fleetId: 'f2', hold: true }] }, s);
    expect(lines).toEqual(['POWER british', 'FLEET "f2": HOLD']);
    expect(bare(parseOrders(lines.join('\n'), s).orders)?.fleets).toEqual([{ fleetId: 'f2', hold: true }]);
  });
});

// ---------------------------------------------------------------- the round trip

const STANCES: Stance[] = ['engage', 'avoid', 'engage-if-stronger'];
const FORM_NAMES = ['Flying Squadron', "Admiral's Own", 'Detached Frigates'];

const fleetPlan = fc.record({
  kind: fc.constantFrom('none', 'move', 'move', 'hold', 'repair', 'hold+repair'),
  walk: fc.array(fc.nat(), { maxLength: 5 }),
  enter: fc.boolean(),
  stance: fc.option(fc.constantFrom(...STANCES), { nil: undefined }),
  dropSlow: fc.boolean(),
  mission: fc.boolean(),
  fort: fc.constantFrom(undefined, 'reduceFort' as const, 'attackHarbor' as const),
});
type Plan = typeof fleetPlan extends fc.Arbitrary<infer T> ? T : never;

const ordersArb = fc.record({
  plans: fc.array(fleetPlan, { minLength: 5, maxLength: 5 }),
  order: fc.shuffledSubarray(['f1', 'f2', 'f3', 'f4', 'f5']),
  form: fc.option(fc.record({
    from: fc.constantFrom('f1', 'f3'),
    both: fc.boolean(),
    name: fc.constantFrom(...FORM_NAMES),
    plan: fleetPlan,
  }), { nil: undefined }),
  target: fc.option(fc.constantFrom('kingston', 'st-kitts', 'cap-francais', 'english-harbour'), { nil: undefined }),
}).map(({ plans, order, form, target }) => {
  let movers = 0;
  const build = (id: string, at: string, inHarbor: boolean, plan: Plan): FleetOrders | undefined => {
    const o: FleetOrders = { fleetId: id };
    if (plan.kind === 'move' && movers < 3) {
      const route: string[] = [];
      let cur = at;
      for (const n of plan.walk) {
        const next = map.neighbours(cur);
        cur = next[n % next.length]!;
        route.push(cur);
      }
      const last = route.length ? route[route.length - 1]! : at;
      const enterHarbor = plan.enter && isPort(last) && !(inHarbor && route.length === 0);
      if (inHarbor || route.length > 0 || enterHarbor) {
        o.move = { leaveHarbor: inHarbor, route, enterHarbor };
        movers++;
      }
    }
    if (plan.kind === 'hold' || plan.kind === 'hold+repair') o.hold = true;
    if (plan.kind === 'repair' || plan.kind === 'hold+repair') o.repair = true;
    if (plan.stance) o.stance = plan.stance;
    if (plan.dropSlow) o.dropSlow = true;
    if (plan.mission) o.mission = true;
    if (plan.fort && !o.repair) o[plan.fort] = true;
    return Object.keys(o).length > 1 ? o : undefined;
  };
  const fleets: FleetOrders[] = [];
  const forms: FormOrder[] = [];
  order.forEach((id, i) => {
    const f = state.fleets.find((x) => x.id === id)!;
    const o = build(id, f.at, f.inHarbor, plans[i]!);
    if (o) fleets.push(o);
  });
  if (form) {
    const f = state.fleets.find((x) => x.id === form.from)!;
    forms.push({ name: form.name, shipIds: f.ships.slice(0, form.both ? 2 : 1).map((s) => s.id) });
    const o = build(form.name, f.at, f.inHarbor, form.plan);
    if (o) fleets.push(o);
  }
  const orders: PowerOrders = { power: 'british', fleets, forms, ...(target ? { missionTarget: target } : {}) };
  return orders;
});

describe('round trip', () => {
  it('parseOrders(describeOrders(x)) gives x back, for random valid orders', () => {
    fc.assert(fc.property(ordersArb, (orders) => {
      const text = describeOrders(orders, state).join('\n');
      const back = parseOrders(text, state, { power: 'british' });
      expect(back.errors).toEqual([]);
      expect(back.warnings).toEqual([]);
      expect(bare(back.orders)).toEqual(orders);
      // Every line reads as an order or a header.
      expect(back.lines.every((l) => l.status === 'order' || l.status === 'header')).toBe(true);
    }), { numRuns: 500 });
  });

  it('describing what was parsed reads the same orders (loose input → canonical text → same orders)', () => {
    const text = [
      'power: British', 'password: x y z',
      'fleet jamaica squadron: leave harbour, then move to windward passage mona passage',
      'fleet WINDWARD-SQUADRON: move cap francais harbor',
      'Fleet Leeward Squadron: stance engage-if-stronger',
      'form Flying Frigates from Pique',
      "FLEET 'Flying Frigates': MOVE South of Jamaica",
    ].join('\n');
    const first = parseOrders(text, state);
    expect(first.errors).toEqual([]);
    const again = parseOrders(describeOrders(first.orders!, state).join('\n'), state);
    expect(again.errors).toEqual([]);
    expect(bare(again.orders)).toEqual(bare(first.orders));
  });
});
