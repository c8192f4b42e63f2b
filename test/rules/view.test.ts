// SPEC §6: "A player sees their own fleets, ports and orders; enemy fleets only where their
// fleets sighted them this turn or they sit in a port space the player's fleets occupied."
import { describe, expect, it } from 'vitest';
import { eventsFor, viewFor } from '../../src/rules/view.js';
import { campaign, fleet, lineMap, port, power, ship } from './build.js';

function world() {
  const map = lineMap(5);
  map.nodes[2] = { ...map.nodes[2]!, kind: 'port', name: 'Kingston' };
  return campaign({
    ...map,
    turn: 3,
    powers: [power('british'), power('french'), power('american')],
    ports: [port('n2', 'british')],
    fleets: [
      fleet('brit', 'british', 'n0', [ship('sol-74', 'british')]),
      fleet('brit-port', 'british', 'n2', [ship('sol-74', 'british')], { inHarbor: true }),
      fleet('fr-seen', 'french', 'n1', [ship('sol-74', 'french')]),
      fleet('fr-hidden', 'french', 'n4', [ship('sol-74', 'french', { name: 'Hidden Ship' })]),
      fleet('fr-old', 'french', 'n3', [ship('sol-74', 'french')]),
      fleet('am-in-port-space', 'american', 'n2', [ship('frigate-40', 'american')]),
    ],
    sightings: [
      { observer: 'british', fleetId: 'fr-seen', power: 'french', fleetName: 'fr-seen', node: 'n1', turn: 2, phase: 4, ships: [] },
      { observer: 'british', fleetId: 'fr-old', power: 'french', fleetName: 'fr-old', node: 'n1', turn: 1, phase: 3, ships: [] },
      { observer: 'french', fleetId: 'brit', power: 'british', fleetName: 'brit', node: 'n0', turn: 2, phase: 2, ships: [] },
    ],
  });
}

describe('viewFor (SPEC §6 who sees what)', () => {
  it('shows own fleets whole, and no enemy fleet that was not sighted', () => {
    const v = viewFor(world(), 'british');
    expect(v.fleets.map((f) => f.id).sort()).toEqual(['brit', 'brit-port']);
    const seen = v.enemyFleets.map((f) => f.id).sort();
    expect(seen).toEqual(['am-in-port-space', 'fr-seen']);
    expect(JSON.stringify(v)).not.toContain('fr-hidden');
    expect(JSON.stringify(v)).not.toContain('Hidden Ship');
  });

  it('a sighting from an earlier turn is a last-known position, not a current fleet', () => {
    const v = viewFor(world(), 'british');
    expect(v.enemyFleets.some((f) => f.id === 'fr-old')).toBe(false);
    expect(v.sightings.find((s) => s.fleetId === 'fr-old')?.turn).toBe(1);
  });

  it('never shows another power\'s sightings, mission or enemy damage', () => {
    const state = world();
    state.powers[1]!.mission = { type: 'raid', target: 'n2', from: null, to: null, since: 1, progress: null };
    const v = viewFor(state, 'british');
    expect(v.sightings.every((s) => s.observer === 'british')).toBe(true);
    expect(v.mission).toBeNull();
    const seen = v.enemyFleets.find((f) => f.id === 'fr-seen')!;
    expect(Object.keys(seen.ships[0]!).sort()).toEqual(['classKey', 'name']);
  });

  it('events are cut to the powers named in visibleTo', () => {
    const events = [
      { visibleTo: ['british'], text: 'a' },
      { visibleTo: ['french'], text: 'b' },
      { visibleTo: ['british', 'french'], text: 'c' },
    ];
    expect(eventsFor(events, { role: 'player', power: 'british' }).map((e) => e.text)).toEqual(['a', 'c']);
    expect(eventsFor(events, { role: 'gm' })).toHaveLength(3);
  });
});

describe('viewFor: own losses', () => {
  it('shows a player\'s fleets with the ships still afloat only', () => {
    const state = world();
    const fleet = state.fleets.find((f) => f.id === 'brit')!;
    fleet.ships.push(ship('frigate-40', 'british', { name: 'HMS Lost', status: 'sunk' }));
    const v = viewFor(state, 'british');
    const seen = v.fleets.find((f) => f.id === 'brit')!;
    expect(seen.ships.map((s) => s.name)).not.toContain('HMS Lost');
    expect(seen.ships.length).toBe(1);
  });
});
