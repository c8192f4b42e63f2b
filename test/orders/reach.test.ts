// Orders always reach the right fleet, and an orders error never reveals enemy names. A
// fleet named like another fleet's id ("F1" while ids run f1..f7) could not be given any
// order: "'F1' could be Home (id f1) or F1 (id f4)", and writing the id failed the same
// way.
import { describe, expect, it } from 'vitest';
import { formatMessage, parseOrders } from '../../src/orders/index.js';
import { validateScenario } from '../../src/scenario/validate.js';
import { campaign, fleet, port, power, ship } from '../rules/build.js';
import { smallScenario } from '../scenario/fixture.js';

/** A campaign stored before names of the id form were refused: fleets F1..F4 have ids f4..f7. */
function legacy() {
  const sea = (id: string) => ({ id, name: id.toUpperCase(), kind: 'sea' as const, x: null, y: null });
  const names = ['Home', 'Away', 'Reserve', 'F1', 'F2', 'F3', 'F4'];
  return campaign({
    powers: [power('british'), power('french')],
    nodes: [{ id: 'kingston', name: 'Kingston', kind: 'port', x: null, y: null }, sea('a'), sea('b')],
    edges: [{ a: 'kingston', b: 'a', wind: null }, { a: 'a', b: 'b', wind: null }],
    ports: [port('kingston', 'british')],
    fleets: [
      ...names.map((name, i) => fleet(`f${i + 1}`, 'british', 'a', [ship('frigate-40', 'british', { id: `s${i + 1}`, name: `HMS ${name}` })], { name })),
      fleet('f8', 'french', 'b', [ship('sol-74', 'french', { id: 's8', name: 'Redoutable' })], { name: 'Toulon Squadron' }),
    ],
  });
}

describe('ids are never ambiguous', () => {
  it('every fleet of a stored campaign takes orders by its id, even one named like another\'s id', () => {
    const r = parseOrders(['POWER british', ...[1, 2, 3, 4, 5, 6, 7].map((n) => `FLEET f${n}: HOLD`)].join('\n'), legacy(), { power: 'british' });
    expect(r.errors).toEqual([]);
    expect(r.orders?.fleets.map((f) => f.fleetId)).toEqual(['f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7']);
  });

  it('a text that is one fleet\'s id and another\'s name goes to the id, with a warning saying how to reach the other', () => {
    const r = parseOrders('POWER british\nFLEET F1: HOLD', legacy(), { power: 'british' });
    expect(r.errors).toEqual([]);
    expect(r.orders?.fleets.map((f) => f.fleetId)).toEqual(['f1']);
    expect(r.warnings.map(formatMessage)).toEqual(["line 2: 'F1' is the id of Home, which takes this order; for the fleet named F1 write its id, f4"]);
  });

  it('the scenario validator refuses a fleet name written like a fleet id, naming the path', () => {
    const s = smallScenario();
    s.fleets[1]!.name = 'F1';
    const r = validateScenario(s);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toEqual([{ path: 'fleets[1].name', message: "'F1' is written like a fleet id (f1, f2, ...), so orders could not tell it from another fleet; give the fleet a name in words" }]);
    s.fleets[1]!.name = 'f 12';
    expect(validateScenario(s).ok).toBe(false);
    s.fleets[1]!.name = 'Fleet 1';
    expect(validateScenario(s).ok).toBe(true);
  });

  it('FORM refuses a new name written like a fleet id, whether or not the id is in use', () => {
    const r = parseOrders('POWER british\nFORM f99 FROM HMS Home', legacy(), { power: 'british' });
    expect(r.errors.map(formatMessage)).toEqual(["line 2: 'f99' is written like a fleet id (f1, f2, ...); choose a name in words for the new fleet"]);
    expect(r.orders?.forms).toEqual([]);
  });
});

describe('an orders error never reveals enemy names', () => {
  const yours = (text: string) => parseOrders(`POWER british\n${text}`, legacy(), { power: 'british' }).errors.map((e) => [e.code, e.message.replace(/'[^']*'/, "'X'")]);

  it('an enemy fleet\'s name or id and a name nobody has get the same words', () => {
    const enemyName = yours('FLEET Toulon Squadron: HOLD');
    expect(enemyName).toEqual(yours('FLEET Brest Squadron: HOLD'));
    expect(enemyName[0]![1]).toMatch(/^no fleet of yours called 'X'/);
    expect(yours('FLEET f8: HOLD')).toEqual(yours('FLEET f9: HOLD'));
  });

  it('without the colon too: an enemy name is read like a name nobody has', () => {
    expect(yours('FLEET Toulon Squadron HOLD')).toEqual(yours('FLEET Brest Squadron HOLD'));
  });

  it('an enemy ship\'s name in FORM gets the words a ship nobody has gets', () => {
    expect(yours('FORM Flying FROM Redoutable')).toEqual(yours('FORM Flying FROM Redoubtible'));
    expect(yours('FORM Flying FROM Redoutable')[0]).toEqual(['orders/form_unknown_ship', "no ship of yours called 'X'"]);
  });
});
