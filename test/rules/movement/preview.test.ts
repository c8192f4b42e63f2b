import { describe, expect, it } from 'vitest';
import { previewMovement } from '../../../src/rules/movement/index.js';
import { campaign, fleet, lineMap, neutral, port, power, ship } from '../build.js';
import { move } from './helpers.js';

const powers = [power('british'), power('french'), neutral('spanish')];

describe('previewMovement (where each fleet is at the end of each phase, ignoring other fleets and dice)', () => {
  it('shows waiting phases, leaving harbor, a trade-wind step over two phases, and where the fleet stops', () => {
    const state = campaign({
      ...lineMap(4, { wind: ['n1>n2'] }), powers, ports: [port('n0', 'british'), port('n2', 'spanish')],
      fleets: [fleet('a', 'british', 'n0', [ship('sol-74', 'british')], { inHarbor: true })],
    });
    const [p] = previewMovement(state, [move('a', ['n1', 'n2'], { leave: true, harbor: true })], 'british');
    expect(p!.phases.map((x) => [x.phase, x.node, x.inHarbor])).toEqual([
      [1, 'n0', true], [2, 'n0', true], [3, 'n0', false], [4, 'n1', false], [5, 'n1', false], [6, 'n2', false],
    ]);
    expect(p!.phases[0]!.note).toMatch(/phases 3-6/);
    expect(p!.phases[4]!.note).toMatch(/halfway/);
    expect(p).toMatchObject({ fleetId: 'a', stopsAt: 'n2', mp: 4, mpUsed: 4, windSteps: [['n1', 'n2']] });
    expect(p!.problems.map((x) => x.code)).toEqual(['outOfMp']);
    expect(p!.problems[0]!.message).toMatch(/need 5/);
    expect(state.fleets[0]).toMatchObject({ at: 'n0', inHarbor: true }); // pure
  });

  it('a neutral harbor is assumed to admit, and the note says so', () => {
    const state = campaign({ ...lineMap(3), powers, ports: [port('n1', 'spanish')], fleets: [fleet('a', 'british', 'n0', [ship('us-frigate-44', 'british')])] });
    const [p] = previewMovement(state, [move('a', ['n1'], { harbor: true })], 'british');
    expect(p!.phases[1]).toMatchObject({ node: 'n1', inHarbor: true });
    expect(p!.phases[1]!.note).toMatch(/admission roll assumed granted/);
    expect(p!.problems).toEqual([]);
  });

  it('lists problems: hostile harbor, non-adjacent step, too many fleets, a fleet not yours (told as one nobody has)', () => {
    const state = campaign({
      ...lineMap(4), ports: [port('n1', 'french')],
      fleets: ['a', 'b', 'c', 'd'].map((id) => fleet(id, 'british', 'n0', [ship('us-frigate-44', 'british')])).concat(fleet('x', 'french', 'n0', [ship('sol-74', 'french')])),
    });
    const out = previewMovement(state, [
      move('a', ['n1'], { harbor: true, lines: [3] }), move('b', ['n1', 'n3']), move('c', ['n1']), move('d', ['n1']), move('x', ['n1']),
    ], 'british');
    expect(out.map((p) => [p.fleetId, p.problems.map((x) => x.code)])).toEqual([
      ['a', ['hostileHarbor']], ['b', ['notAdjacent']], ['c', []], ['d', ['tooManyFleets']], ['x', ['unknownFleet']],
    ]);
    expect(out[0]!.problems[0]!.line).toBe(3);
    expect(out[0]).toMatchObject({ stopsAt: 'n1' });
    expect(out[1]).toMatchObject({ stopsAt: 'n1', mpUsed: 1 });
    expect(out[3]).toMatchObject({ stopsAt: 'n0', mpUsed: 0 });
    expect(out[4]).toMatchObject({ stopsAt: null, phases: [] });
    // An orders error must not reveal enemy names.
    expect(out[4]!.problems[0]!.message).toBe('no fleet of yours called "x"');
  });
});
