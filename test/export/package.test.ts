// The battle package every format is made from (date, place, who attacks, ships as they are
// now, convoy, weather, fort of a harbor attack, victory), and who may receive it (SPEC §6:
// "battles they took part in").
import { describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { scriptedDice, seededDice } from '../../src/rules/dice.js';
import {
  battlePackage, BattleNotFound, canReceivePackage, packageForPower, packageForReader,
} from '../../src/export/package.js';
import { BattlePackageSchema } from '../../src/export/json.js';
import { GNG_WEATHER_CHANGE } from '../../src/export/rulesText.js';
import { NAMES, world } from './fixture.js';

describe('battlePackage: a battle at sea', () => {
  const state = world();
  const pkg = battlePackage(state, 'b1');

  it('dates the battle from the campaign start (turn 3 of a January 1805 start is March 1805)', () => {
    expect(pkg.turn).toBe(3);
    expect(pkg.date).toBe('March 1805');
    expect(pkg.campaign).toBe('Caribbean 1805');
  });

  it('names the place and who attacks', () => {
    expect(pkg.location).toMatchObject({ nodeId: 'n1', name: 'Windward Passage', kind: 'sea', harbor: false, port: null });
    expect(pkg.attacker).toEqual({ power: 'british', powerName: 'Great Britain' });
    expect(pkg.sides.map((s) => [s.power, s.attacker])).toEqual([['british', true], ['french', false]]);
    expect(pkg.fort).toBeNull();
    expect(pkg.shoals).toBeNull();
  });

  it("gives each ship's boxes left against its class capacity, crew quality and supplies", () => {
    const bel = pkg.sides[0]!.ships.find((s) => s.name === NAMES.bellerophon)!;
    expect(bel).toMatchObject({
      classKey: 'sol-74', className: '74-gun third rate', type: 'ship-of-the-line', rate: 74, mp: 4, points: 24,
      crewQuality: 'crack', nationality: 'British', fleetName: 'Jamaica Squadron',
      supplies: { months: 2, full: 4 },
      hull: { left: 9, capacity: 13 },
      guns: { left: 9, capacity: 11 },
      carronades: { left: 1, capacity: 2 },
    });
    expect(bel.rigging).toEqual([
      { mast: 'fore', left: 6, capacity: 6 }, { mast: 'main', left: 4, capacity: 6 }, { mast: 'mizzen', left: 0, capacity: 5 },
    ]);
    expect(bel.crew).toEqual([
      { section: 1, left: 6, capacity: 6 }, { section: 2, left: 5, capacity: 6 }, { section: 3, left: 4, capacity: 6 },
    ]);
    const hortense = pkg.sides[1]!.ships.find((s) => s.name === NAMES.hortense)!;
    expect(hortense).toMatchObject({ crewQuality: 'green', type: 'frigate', points: 14, hull: { left: 8, capacity: 8 } });
  });

  it('lists the convoy a side escorts, and sums the ship points of each side', () => {
    expect(pkg.sides[1]!.convoys).toEqual([{
      fleetId: 'mar', fleetName: 'Escadre de la Martinique', from: 'n2', fromName: 'Martinique (Fort-de-France)',
      to: 'n0', toName: 'Kingston (Jamaica)', merchantmen: 5,
    }]);
    expect(pkg.sides[0]!.convoys).toEqual([]);
    expect(pkg.sides.map((s) => s.points)).toEqual([24 + 9, 27 + 14]);
    expect(pkg.victory.points).toEqual([
      { power: 'british', powerName: 'Great Britain', points: 33 },
      { power: 'french', powerName: 'France', points: 41 },
    ]);
    expect(pkg.victory.conditions.join(' ')).toMatch(/convoy shares the fate of its escort/);
    expect(pkg.victory.stakes.join(' ')).toMatch(/Convoy captured: 2 VP/);
  });

  it('describes the wind from the prevailing north-east trade wind, with sea state and time of day', () => {
    const w = pkg.weather;
    expect(w.wind.prevailing).toBe('NE');
    expect(w.wind.description).toMatch(/^from the (north|north-east|east), force (light|moderate|fresh|strong)$/);
    expect(w.wind.change).toBeNull();
    expect(w.source).toBe('seeded');
    expect(w.rolls.map((r) => r.purpose)).toEqual([
      'battle b1: wind direction', 'battle b1: wind force', 'battle b1: sea state', 'battle b1: time of day',
    ]);
  });

  it('is deterministic: the same battle and turn always give the same weather', () => {
    expect(battlePackage(world(), 'b1')).toEqual(pkg);
    expect(battlePackage(world(), 'b2').weather.rolls).not.toEqual([]);
  });

  it('takes the weather from the dice when given (direction, force, sea, time of day)', () => {
    const scripted = battlePackage(state, 'b1', { dice: scriptedDice([1, 5, 6, 6]) });
    expect(scripted.weather).toMatchObject({
      wind: { from: 'N', force: 'fresh', description: 'from the north, force fresh' },
      seaState: { key: 'rough' }, timeOfDay: { key: 'evening' }, source: 'dice',
    });
    const trade = battlePackage(state, 'b1', { dice: scriptedDice([3, 3, 1, 2]) });
    expect(trade.weather.wind.description).toBe('from the north-east, force moderate');
    expect(trade.weather.seaState.key).toBe('smooth');
    expect(trade.weather.timeOfDay.key).toBe('morning');
    const dice = seededDice('gm');
    battlePackage(state, 'b1', { dice });
    expect(dice.rolls).toHaveLength(4);
  });

  it('quotes the Galleys & Galleons weather change as how the wind may shift, when asked', () => {
    const p = battlePackage(state, 'b1', { weatherChange: true });
    expect(p.weather.wind.change?.quote).toEqual([...GNG_WEATHER_CHANGE]);
    expect(p.weather.wind.change?.quote.join(' ')).toMatch(/On a score of 6 the wind may change direction/);
    expect(p.weather.wind.change?.rule).toMatch(/Galleys & Galleons house rules/);
  });

  it('matches its TypeBox schema (the OpenAPI document)', () => {
    expect(Value.Check(BattlePackageSchema, pkg)).toBe(true);
    expect(Value.Check(BattlePackageSchema, battlePackage(state, 'b2', { weatherChange: true }))).toBe(true);
    expect(Value.Check(BattlePackageSchema, { ...pkg, turn: 'three' })).toBe(false);
  });

  it('is pure: the state is left as it was', () => {
    const s = world();
    const before = structuredClone(s);
    battlePackage(s, 'b1', { weatherChange: true });
    battlePackage(s, 'b2');
    expect(s).toEqual(before);
  });

  it('refuses an unknown battle', () => {
    expect(() => battlePackage(state, 'b99')).toThrow(BattleNotFound);
  });

  it('still shows a ship that has gone down since (sunk ships stay in their fleet)', () => {
    const s = world();
    const fleet = s.fleets.find((f) => f.id === 'jam')!;
    fleet.ships.find((x) => x.name === NAMES.circe)!.status = 'sunk';
    const p = battlePackage(s, 'b1');
    expect(p.sides[0]!.ships.map((x) => [x.name, x.status])).toEqual([[NAMES.bellerophon, 'afloat'], [NAMES.circe, 'sunk']]);
  });
});

describe('battlePackage: a harbor attack', () => {
  const pkg = battlePackage(world(), 'b2');

  it('places the battle in the port and puts its fort (as damaged) with the defenders', () => {
    expect(pkg.location).toMatchObject({
      name: 'Kingston (Jamaica)', kind: 'port', harbor: true, description: 'in the harbor of Kingston (Jamaica)',
      port: { owner: 'british', ownerName: 'Great Britain' },
    });
    expect(pkg.attacker?.power).toBe('french');
    expect(pkg.fort).toMatchObject({
      portName: 'Kingston (Jamaica)', owner: 'british', crewQuality: 'crack',
      hull: { left: 17, capacity: 20 }, guns: { left: 8, capacity: 10 }, arcs: 'all', ignores: ['rigging', 'steerage'],
    });
    expect(pkg.fort?.crew).toEqual([{ section: 1, left: 6, capacity: 6 }, { section: 2, left: 4, capacity: 6 }, { section: 3, left: 6, capacity: 6 }]);
    expect(pkg.fort?.surrender).toMatch(/surrenders when all crew or hull hits have been eliminated/);
    expect(pkg.fort?.artillery).toMatchObject({ piece: '24-pdr Gun', damage: '10d10', crewPerGun: 13 });
    expect(pkg.victory.conditions.join(' ')).toMatch(/take Kingston \(Jamaica\) if the fort surrenders/);
    expect(pkg.victory.stakes.join(' ')).toMatch(/Port captured: 5 VP/);
  });

  it("gives the defender the choice of a map colour as shoals of 11-16 feet", () => {
    expect(pkg.shoals).toMatchObject({ chooser: 'british', chooserName: 'Great Britain', depth: '11-16 feet' });
    expect(pkg.shoals?.rule).toMatch(/declare a mapboard color as “shoals” of 11-16 feet deep/);
  });

  it('in a neutral harbor, the fleet that is attacked chooses the shoals, and the fort keeps its owner', () => {
    const s = world();
    s.powers.push({ ...s.powers[0]!, key: 'spanish', name: 'Spain', playable: false, crewQuality: 'average' });
    s.ports[0] = { ...s.ports[0]!, owner: 'spanish' };
    s.battles[1] = { ...s.battles[1]!, sides: [...s.battles[1]!.sides, { power: 'spanish', fleetIds: [], shipIds: [], attacker: false }] };
    const p = battlePackage(s, 'b2');
    expect(p.shoals?.chooser).toBe('british');
    expect(p.fort).toMatchObject({ owner: 'spanish', ownerName: 'Spain', crewQuality: 'average' });
  });
});

describe('who may receive a battle package (SPEC §6)', () => {
  const state = world();
  const b1 = state.battles[0]!;
  const pkg = battlePackage(state, 'b1');

  it('a power that fights gets its own side whole and the enemy only as seen across the water (SPEC §6)', () => {
    expect(canReceivePackage(b1, 'british')).toBe(true);
    expect(canReceivePackage(b1, 'french')).toBe(true);
    const french = packageForPower(pkg, 'french')!;
    expect(french.seenBy).toEqual({ power: 'french', powerName: pkg.sides.find((s) => s.power === 'french')!.powerName });
    const british = french.sides.find((s) => s.power === 'british')!;
    expect(british.seen).toBe('sighted');
    expect(british.ships).toEqual([]);
    expect(british.fleets).toEqual([]);
    expect(british.sighted.map((s) => s.name)).toContain(NAMES.bellerophon);
    expect(french.sides.find((s) => s.power === 'french')).toEqual(pkg.sides.find((s) => s.power === 'french'));
  });

  it('a power not in the battle gets nothing', () => {
    expect(canReceivePackage(b1, 'american')).toBe(false);
    expect(canReceivePackage(b1, 'spanish')).toBe(false);
    expect(packageForPower(pkg, 'american')).toBeNull();
    expect(packageForReader(pkg, { role: 'player', power: 'american' })).toBeNull();
    expect(canReceivePackage(pkg, 'american')).toBe(false);
  });

  it('the GM gets every package', () => {
    expect(packageForReader(pkg, { role: 'gm' })).toBe(pkg);
    expect(packageForReader(pkg, { role: 'player', power: 'british' })).toEqual(packageForPower(pkg, 'british'));
    expect(packageForReader(pkg, { role: 'player', power: 'british' })).not.toEqual(pkg);
  });
});
