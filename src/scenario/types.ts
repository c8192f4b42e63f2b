/**
 * The scenario file format of SPEC §2 (import and export). Plain JSON: a campaign is
 * created from one, and `GET /api/campaigns/:id/scenario` gives one back.
 * Keys and ids are lower-case slugs; `name` fields are display text.
 */
export type {
  PowerKey, NodeId, MissionType, CrewQuality, Stance, NodeKind, ShipType, PortRating, FortSpec, VpTable,
} from '../rules/terms.js';
export { MISSION_TYPES, CREW_QUALITIES, STANCES } from '../rules/terms.js';
import type { CrewQuality, FortSpec, MissionType, NodeId, NodeKind, PortRating, PowerKey, ShipType, Stance, VpTable } from '../rules/terms.js';

export interface ScenarioPower {
  key: PowerKey;
  name: string;
  /** Map colour (#rrggbb); the rules: Light Blue American, Red British, Dark Blue French, Yellow Spanish, Black Haitian. */
  color: string;
  crewQuality?: CrewQuality;
  playable: boolean;
  /** Six entries, index 0 = die roll 1 (rules V, Orders Table). Required for playable powers. */
  ordersTable?: MissionType[];
  /** Six [from, to] port-or-box ids, index 0 = die roll 1 (rules V, Convoy Table). */
  convoyTable?: [NodeId, NodeId][];
}

export interface ScenarioNode {
  id: NodeId;
  name: string;
  kind: NodeKind;
  /** Map position in scenario units (the built-in map derives them from longitude/latitude). */
  x?: number;
  y?: number;
  lon?: number;
  lat?: number;
  /** Ports only. */
  owner?: PowerKey;
  rating?: PortRating;
  fort?: FortSpec;
  /** Where the port's rating comes from (free text, shown to the GM). */
  ratingNote?: string;
  /**
   * Ports only: spaces that count as the port's approaches, where a fleet blockading it is
   * on station as in the port's own space (rules VII "Ship is on Blockade duty +3").
   */
  approaches?: NodeId[];
}

export interface ScenarioEdge {
  a: NodeId;
  b: NodeId;
  /** "b>a": the trade wind blows from b toward a, so a→b is against it (2 mp). */
  wind?: 'a>b' | 'b>a';
}

export interface ShipClassSpec {
  key: string;
  name: string;
  type: ShipType;
  mp: number;
  hull: number;
  /** Rigging boxes per mast (fore, main, mizzen). */
  rigging: number[];
  /** Gun boxes per broadside. */
  guns: number;
  carronades?: number;
  crewSections: number[];
  /** Nominal gun rating, e.g. 74. */
  rate?: number;
  /** Points value for battle victory conditions. */
  points?: number;
}

export interface ScenarioShip {
  name: string;
  class: string;
  crewQuality?: CrewQuality;
  supplies?: number;
  hullLost?: number;
  riggingLost?: number[];
  gunsLost?: number;
  carronadesLost?: number;
  crewLost?: number[];
}

export interface ScenarioConvoy {
  from: NodeId;
  to: NodeId;
  /** Merchantmen in the convoy (display only). */
  merchantmen?: number;
  pickedUp?: boolean;
}

export interface ScenarioFleet {
  power: PowerKey;
  name: string;
  at: NodeId;
  inHarbor?: boolean;
  stance?: Stance;
  onMission?: boolean;
  convoy?: ScenarioConvoy;
  ships: ScenarioShip[];
}

export interface ScenarioMission {
  power: PowerKey;
  type: MissionType;
  target?: NodeId;
  from?: NodeId;
  to?: NodeId;
}

export interface Scenario {
  name: string;
  description?: string;
  /** Calendar month of turn 1 (each turn is one month). */
  start?: { year: number; month: number };
  vpGoal: number;
  powers: ScenarioPower[];
  nodes: ScenarioNode[];
  edges: ScenarioEdge[];
  shipClasses: ShipClassSpec[];
  fleets: ScenarioFleet[];
  vp: VpTable;
  missions?: ScenarioMission[];
  /** Campaign settings where GMs may differ (see docs/rules-interpretation.md). */
  settings?: Partial<import('../rules/state.js').RuleSettings>;
  /** Relations between pairs of powers; a pair not listed: war between playable powers, neutral with others. */
  relations?: ScenarioRelation[];
}

export interface ScenarioRelation {
  a: PowerKey;
  b: PowerKey;
  relation: 'war' | 'neutral' | 'allied';
}
