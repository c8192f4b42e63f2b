/**
 * Hand-built battles for the export tests, with the built-in Caribbean scenario's ship
 * classes: a sea battle between damaged ships of several classes (the French escorting a
 * convoy), and a harbor attack on Kingston with its (damaged) fort.
 */
import type { Battle, CampaignState, Ship, ShipClass } from '../../src/rules/state.js';
import { loadBuiltinScenario } from '../../src/scenario/load.js';
import { scenarioToState } from '../../src/scenario/toState.js';
import { campaign, fleet, lineMap, port, power } from '../rules/build.js';

/** The rules texts (outside the repository; tests that read them are skipped where they are absent). */
export const RULES_DIR = process.env.RULES_DIR ?? '/work/shared/rules';

export const CARIBBEAN_CLASSES: ShipClass[] = scenarioToState(loadBuiltinScenario('caribbean')).shipClasses;

export function cls(key: string): ShipClass {
  const c = CARIBBEAN_CLASSES.find((x) => x.key === key);
  if (!c) throw new Error(`no class ${key} in the built-in scenario`);
  return c;
}

let seq = 0;
/** A ship of a Caribbean class, undamaged unless `over` says otherwise. */
export function shipOf(classKey: string, powerKey: string, over: Partial<Ship> = {}): Ship {
  const c = cls(classKey);
  seq++;
  return {
    id: `x${seq}`, name: `${classKey} ${seq}`, classKey, power: powerKey, crewQuality: 'average',
    hull: c.hull, rigging: [...c.rigging], guns: c.guns, carronades: c.carronades, crew: [...c.crewSections],
    supplies: 4, status: 'afloat', capturedBy: null, ...over,
  };
}

export const NAMES = {
  bellerophon: 'HMS Bellerophon',
  circe: 'HMS Circe',
  bucentaure: 'Bucentaure',
  hortense: 'Hortense',
  royalSovereign: 'HMS Royal Sovereign',
  redoutable: 'Redoutable',
};

/**
 * Turn 3 (March 1805). b1: at sea in the Windward Passage, the British attack a French
 * squadron escorting a convoy. b2: in the harbor of Kingston, the French attack the British,
 * the fort (hull 17/20, crew 6/4/6, guns 8/10) fighting with them. The Americans fight in neither.
 */
export function world(opts: { evilName?: string } = {}): CampaignState {
  const map = lineMap(3);
  map.nodes[0] = { ...map.nodes[0]!, id: 'n0', kind: 'port', name: 'Kingston (Jamaica)' };
  map.nodes[1] = { ...map.nodes[1]!, name: 'Windward Passage' };
  map.nodes[2] = { ...map.nodes[2]!, kind: 'port', name: 'Martinique (Fort-de-France)' };
  const bellerophon = shipOf('sol-74', 'british', {
    id: 'bel', name: NAMES.bellerophon, crewQuality: 'crack',
    hull: 9, rigging: [6, 4, 0], guns: 9, carronades: 1, crew: [6, 5, 4], supplies: 2,
  });
  const circe = shipOf('frigate-28', 'british', { id: 'cir', name: NAMES.circe, crewQuality: 'crack' });
  const bucentaure = shipOf('sol-80', 'french', {
    id: 'buc', name: opts.evilName ?? NAMES.bucentaure, hull: 12, guns: 12, crew: [7, 6, 7], supplies: 3,
  });
  const hortense = shipOf('frigate-40', 'french', { id: 'hor', name: NAMES.hortense, crewQuality: 'green', rigging: [5, 2, 4] });
  const royalSovereign = shipOf('sol-100', 'british', { id: 'roy', name: NAMES.royalSovereign, crewQuality: 'crack' });
  const redoutable = shipOf('sol-74-small', 'french', { id: 'red', name: NAMES.redoutable, hull: 7, crew: [3, 3, 3] });
  const usFrigate = shipOf('us-frigate-40', 'american', { id: 'con', name: 'USS Constitution', crewQuality: 'elite' });

  const b1: Battle = {
    id: 'b1', turn: 3, phase: 4, node: 'n1', harbor: false, fort: null, status: 'pending', result: null,
    sides: [
      { power: 'british', fleetIds: ['jam'], shipIds: ['bel', 'cir'], attacker: true },
      { power: 'french', fleetIds: ['mar'], shipIds: ['buc', 'hor'], attacker: false },
    ],
  };
  const b2: Battle = {
    id: 'b2', turn: 3, phase: 0, node: 'n0', harbor: true, fort: { hull: 17, crewSections: [6, 4, 6], guns: 8 },
    status: 'pending', result: null,
    sides: [
      { power: 'french', fleetIds: ['raid'], shipIds: ['red'], attacker: true },
      { power: 'british', fleetIds: ['home'], shipIds: ['roy'], attacker: false },
    ],
  };
  return campaign({
    ...map,
    name: 'Caribbean 1805',
    turn: 4,
    powers: [
      power('british', { name: 'Great Britain', crewQuality: 'crack', color: '#c8102e' }),
      power('french', { name: 'France', crewQuality: 'average', color: '#002395' }),
      power('american', { name: 'United States', crewQuality: 'elite', color: '#5b92e5' }),
    ],
    ports: [port('n0', 'british', { fort: { hull: 17, crewSections: [6, 4, 6], guns: 8 } }), port('n2', 'french')],
    shipClasses: CARIBBEAN_CLASSES,
    fleets: [
      fleet('jam', 'british', 'n1', [bellerophon, circe], { name: 'Jamaica Squadron' }),
      fleet('mar', 'french', 'n1', [bucentaure, hortense], {
        name: 'Escadre de la Martinique', convoy: { from: 'n2', to: 'n0', merchantmen: 5, pickedUp: true },
      }),
      fleet('home', 'british', 'n0', [royalSovereign], { name: 'Home Squadron', inHarbor: true }),
      fleet('raid', 'french', 'n0', [redoutable], { name: 'Raiders' }),
      fleet('us', 'american', 'n2', [usFrigate], { name: 'American Squadron' }),
    ],
    battles: [b1, b2],
  });
}
