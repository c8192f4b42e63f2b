/**
 * The campaign as the rules engine sees it: one plain, JSON-serialisable value.
 * `src/rules` functions take a state and return a new one; nothing here does I/O.
 * The database (src/db) loads and saves exactly this shape.
 */
import type { BattleRecord } from './battleRecord.js';
import type {
  CrewQuality, FortSpec, MissionType, NodeId, NodeKind, PortRating, PowerKey, ShipType, Stance, VpTable,
} from './terms.js';

export type FleetId = string;
export type ShipId = string;
export type BattleId = string;

/** Choices where GMs may reasonably differ (docs/rules-interpretation.md). */
export interface RuleSettings {
  /** Policy when a power sends no orders: fleets hold, missions stand. */
  missingOrders: 'hold';
  /** Fleets that may be moved per power per turn (rules VI: three). */
  maxFleetsMoved: number;
  /** Months of supplies a ship carries when full (rules VI: four). */
  fullSupplies: number;
  /** May the next turn be resolved while a battle of this turn is pending? */
  allowPendingBattles: boolean;
  /** Resolve every battle made during a turn with the abstract table at once (default: the GM decides). */
  autoResolveBattles?: boolean;
  /** A ship lost reducing a fort scores (sinking VP) for the port's owner, if a playable power. */
  fortLossesScore?: boolean;
  /** May ships in an admitted neutral harbor roll crew replenishment? (rules VIII: "friendly harbor"). */
  crewInNeutralHarbor?: boolean;
  /** Merchantmen in a convoy when it appears (display only). */
  convoyMerchantmen?: number;
  /**
   * Relations between powers set by the scenario or the GM, by pair (`british|french`, keys in
   * order); a pair not listed has the default (src/rules/relations.ts). Kept here so a stored
   * campaign needs no new table.
   */
  relations?: Record<string, 'war' | 'neutral' | 'allied'>;
  /** Relations the GM changed during a turn: they take effect when it is resolved, from the next turn. */
  relationsNext?: Record<string, 'war' | 'neutral' | 'allied'>;
}

export const DEFAULT_SETTINGS: RuleSettings = {
  missingOrders: 'hold',
  maxFleetsMoved: 3,
  fullSupplies: 4,
  allowPendingBattles: false,
  autoResolveBattles: false,
  fortLossesScore: true,
  crewInNeutralHarbor: false,
  convoyMerchantmen: 3,
};

export interface MapNode {
  id: NodeId;
  name: string;
  kind: NodeKind;
  x: number | null;
  y: number | null;
  /** Real position in decimal degrees (west and south negative), when the scenario gives it: the map then draws coasts. */
  lat?: number;
  lon?: number;
}

export interface MapEdge {
  a: NodeId;
  b: NodeId;
  wind: 'a>b' | 'b>a' | null;
}

export interface Fort extends FortSpec {}

export interface PortState {
  node: NodeId;
  owner: PowerKey;
  originalOwner: PowerKey;
  rating: PortRating;
  /** Current fort boxes (a fort reduced in battle keeps its damage). */
  fort: Fort;
  /** The fort as the scenario built it: what repairs restore. Absent: the rules' fort (FORT_OF_RULES). */
  fortBuilt?: Fort;
  /** Powers that have ever attacked this port (rules II: -2 on the neutral admission roll). */
  attackedBy: PowerKey[];
  ratingNote?: string;
  /** Spaces the scenario names as the port's approaches: a blockade there is on station. */
  approaches?: NodeId[];
}

export interface ShipClass {
  key: string;
  name: string;
  type: ShipType;
  mp: number;
  hull: number;
  rigging: number[];
  guns: number;
  carronades: number;
  crewSections: number[];
  rate: number | null;
  points: number | null;
}

export type ShipStatus = 'afloat' | 'sunk' | 'captured' | 'struck';

