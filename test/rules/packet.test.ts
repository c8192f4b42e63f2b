/**
 * Despatches by packet: the table of docs/rules-interpretation.md ("Despatches by packet"):
 * 1 the route (sender's nearest port to the recipient's, shortest lanes), 2 the danger (a node
 * of the route, ports of call excluded, where a fleet at war with the sender ended a phase),
 * 3 the roll (d6 per danger node in route order: 6 takes, 5-6 for a raid/blockade/patrol
 * fleet; the first that takes decides), with the turn's own dice, after the battles' weather.
 */
import { describe, expect, it } from 'vitest';
import { scriptedDice } from '../../src/rules/dice.js';
import type { GameEvent } from '../../src/rules/events.js';
import { dangerNodes, packetInterception, packetRoute, type PhaseEnd } from '../../src/rules/packet.js';
import { resolveTurn } from '../../src/rules/resolve.js';
import { campaign, fleet, power, ship } from './build.js';
import { portMap } from './steps.js';

/** n0 … n8 in a line: British ports at n0 and n2, the American at n5, the French at n8. */
function line() {
  return campaign({
    ...portMap(9, { n0: 'british', n2: 'british', n5: 'american', n8: 'french' }),
    powers: [power('british'), power('french'), power('american')],
  });
}

const words = { power: (k: string) => k, node: (n: string) => n, fleet: (f: string) => f };
const end = (fleetId: string, power: string, node: string, phase = 6): PhaseEnd => ({ phase, fleetId, power, node });

describe('1. the route', () => {
  it('runs from the sender\'s port nearest the recipient\'s, along the shortest lanes', () => {
    expect(packetRoute(line(), 'british', ['french'])).toEqual({ nodes: ['n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8'], calls: ['n2', 'n8'] });
  });

  it('calls at a port of each recipient in turn (scenario order) when it goes to several', () => {
    expect(packetRoute(line(), 'british', ['american', 'french'])?.calls).toEqual(['n2', 'n5', 'n8']);
  });

  it('has none when the sender or every recipient holds no port', () => {
    expect(packetRoute(line(), 'spanish', ['french'])).toBeNull();
    expect(packetRoute(line(), 'british', ['spanish'])).toBeNull();
  });
});

describe('2. the danger', () => {
  const route = packetRoute(line(), 'british', ['french'])!;
  const atWarWithBritain = (p: string) => p === 'french';
  it('is each node of the route, ports of call excluded, where an enemy fleet ended a phase; each node once, in route order', () => {
    const ends = [end('F1', 'french', 'n6', 2), end('F1', 'french', 'n4', 3), end('F1', 'french', 'n4', 4), end('F2', 'french', 'n8'), end('A1', 'american', 'n3')];
    expect(dangerNodes(route, ends, atWarWithBritain, () => false)).toEqual([
      { node: 'n4', fleets: [{ fleetId: 'F1', power: 'french', mission: false }] },
      { node: 'n6', fleets: [{ fleetId: 'F1', power: 'french', mission: false }] },
    ]);
  });
});

describe('3. the roll', () => {
  const danger = (mission: boolean) => [{ node: 'n4', fleets: [{ fleetId: 'F1', power: 'french', mission }] }, { node: 'n6', fleets: [{ fleetId: 'F2', power: 'french', mission: false }] }];
  const packet = { id: 'd1', sender: 'british', recipients: ['american'] };

  it('takes it on 6; the first node that takes it decides, and nothing is rolled after', () => {
    const dice = scriptedDice([6, 1]);
    const events: GameEvent[] = [];
    expect(packetInterception({ dice, events }, packet, danger(false), words)).toEqual({ id: 'd1', takenBy: 'french', at: 'n4', takenFleet: 'F1' });
    expect(dice.rolls).toHaveLength(1);
    expect(events).toEqual([expect.objectContaining({ type: 'packet', visibleTo: [], despatchId: 'd1', roll: expect.objectContaining({ die: 6, result: 'taken by french' }) })]);
  });

  it('a 5 passes an ordinary fleet, and is taken by a fleet on a raid, blockade or patrol mission', () => {
    const passed = packetInterception({ dice: scriptedDice([5, 4]), events: [] }, packet, danger(false), words);
    expect(passed.takenBy).toBeNull();
    const taken = packetInterception({ dice: scriptedDice([5]), events: [] }, packet, danger(true), words);
    expect(taken).toMatchObject({ takenBy: 'french', at: 'n4' });
  });
});

describe('in the turn', () => {
  it('rolls with the turn\'s dice after the battles\' weather and before the next turn opens; a recipient\'s or a neutral\'s fleet never takes it', () => {
    const state = line();
    state.settings.relations = { 'american|french': 'neutral' };
    state.fleets = [
      fleet('F1', 'french', 'n4', [ship('frigate-40', 'french')]),
      fleet('A1', 'american', 'n3', [ship('frigate-40', 'american')]),
    ];
    // British to the American: danger at n4 (France is at war with Britain); n3 holds the recipient's own fleet.
    // French to the American: Britain has no fleet at sea, the American is neutral: no roll.
    const packets = [{ id: 'd1', sender: 'british', recipients: ['american'] }, { id: 'd2', sender: 'french', recipients: ['american'] }];
    const r = resolveTurn(state, [], scriptedDice([6, 1, 1, 1]), packets);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.packets).toEqual([{ id: 'd1', takenBy: 'french', at: 'n4', takenFleet: 'F1' }, { id: 'd2', takenBy: null, at: null, takenFleet: null }]);
    const rolls = r.events.filter((e) => e.roll);
    expect(rolls.map((e) => e.type)).toEqual(['packet']);
    expect(r.opening.filter((e) => e.roll)).toHaveLength(3); // the three missions of the next turn, after it
  });
});
