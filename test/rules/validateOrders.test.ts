/** SPEC §3: orders checked against the campaign; "a reason a player can act on". */
import { describe, expect, it } from 'vitest';
import { validateOrders } from '../../src/rules/validateOrders.js';
import { campaign, fleet, neutral, power, ship } from './build.js';
import { move, ordersOf, portMap } from './steps.js';

function world() {
  const m = portMap(6, { n0: 'british', n3: 'french', n5: 'spanish' });
  m.nodes[0]!.name = 'Kingston';
  m.nodes[1]!.name = 'Windward Passage';
  m.nodes[2]!.name = 'Mona Passage';
  return campaign({
    ...m,
    powers: [power('british'), power('french'), neutral('spanish')],
    fleets: [
      fleet('A', 'british', 'n0', [ship('sol-74', 'british'), ship('frigate-40', 'british')], { inHarbor: true }),
      fleet('B', 'british', 'n1', [ship('sol-74', 'british')]),
      fleet('C', 'british', 'n2', [ship('sol-74', 'british')]),
      fleet('D', 'british', 'n3', [ship('sol-74', 'british')]),
      fleet('E', 'british', 'n4', [ship('frigate-40', 'british')]),
      fleet('F', 'french', 'n3', [ship('frigate-40', 'french')], { inHarbor: true }),
    ],
  });
}

const codes = (v: { code: string }[]) => v.map((x) => x.code);

describe('validateOrders', () => {
  it('"route steps adjacent": the message lists where the fleet can go', () => {
    const v = validateOrders(world(), ordersOf('british', [move('A', ['n2'], { leave: true, lines: [7] })]));
    expect(v).toEqual([{ code: 'orders/not_adjacent', line: 7, fleetId: 'A', message: 'Mona Passage is not adjacent to Kingston; from Kingston you can reach: Windward Passage' }]);
  });

  it('a good set of orders passes', () => {
    const v = validateOrders(world(), ordersOf('british', [move('A', ['n1', 'n2'], { leave: true }), { fleetId: 'B', stance: 'avoid', dropSlow: true }]));
    expect(v).toEqual([]);
  });

  it('"Moving more than three fleets in a turn is an error (HOLD/REPAIR do not count)"', () => {
    const ok = ordersOf('british', [move('B', ['n2']), move('C', ['n1']), move('E', ['n5']), { fleetId: 'A', repair: true }, { fleetId: 'D', hold: true }]);
    expect(validateOrders(world(), ok)).toEqual([]);
    const four = ordersOf('british', [move('B', ['n2']), move('C', ['n1']), move('E', ['n5']), move('A', ['n1'], { leave: true, lines: [9] })]);
    expect(validateOrders(world(), four)).toEqual([expect.objectContaining({ code: 'orders/too_many_fleets', line: 9, fleetId: 'A' })]);
  });

  it('the fleet must exist and be the power\'s own; an enemy fleet is told as one nobody has', () => {
    const v = validateOrders(world(), ordersOf('british', [{ fleetId: 'Z', hold: true }, { fleetId: 'F', hold: true }]));
    expect(v.map((x) => [x.code, x.message])).toEqual([
      ['orders/unknown_fleet', 'No fleet of yours called "Z"; check the name against your fleet list'],
      ['orders/unknown_fleet', 'No fleet of yours called "F"; check the name against your fleet list'],
    ]);
  });

  it('"A hostile harbor can never be entered"; a neutral one may be tried; a sea node has no harbor', () => {
    expect(codes(validateOrders(world(), ordersOf('british', [move('C', ['n3'], { harbor: true })])))).toEqual(['orders/hostile_harbor']);
    expect(validateOrders(world(), ordersOf('british', [move('E', ['n5'], { harbor: true })]))).toEqual([]);
    expect(codes(validateOrders(world(), ordersOf('british', [move('B', ['n2'], { harbor: true })])))).toEqual(['orders/no_harbor']);
  });

  it('REPAIR only in a friendly or neutral harbor, and not with a move', () => {
    expect(codes(validateOrders(world(), ordersOf('british', [{ fleetId: 'B', repair: true }])))).toEqual(['orders/repair_not_in_harbor']);
    expect(validateOrders(world(), ordersOf('british', [{ fleetId: 'A', repair: true }]))).toEqual([]);
  });

  it('REDUCE FORT at an enemy port with no defenders; ATTACK HARBOR where there are some', () => {
    // D lies in the French port space: it sees the French ships in harbor.
    expect(codes(validateOrders(world(), ordersOf('british', [{ fleetId: 'D', reduceFort: true }])))).toEqual(['orders/fort_defended']);
    expect(validateOrders(world(), ordersOf('british', [{ fleetId: 'D', attackHarbor: true }]))).toEqual([]);
    expect(codes(validateOrders(world(), ordersOf('british', [{ fleetId: 'B', reduceFort: true }])))).toEqual(['orders/not_a_port']);
    expect(codes(validateOrders(world(), ordersOf('british', [{ fleetId: 'A', reduceFort: true }])))).toEqual(['orders/not_enemy_port']);
    const empty = world();
    empty.fleets = empty.fleets.filter((f) => f.id !== 'F');
    expect(codes(validateOrders(empty, ordersOf('british', [{ fleetId: 'D', attackHarbor: true }])))).toEqual(['orders/no_defenders']);
  });

  it('a fleet that sails to a port this turn cannot know who is in its harbor: no defender check (SPEC §6)', () => {
    expect(validateOrders(world(), ordersOf('british', [move('C', ['n3'], { reduceFort: true })]))).toEqual([]);
  });

  it('FORM: ships of the power, in one place; orders may name the new fleet', () => {
    const w = world();
    const [big, small] = w.fleets[0]!.ships;
    const ok = ordersOf('british', [move('Frigates', ['n1'], { leave: true })], { forms: [{ name: 'Frigates', shipIds: [small!.id], line: 3 }] });
    expect(validateOrders(w, ok)).toEqual([]);
    const apart = ordersOf('british', [], { forms: [{ name: 'Mixed', shipIds: [big!.id, w.fleets[1]!.ships[0]!.id], line: 4 }] });
    expect(validateOrders(w, apart)).toEqual([expect.objectContaining({ code: 'orders/form_not_together', line: 4 })]);
    const theirs = ordersOf('british', [], { forms: [{ name: 'Stolen', shipIds: [w.fleets[5]!.ships[0]!.id] }] });
    // Another power's ship is told as one nobody has, by the id written, not by her name.
    expect(validateOrders(w, theirs).map((x) => [x.code, x.message])).toEqual([['orders/form_unknown_ship', `No ship of yours called "${w.fleets[5]!.ships[0]!.id}"`]]);
    const idLike = ordersOf('british', [], { forms: [{ name: 'F 9', shipIds: [small!.id] }] });
    expect(codes(validateOrders(w, idLike))).toEqual(['orders/form_name_taken']);
    const taken = ordersOf('british', [], { forms: [{ name: 'b', shipIds: [small!.id] }] });
    expect(codes(validateOrders(w, taken))).toEqual(['orders/form_name_taken']);
  });

  it('one mission fleet per power', () => {
    const v = validateOrders(world(), ordersOf('british', [{ fleetId: 'B', mission: true }, { fleetId: 'C', mission: true }]));
    expect(codes(v)).toEqual(['orders/two_mission_fleets']);
  });

  it('neutral powers take no orders', () => {
    expect(codes(validateOrders(world(), ordersOf('spanish', [])))).toEqual(['orders/not_playable']);
  });
});
