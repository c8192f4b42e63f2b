/**
 * Wooden Ships & Iron Men ship logs, one per ship (and one for the fort of a harbor attack).
 * The campaign's boxes are WS&IM's: hull squares, crew squares in three sections, guns and
 * carronades per broadside, rigging rows per mast. The WS&IM text is not in the project, so
 * the layout follows what is commonly known of its ship log; the movement table is ours
 * (docs/battle-export.md). Both broadsides show the same boxes: the campaign keeps one count
 * per broadside.
 */
import type { BattlePackage, PackageFort, PackageShip } from './json.js';
import {
  boxRow, capitalize, gunsRating, movementAllowances, QUALITY_LABEL, TYPE_LABEL, type BoxRow, type MovementRow,
} from './common.js';
import { rangeBands } from './fort.js';
import { renderPage } from './html.js';

/** Ways a broadside may be loaded, one box each on the log (WS&IM loads). */
export const LOADS = ['Round', 'Double', 'Chain', 'Grape'] as const;

export interface WsimLog {
  kind: 'ship' | 'fort';
  name: string;
  guns: number;
  nationality: string;
  className: string;
  typeLabel: string;
  crewQuality: string;
  points: number | null;
  supplies: string;
  status: string;
  movement: MovementRow[];
  hull: BoxRow;
  crew: BoxRow[];
  broadsides: { side: string; guns: BoxRow; carronades: BoxRow | null }[];
  rigging: BoxRow[];
  loads: { side: string; loads: string[] }[];
  notes: string[];
}

const loadBoxes = (sides: string[]) => sides.map((side) => ({ side, loads: ['Initial broadside', ...LOADS] }));

export function wsimLog(ship: PackageShip): WsimLog {
  const broadside = (side: string) => ({
    side,
    guns: boxRow(`${side} guns`, ship.guns),
    carronades: ship.carronades.capacity > 0 ? boxRow(`${side} carronades`, ship.carronades) : null,
  });
  return {
    kind: 'ship',
    name: ship.name,
    guns: gunsRating(ship),
    nationality: ship.nationality,
    className: ship.className,
    typeLabel: TYPE_LABEL[ship.type],
    crewQuality: QUALITY_LABEL[ship.crewQuality],
    points: ship.points,
    supplies: `${ship.supplies.months} of ${ship.supplies.full} months`,
    status: ship.status,
    movement: movementAllowances(ship.mp),
    hull: boxRow('Hull', ship.hull),
    crew: ship.crew.map((c) => boxRow(`Crew section ${c.section}`, c)),
    broadsides: [broadside('Left'), broadside('Right')],
    rigging: ship.rigging.map((m) => boxRow(`${capitalize(m.mast)}mast rigging`, m)),
    loads: loadBoxes(['Left', 'Right']),
    notes: [],
  };
}

export function wsimFortLog(fort: PackageFort): WsimLog {
  return {
    kind: 'fort',
    name: `Fort of ${fort.portName}`,
    guns: fort.guns.capacity,
    nationality: fort.ownerName,
    className: 'Harbor fort',
    typeLabel: 'Fort',
    crewQuality: QUALITY_LABEL[fort.crewQuality],
    points: null,
    supplies: 'not applicable',
    status: 'holding',
    movement: [],
    hull: boxRow('Hull', fort.hull),
    crew: fort.crew.map((c) => boxRow(`Crew section ${c.section}`, c)),
    broadsides: [{ side: 'All arcs', guns: boxRow('Guns (all arcs)', fort.guns), carronades: null }],
    rigging: [],
    loads: loadBoxes(['All arcs']),
    notes: [
      'Does not move. Rigging and steerage hits are ignored.',
      fort.surrender,
      fort.placement,
      `Guns: ${fort.artillery.piece} (${fort.artillery.source}): ${rangeBands(fort.artillery).join('; ')}; damage ${fort.artillery.damage}; crew ${fort.artillery.crewPerGun} a gun; rate of fire ${fort.artillery.rateOfFire}.`,
    ],
  };
}

/** Every log of the battle: the ships side by side, then the fort. */
export function wsimLogs(pkg: BattlePackage): { side: BattlePackage['sides'][number]; logs: WsimLog[] }[] {
  return pkg.sides.map((side) => ({ side, logs: side.ships.map(wsimLog) }));
}

export function renderWsimHtml(pkg: BattlePackage): string {
  return renderPage('wsim', pkg, { sides: wsimLogs(pkg), fortLog: pkg.fort ? wsimFortLog(pkg.fort) : null });
}
