/**
 * The scenario file format (SPEC §2) as one TypeBox schema. It is the single statement of the
 * format's structure: `validateScenario` checks uploads against it, the `Scenario` type is
 * derived from it, and the OpenAPI document publishes it as components/schemas/Scenario
 * (GET /api/scenario-schema serves it alone). What a schema cannot say (references between
 * sections, a connected map, damage within a class) is checked in ./validate.ts.
 */
import { Type, type Static, type TProperties } from 'typebox';
import { CONTROL_CHARACTERS } from '../rules/oneLine.js';
import type { CrewQuality, MissionType, Stance } from '../rules/terms.js';
import { DEFAULT_SETTINGS, type RuleSettings } from '../rules/state.js';

/** The largest whole number the database stores (32-bit integer columns). */
export const MAX_INT = 2_147_483_647;

function oneOf<const T extends string[]>(values: readonly [...T], options: { description?: string } = {}) {
  return Type.Enum(values, options);
}
/** An object of the format; fields it does not name are allowed and kept (docs/scenario-format.md). */
const Obj = <T extends TProperties>(properties: T, options: Record<string, unknown> = {}) =>
  Type.Object(properties, { additionalProperties: true, ...options });
const Whole = (minimum: number, maximum = MAX_INT, description?: string) =>
  Type.Integer({ minimum, maximum, ...(description ? { description } : {}) });
/** Text that is not blank. */
export const TEXT_PATTERN = '\\S';
const Text = (description?: string) => Type.String({ minLength: 1, pattern: TEXT_PATTERN, ...(description ? { description } : {}) });
/**
 * A display name: not blank, and on one line, since names are written into mail headers,
 * calendar feeds and page titles (src/rules/oneLine.ts).
 */
export const LINE_PATTERN = `^[^${CONTROL_CHARACTERS}]*[^\\s${CONTROL_CHARACTERS}][^${CONTROL_CHARACTERS}]*$`;
// (The one character that must not be blank is not `\S`, which takes a control character too.)
const Line = (description: string) => Type.String({ minLength: 1, pattern: LINE_PATTERN, description });
export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
const Slug = (description: string) => Type.String({ pattern: SLUG_PATTERN, description });
export const COLOR_PATTERN = '^#[0-9a-fA-F]{6}$';
/** A constant, or [N]d6 with an optional modifier: a strict subset of what rules/dice.ts `rollExpression` rolls. */
export const DICE_PATTERN = '^(?:\\d+|(?:[1-9]\\d*)?[dD]6(?:[+-]\\d+)?)$';
const Id = (description: string) => Type.String({ minLength: 1, description });
const WholeList = (minItems: number, maxItems: number, description: string) =>
  Type.Array(Whole(0), { minItems, maxItems, description });

// Listed here rather than from rules/terms.ts so the schema's types are exact; `satisfies` keeps the two in step.
const CrewQualitySchema = oneOf(['elite', 'crack', 'average', 'green'] satisfies CrewQuality[]);
const MissionTypeSchema = oneOf(['idle', 'convoy', 'patrol', 'raid', 'blockade'] satisfies MissionType[]);
const STANCES = ['engage', 'avoid', 'engage-if-stronger'] satisfies Stance[];

export const ScenarioPowerSchema = Obj({
  key: Slug('lower-case slug, e.g. british'),
  name: Line('display name'),
  color: Type.String({ pattern: COLOR_PATTERN, description: 'map colour, #rrggbb' }),
  crewQuality: Type.Optional(CrewQualitySchema),
  playable: Type.Boolean(),
  ordersTable: Type.Optional(Type.Array(MissionTypeSchema, { minItems: 6, maxItems: 6, description: 'rules V: one mission type per d6 roll (index 0 = roll 1); required for playable powers' })),
  convoyTable: Type.Optional(Type.Array(Type.Tuple([Id('from: port or box id'), Id('to: port or box id')]), { minItems: 6, maxItems: 6, description: 'rules V: one [from, to] pair per d6 roll' })),
});

export const PortRatingSchema = Obj({
  hull: Whole(0), rigging: Whole(0), guns: Whole(0),
  crew: Type.String({ pattern: DICE_PATTERN, description: 'dice for the turn\'s crew roll: "d6-5", "d6", "2d6+1" or "0"' }),
});

export const FortSpecSchema = Obj({
  hull: Whole(1),
  crewSections: WholeList(1, 3, 'boxes per crew section'),
  guns: Whole(0),
});

export const ScenarioNodeSchema = Obj({
  id: Slug('lower-case slug, e.g. st-kitts'),
  name: Line('display name'),
  kind: oneOf(['sea', 'port', 'box'] as const),
  x: Type.Optional(Type.Number({ minimum: -1e6, maximum: 1e6 })),
  y: Type.Optional(Type.Number({ minimum: -1e6, maximum: 1e6 })),
  lon: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
  lat: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
  owner: Type.Optional(Id('ports only: the owning power\'s key')),
  rating: Type.Optional(PortRatingSchema),
  fort: Type.Optional(FortSpecSchema),
  ratingNote: Type.Optional(Text('where the port\'s rating comes from (shown to the GM)')),
  approaches: Type.Optional(Type.Array(Id('node id'), {
    description: 'ports only: spaces that count as the port\'s approaches, where a fleet blockading it is on station (rules VII "Ship is on Blockade duty +3")',
  })),
});

export const ScenarioEdgeSchema = Obj({
  a: Id('node id'),
  b: Id('node id'),
  wind: Type.Optional(oneOf(['a>b', 'b>a'] as const, { description: '"b>a": the trade wind blows from b toward a, so a→b is against it' })),
});

