/**
 * What each side may know of a battle (docs/battle-export.md, "What each side may know").
 * A side's package is the record of its own side as joined, and what its officers could see
 * of the enemy across the water: ship names, classes, rates, colours. Not the enemy's fleet
 * names, boxes as joined (hull, rigging, guns, crew per section), supplies, crew quality, nor
 * the route and size of a convoy it escorts; not the fort's boxes for the attackers. The
 * GM's package keeps every side whole (and prints both logs for umpired play). Pure.
 */
import type { PowerKey } from '../rules/terms.js';
import type { BattlePackage, PackageShip, PackageSide, SightedShip } from './json.js';

export function sightedShip(ship: PackageShip): SightedShip {
  return {
    name: ship.name, nationality: ship.nationality, classKey: ship.classKey, className: ship.className,
    type: ship.type, rate: ship.rate, points: ship.points,
  };
}

/** A side as the other side saw it across the water. */
function acrossTheWater(side: PackageSide): PackageSide {
  return {
    ...side,
    seen: 'sighted',
    crewQuality: null,
    fleets: [],
    ships: [],
    sighted: side.sighted.map((s) => ({ ...s })),
    convoys: [],
    convoyInSight: side.convoyInSight,
  };
}

/** How contact happened, with each enemy fleet's name (the record names both sides' fleets) put as "a French squadron". */
function contactWithoutFleets(contact: string, enemies: readonly PackageSide[]): string {
  let text = contact;
  for (const side of enemies) {
    for (const f of side.fleets) {
      if (f.name) text = text.split(`${f.name} (${side.powerName})`).join(`a ${side.nationality} squadron`).split(f.name).join(`a ${side.nationality} squadron`);
    }
  }
  return text;
}

/**
 * The package cut for `power` (which fights in it): the sides that fight beside it (the
 * same attacker flag) whole, the others sighted; the fort whole only for the defenders.
 */
export function cutForSide(pkg: BattlePackage, power: PowerKey): BattlePackage {
  const own = pkg.sides.find((s) => s.power === power);
  if (!own) throw new RangeError(`${power} does not fight in battle ${pkg.battleId}`);
  // Two camps, attackers and defenders; a battle without them (every side alike) is each power for itself.
  const camps = new Set(pkg.sides.map((s) => s.attacker)).size === 2;
  const friendly = (s: PackageSide) => (camps ? s.attacker === own.attacker : s.power === own.power);
  return {
    ...pkg,
    contact: contactWithoutFleets(pkg.contact, pkg.sides.filter((s) => !friendly(s))),
    seenBy: { power: own.power, powerName: own.powerName },
    sides: pkg.sides.map((s) => (friendly(s) ? s : acrossTheWater(s))),
    fort: own.attacker ? null : pkg.fort,
  };
}
