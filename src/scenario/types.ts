/**
 * The scenario file format of SPEC §2 (import and export). Plain JSON: a campaign is
 * created from one, and `GET /api/campaigns/:id/scenario` gives one back.
 * Keys and ids are lower-case slugs; `name` fields are display text. The structure is one
 * TypeBox schema (./schema.ts); the types are derived from it.
 */
export type {
  PowerKey, NodeId, MissionType, CrewQuality, Stance, NodeKind, ShipType, PortRating, FortSpec, VpTable,
} from '../rules/terms.js';
export { MISSION_TYPES, CREW_QUALITIES, STANCES } from '../rules/terms.js';

export type {
  Scenario, ScenarioPower, ScenarioNode, ScenarioEdge, ShipClassSpec, ScenarioShip, ScenarioConvoy,
  ScenarioFleet, ScenarioMission, ScenarioRelation,
} from './schema.js';