export const ShipClassSchema = Obj({
  key: Slug('lower-case slug, e.g. 74-gun'),
  name: Line('display name'),
  type: oneOf(['ship-of-the-line', 'frigate'] as const),
  mp: Whole(1, 12, 'movement points'),
  hull: Whole(1),
  rigging: WholeList(1, 3, 'rigging boxes per mast (fore, main, mizzen)'),
  guns: Whole(0, MAX_INT, 'gun boxes per broadside'),
  carronades: Type.Optional(Whole(0)),
  crewSections: WholeList(3, 3, 'boxes per crew section (always three)'),
  rate: Type.Optional(Whole(1, MAX_INT, 'nominal gun rating, e.g. 74')),
  points: Type.Optional(Whole(0, 1_000_000, 'points value for battle victory conditions')),
});

export const ScenarioShipSchema = Obj({
  name: Line('display name, unique in the scenario'),
  class: Id('ship-class key'),
  crewQuality: Type.Optional(CrewQualitySchema),
  supplies: Type.Optional(Whole(0, MAX_INT, 'months of supplies aboard')),
  hullLost: Type.Optional(Whole(0)),
  riggingLost: Type.Optional(WholeList(1, 3, 'rigging lost per mast')),
  gunsLost: Type.Optional(Whole(0)),
  carronadesLost: Type.Optional(Whole(0)),
  crewLost: Type.Optional(WholeList(1, 3, 'crew lost per section')),
});

export const ScenarioConvoySchema = Obj({
  from: Id('port or box id'),
  to: Id('port or box id'),
  merchantmen: Type.Optional(Whole(0, MAX_INT, 'merchantmen in the convoy (display only)')),
  pickedUp: Type.Optional(Type.Boolean()),
});

export const ScenarioFleetSchema = Obj({
  power: Id('power key'),
  name: Line('display name in words, unique in the scenario'),
  at: Id('node id'),
  inHarbor: Type.Optional(Type.Boolean()),
  stance: Type.Optional(oneOf(STANCES)),
  onMission: Type.Optional(Type.Boolean()),
  convoy: Type.Optional(ScenarioConvoySchema),
  ships: Type.Array(ScenarioShipSchema, { minItems: 1 }),
});

export const ScenarioMissionSchema = Obj({
  power: Id('power key'),
  type: MissionTypeSchema,
  target: Type.Optional(Id('raid or blockade: the port')),
  from: Type.Optional(Id('convoy: port or box id')),
  to: Type.Optional(Id('convoy: port or box id')),
});

export const VpTableSchema = Obj({
  portCaptured: Whole(0), convoyArrived: Whole(0), frigateSunk: Whole(0),
  shipOfTheLineSunk: Whole(0), captureMultiplier: Whole(0), convoyCaptured: Whole(0),
});

export const ScenarioRelationSchema = Obj({
  a: Id('power key'),
  b: Id('power key'),
  relation: oneOf(['war', 'neutral', 'allied'] as const),
});

/**
 * The campaign settings a scenario may set, each typed by its default in rules/state.ts, so a
 * new setting is accepted here without a change. Unknown keys are refused, unlike anywhere
 * else in the format: a misspelt setting would otherwise be silently ignored.
 */
export const SettingsSchema = Type.Object(
  Object.fromEntries(Object.entries(DEFAULT_SETTINGS).map(([key, def]) => [key, Type.Optional(
    typeof def === 'boolean' ? Type.Boolean() : typeof def === 'number' ? Whole(1) : oneOf([String(def)]),
  )])) as TProperties,
  { additionalProperties: false, description: 'campaign settings where GMs may differ (docs/rules-interpretation.md); each must be a known setting' },
);

export const ScenarioSchema = Obj({
  name: Line('display name'),
  description: Type.Optional(Text()),
  start: Type.Optional(Obj({ year: Whole(1), month: Whole(1, 12) }, { description: 'calendar month of turn 1 (each turn is one month)' })),
  vpGoal: Whole(1),
  powers: Type.Array(ScenarioPowerSchema, { minItems: 1 }),
  nodes: Type.Array(ScenarioNodeSchema, { minItems: 1 }),
  edges: Type.Array(ScenarioEdgeSchema),
  shipClasses: Type.Array(ShipClassSchema),
  fleets: Type.Array(ScenarioFleetSchema),
  vp: VpTableSchema,
  missions: Type.Optional(Type.Array(ScenarioMissionSchema)),
  settings: Type.Optional(SettingsSchema),
  relations: Type.Optional(Type.Array(ScenarioRelationSchema, { description: 'a pair not listed: war between playable powers, neutral with others' })),
}, { $id: 'Scenario', description: 'A scenario file (SPEC §2, docs/scenario-format.md)' });

export type ScenarioPower = Static<typeof ScenarioPowerSchema>;
export type ScenarioNode = Static<typeof ScenarioNodeSchema>;
export type ScenarioEdge = Static<typeof ScenarioEdgeSchema>;
export type ShipClassSpec = Static<typeof ShipClassSchema>;
export type ScenarioShip = Static<typeof ScenarioShipSchema>;
export type ScenarioConvoy = Static<typeof ScenarioConvoySchema>;
export type ScenarioFleet = Static<typeof ScenarioFleetSchema>;
export type ScenarioMission = Static<typeof ScenarioMissionSchema>;
export type ScenarioRelation = Static<typeof ScenarioRelationSchema>;
/** The settings are typed by the engine's own defaults (rules/state.ts), which the validator checks them against. */
export type Scenario = Omit<Static<typeof ScenarioSchema>, 'settings'> & { settings?: Partial<RuleSettings> };
