/**
 * The fort of a harbor attack. The campaign gives its boxes ("20 hull points, three sections
 * of six crew, and ten guns which can fire in all arcs. Rigging and steerage hits are
 * ignored."); its guns are described with the gunpowder-artillery characteristics of Guns of
 * War (the "Gunpowder Artillery Characteristics" table): we take the heaviest long gun there,
 * the 24-pdr Gun, as a fort's garrison piece of c. 1805.
 */
import type { BattleRecord } from '../rules/battleRecord.js';
import type { Fort } from '../rules/state.js';
import type { Artillery, FortInSight, PackageFort } from './json.js';
import { CAMPAIGN_FORT, CAMPAIGN_FORT_PLACEMENT } from './rulesText.js';

/** Guns of War, Gunpowder Artillery Characteristics, 24-pdr Gun. Range modifiers from "Range". */
export const FORT_GUN: Artillery = {
  piece: '24-pdr Gun',
  source: 'Guns of War, Gunpowder Artillery Characteristics (24-pdr Gun; medium range -4, long range -10 to attack throws)',
  shotLb: 24,
  ranges: [
    { band: 'short', yards: 480, attackModifier: 0 },
    { band: 'medium', yards: 1000, attackModifier: -4 },
    { band: 'long', yards: 2500, attackModifier: -10 },
  ],
  damage: '10d10',
  crewPerGun: 13,
  rateOfFire: '1/40',
  armorClass: 2,
  structuralHitPoints: 13,
};

/** One line per range band, e.g. "short to 480 yd (no modifier)". */
export function rangeBands(gun: Artillery): string[] {
  return gun.ranges.map((r) => {
    const mod = r.attackModifier === 0 ? 'no modifier' : `${r.attackModifier} to hit`;
    return `${r.band} to ${r.yards.toLocaleString('en-GB')} yd (${mod})`;
  });
}

/** The fort's guns in one sentence (for formats without room for a table). */
export function artilleryLine(gun: Artillery): string {
  return `${gun.piece}: ${rangeBands(gun).join('; ')}; ${gun.damage} damage a hit; ${gun.crewPerGun} men a gun; rate of fire ${gun.rateOfFire}`;
}

/** The fort as the battle found it, held by the port's owner then (the battle's record). */
export function packageFort(port: NonNullable<BattleRecord['port']>, fort: Fort, nodeName: string): PackageFort {
  const capacity = { hull: 20, crewSections: [6, 6, 6], guns: 10 };
  return {
    nodeId: port.node,
    portName: nodeName,
    owner: port.owner,
    ownerName: port.ownerName,
    crewQuality: port.ownerCrewQuality,
    hull: { left: fort.hull, capacity: Math.max(capacity.hull, fort.hull) },
    crew: fort.crewSections.map((left, i) => ({ section: i + 1, left, capacity: Math.max(capacity.crewSections[i] ?? left, left) })),
    guns: { left: fort.guns, capacity: Math.max(capacity.guns, fort.guns) },
    arcs: 'all',
    ignores: ['rigging', 'steerage'],
    surrender: CAMPAIGN_FORT,
    placement: CAMPAIGN_FORT_PLACEMENT,
    artillery: FORT_GUN,
  };
}

/** The fort as the attackers see it from the water: its place, owner and kind of guns, not its boxes as joined. */
export function fortInSight(fort: PackageFort): FortInSight {
  const { nodeId, portName, owner, ownerName, arcs, ignores, surrender, placement, artillery } = fort;
  return { nodeId, portName, owner, ownerName, arcs, ignores: [...ignores], surrender, placement, artillery };
}
