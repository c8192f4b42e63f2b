/**
 * The battle package as JSON, and its TypeBox schema (`BattlePackageSchema`) for the OpenAPI
 * document. The schema is the one source of the package's shape: the TypeScript types below
 * are derived from it, so the JSON export and its documentation cannot drift apart.
 */
import { Type, type Static, type TSchema } from 'typebox';

function oneOf<const T extends string[]>(values: readonly [...T], options: { description?: string } = {}) {
  return Type.Enum(values, options);
}

function nullable<T extends TSchema>(schema: T, description?: string) {
  return Type.Union([schema, Type.Null()], description ? { description } : {});
}

const Count = Type.Integer({ minimum: 0 });

export const CREW_QUALITY_VALUES = ['elite', 'crack', 'average', 'green'] as const;
export const COMPASS_POINTS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;
export const WIND_FORCES = ['light', 'moderate', 'fresh', 'strong'] as const;
export const SEA_STATES = ['smooth', 'slight', 'moderate', 'rough'] as const;
export const TIMES_OF_DAY = ['dawn', 'morning', 'afternoon', 'evening'] as const;

const CrewQualitySchema = oneOf(CREW_QUALITY_VALUES);

/** Boxes left of a capacity (the class's, or the fort's 20 / 6 / 10). */
export const TrackSchema = Type.Object({
  left: Count,
  capacity: Count,
}, { description: 'boxes left, of the capacity' });

export const MastTrackSchema = Type.Object({
  mast: Type.String({ description: 'fore, main, mizzen (a fourth mast is "jigger")' }),
  left: Count,
  capacity: Count,
});

export const SectionTrackSchema = Type.Object({
  section: Type.Integer({ minimum: 1, description: 'crew section number, from 1' }),
  left: Count,
  capacity: Count,
});

export const PackageShipSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  power: Type.String(),
  nationality: Type.String({ description: 'e.g. British' }),
  fleetId: Type.String(),
  fleetName: Type.String(),
  classKey: Type.String(),
  className: Type.String(),
  type: oneOf(['ship-of-the-line', 'frigate'] as const),
  rate: nullable(Type.Integer(), 'nominal guns, e.g. 74'),
  mp: Type.Integer({ description: 'campaign movement points of the class' }),
  points: nullable(Type.Integer(), 'class points value for victory conditions'),
  crewQuality: CrewQualitySchema,
  status: oneOf(['afloat', 'sunk', 'captured', 'struck'] as const),
  supplies: Type.Object({ months: Count, full: Count }),
  hull: TrackSchema,
  rigging: Type.Array(MastTrackSchema, { description: 'one per mast' }),
  guns: Type.Object({ left: Count, capacity: Count }, { description: 'gun boxes per broadside (both broadsides alike)' }),
  carronades: Type.Object({ left: Count, capacity: Count }, { description: 'carronade boxes per broadside' }),
  crew: Type.Array(SectionTrackSchema, { description: 'one per crew section' }),
});

export const PackageConvoySchema = Type.Object({
  fleetId: Type.String(),
  fleetName: Type.String(),
  from: Type.String(),
  fromName: Type.String(),
  to: Type.String(),
  toName: Type.String(),
  merchantmen: Count,
});

/** A ship as the other side's officers see her across the water: name, class, rate, colours. */
export const SightedShipSchema = Type.Object({
  name: Type.String(),
  nationality: Type.String(),
  classKey: Type.String(),
  className: Type.String(),
  type: oneOf(['ship-of-the-line', 'frigate'] as const),
  rate: nullable(Type.Integer(), 'nominal guns, e.g. 74'),
  points: nullable(Type.Integer(), 'class points value for victory conditions'),
});

export const PackageSideSchema = Type.Object({
  power: Type.String(),
  powerName: Type.String(),
  nationality: Type.String(),
  color: Type.String(),
  attacker: Type.Boolean(),
  seen: oneOf(['whole', 'sighted'] as const, { description: 'whole: the side as joined (its own package, or the GM\'s); sighted: only what the other side could see across the water (no fleets, ship records, convoy routes or crew quality)' }),
  crewQuality: nullable(CrewQualitySchema, 'null for a side seen only across the water'),
  fleets: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
  ships: Type.Array(PackageShipSchema, { description: 'each ship as joined, with her boxes; empty for a side seen only across the water' }),
  sighted: Type.Array(SightedShipSchema, { description: 'every ship of the side as seen across the water' }),
  convoys: Type.Array(PackageConvoySchema, { description: 'convoys escorted by this side (fleet.convoy, picked up); empty for a side seen only across the water' }),
  convoyInSight: Type.Boolean({ description: 'the side escorts merchantmen (seen across the water: not how many, nor whence or whither)' }),
  points: Count,
});

export const ArtillerySchema = Type.Object({
  piece: Type.String({ description: 'e.g. 24-pdr Gun' }),
  source: Type.String(),
  shotLb: Count,
  ranges: Type.Array(Type.Object({
    band: oneOf(['short', 'medium', 'long'] as const),
    yards: Count,
    attackModifier: Type.Integer(),
  })),
  damage: Type.String({ description: 'structural damage per hit, e.g. 10d10' }),
  crewPerGun: Count,
  rateOfFire: Type.String({ description: 'Guns of War rate of fire, e.g. 1/40' }),
  armorClass: Type.Integer(),
  structuralHitPoints: Count,
});

export const PackageFortSchema = Type.Object({
  nodeId: Type.String(),
  portName: Type.String(),
  owner: Type.String(),
  ownerName: Type.String(),
  crewQuality: CrewQualitySchema,
  hull: TrackSchema,
  crew: Type.Array(SectionTrackSchema),
  guns: Type.Object({ left: Count, capacity: Count }, { description: 'guns, firing in all arcs' }),
  arcs: Type.Literal('all'),
  ignores: Type.Array(Type.String(), { description: 'hits the fort ignores: rigging, steerage' }),
  surrender: Type.String(),
  placement: Type.String(),
  artillery: ArtillerySchema,
});