/** A ship's boxes are what it has left; its class gives the capacity. */
export interface Ship {
  id: ShipId;
  name: string;
  classKey: string;
  /** The power the ship now sails for (a prize sails for its captor). */
  power: PowerKey;
  crewQuality: CrewQuality;
  hull: number;
  rigging: number[];
  guns: number;
  carronades: number;
  crew: number[];
  /** Months of supplies left (0-4). */
  supplies: number;
  status: ShipStatus;
  capturedBy: PowerKey | null;
}

export interface Convoy {
  from: NodeId;
  to: NodeId;
  merchantmen: number;
  /** True once the escort has picked the convoy up (SPEC §4, missions in practice). */
  pickedUp: boolean;
}

export interface Fleet {
  id: FleetId;
  power: PowerKey;
  name: string;
  at: NodeId;
  inHarbor: boolean;
  stance: Stance;
  dropSlow: boolean;
  onMission: boolean;
  convoy: Convoy | null;
  ships: Ship[];
}

export interface Mission {
  type: MissionType;
  target: NodeId | null;
  from: NodeId | null;
  to: NodeId | null;
  /** Turn the mission was rolled or set. */
  since: number;
  /** Idle: the turn the mission fleet first stood in a friendly harbor at turn end. */
  progress: number | null;
}

export interface PowerState {
  key: PowerKey;
  name: string;
  color: string;
  crewQuality: CrewQuality;
  playable: boolean;
  ordersTable: MissionType[] | null;
  convoyTable: [NodeId, NodeId][] | null;
  mission: Mission | null;
  vp: number;
}

export interface BattleSide {
  power: PowerKey;
  fleetIds: FleetId[];
  shipIds: ShipId[];
  attacker: boolean;
}

export interface Battle {
  id: BattleId;
  turn: number;
  phase: number;
  node: NodeId;
  /** A harbor attack: the fort fights with the defenders (SPEC §4 step 5). */
  harbor: boolean;
  fort: Fort | null;
  sides: BattleSide[];
  status: 'pending' | 'resolved';
  result: BattleResult | null;
  /**
   * The battle as it was joined (ships, fort, weather at the phase of contact), made by the
   * resolver with the battle; absent for a battle stored before records existed (battleRecord.ts).
   */
  record?: BattleRecord;
}

export interface ShipOutcome {
  shipId: ShipId;
  hullLost: number;
  riggingLost: number[];
  gunsLost: number;
  carronadesLost: number;
  crewLost: number[];
  final: 'afloat' | 'struck' | 'captured' | 'sunk' | 'exploded' | 'escaped';
  capturedBy?: PowerKey;
  /** The ship of the captor that put the prize crew aboard. */
  prizeCrewFrom?: ShipId;
  prizeCrew?: number;
}

export interface BattleResult {
  source: 'imported' | 'abstract';
  winner: PowerKey | null;
  ships: ShipOutcome[];
  fort?: { hullLost: number; crewLost: number[]; gunsLost: number; surrendered: boolean };
  notes?: string;
  /**
   * The GM confirms a winner the losses contradict (battleCheck.ts, winnerContradiction): the
   * GM's reason. Audited; without it such a result is refused.
   */
  winnerConfirmed?: string;
}

/** Last known position of an enemy fleet, as one power saw it (for the player's map). */
export interface Sighting {
  observer: PowerKey;
  fleetId: FleetId;
  power: PowerKey;
  fleetName: string;
  node: NodeId;
  turn: number;
  phase: number;
  ships: { name: string; classKey: string }[];
}


export interface CampaignState {
  name: string;
  /** The open turn (orders are being written for it). */
  turn: number;
  start: { year: number; month: number };
  vpGoal: number;
  vpTable: VpTable;
  settings: RuleSettings;
  /** Scenario order everywhere: it decides who rolls first (SPEC §4). */
  powers: PowerState[];
  nodes: MapNode[];
  edges: MapEdge[];
  ports: PortState[];
  shipClasses: ShipClass[];
  fleets: Fleet[];
  battles: Battle[];
  sightings: Sighting[];
  /** Counters for deterministic ids of fleets, ships and battles made during play. */
  seq: { fleet: number; ship: number; battle: number };
  winner: PowerKey | null;
}