/** The fort of a harbor attack as the attackers see it from the water: where, whose, its guns' kind, not its boxes. */
export const FortInSightSchema = Type.Object({
  nodeId: Type.String(),
  portName: Type.String(),
  owner: Type.String(),
  ownerName: Type.String(),
  arcs: Type.Literal('all'),
  ignores: Type.Array(Type.String()),
  surrender: Type.String(),
  placement: Type.String(),
  artillery: ArtillerySchema,
});

export const WindSchema = Type.Object({
  from: oneOf(COMPASS_POINTS),
  fromName: Type.String({ description: 'e.g. the north-east' }),
  force: oneOf(WIND_FORCES),
  prevailing: oneOf(COMPASS_POINTS),
  description: Type.String({ description: 'e.g. from the north-east, force moderate' }),
  change: nullable(Type.Object({
    rule: Type.String(),
    quote: Type.Array(Type.String()),
  }), 'how the wind may shift during the battle (Galleys & Galleons house rule), when asked for'),
});

export const BattlePackageSchema = Type.Object({
  format: Type.Literal('steady-battle-package'),
  version: Type.Literal(1),
  campaign: Type.String(),
  battleId: Type.String(),
  status: oneOf(['pending', 'resolved'] as const),
  turn: Type.Integer({ minimum: 1 }),
  phase: Type.Integer({ minimum: 0, description: 'movement phase of contact (0: outside movement, e.g. a harbor attack)' }),
  date: Type.String({ description: 'e.g. March 1805' }),
  contact: Type.String({ description: 'how contact happened' }),
  contactKind: oneOf(['meeting', 'pursuit', 'harbor'] as const, { description: 'how contact happened, for the setup: the fleets met, a pursuit from astern, or a harbor attack' }),
  record: Type.Object({
    made: oneOf(['at-contact', 'rebuilt'] as const, { description: 'the battle as joined, recorded at contact; or rebuilt for a battle stored before records existed' }),
    note: nullable(Type.String(), 'what a rebuilt record is made from'),
  }),
  location: Type.Object({
    nodeId: Type.String(),
    name: Type.String(),
    kind: oneOf(['sea', 'port', 'box'] as const),
    harbor: Type.Boolean({ description: 'a harbor attack: the fort fights with the defenders' }),
    description: Type.String(),
    port: nullable(Type.Object({ nodeId: Type.String(), name: Type.String(), owner: Type.String(), ownerName: Type.String() })),
  }),
  attacker: nullable(Type.Object({ power: Type.String(), powerName: Type.String() })),
  seenBy: nullable(Type.Object({ power: Type.String(), powerName: Type.String() }),
    'the power this package was cut for: its own side whole, the enemy only as seen across the water; null: the GM\'s package, every side whole'),
  sides: Type.Array(PackageSideSchema),
  fort: nullable(PackageFortSchema, 'the fort with its boxes as joined: in the GM\'s and the defenders\' package only'),
  fortInSight: nullable(FortInSightSchema, 'the fort of a harbor attack as every side sees it'),
  shoals: nullable(Type.Object({
    chooser: Type.String(),
    chooserName: Type.String(),
    depth: Type.String(),
    rule: Type.String(),
  }), 'harbor attack: the defender declares one map colour as shoals'),
  weather: Type.Object({
    wind: WindSchema,
    seaState: Type.Object({ key: oneOf(SEA_STATES), description: Type.String() }),
    timeOfDay: Type.Object({ key: oneOf(TIMES_OF_DAY), description: Type.String() }),
    source: oneOf(['seeded', 'dice'] as const, { description: 'seeded from battle id and turn (battles stored before weather was rolled with the campaign\'s dice), or dice: the campaign\'s dice in the turn that made the battle, or the dice given' }),
    rolls: Type.Array(Type.Object({ purpose: Type.String(), value: Type.Integer({ minimum: 1, maximum: 6 }) })),
  }),
  victory: Type.Object({
    conditions: Type.Array(Type.String()),
    points: Type.Array(Type.Object({ power: Type.String(), powerName: Type.String(), points: Count })),
    stakes: Type.Array(Type.String(), { description: 'campaign victory points at stake' }),
  }),
}, { $id: 'BattlePackage', description: 'Everything a miniatures table needs to fight one campaign battle' });

export type Track = Static<typeof TrackSchema>;
export type MastTrack = Static<typeof MastTrackSchema>;
export type SectionTrack = Static<typeof SectionTrackSchema>;
export type PackageShip = Static<typeof PackageShipSchema>;
export type PackageConvoy = Static<typeof PackageConvoySchema>;
export type PackageSide = Static<typeof PackageSideSchema>;
export type PackageFort = Static<typeof PackageFortSchema>;
export type FortInSight = Static<typeof FortInSightSchema>;
export type SightedShip = Static<typeof SightedShipSchema>;
export type Artillery = Static<typeof ArtillerySchema>;
export type Wind = Static<typeof WindSchema>;
export type BattlePackage = Static<typeof BattlePackageSchema>;
export type CompassPoint = (typeof COMPASS_POINTS)[number];
export type WindForce = (typeof WIND_FORCES)[number];
export type SeaState = (typeof SEA_STATES)[number];
export type TimeOfDay = (typeof TIMES_OF_DAY)[number];

/** The package as pretty-printed JSON text. */
export function renderJson(pkg: BattlePackage): string {
  return `${JSON.stringify(pkg, null, 2)}\n`;
}
