/**
 * The game's own terms, which every layer speaks: powers, places, missions, crews, stances,
 * ship types, port ratings, forts and the victory-point table (SPEC §2). The scenario format
 * (src/scenario/types.ts) and the orders language are written in them; they depend on
 * nothing.
 */
export type PowerKey = string;
export type NodeId = string;
export type MissionType = 'idle' | 'convoy' | 'patrol' | 'raid' | 'blockade';
export type CrewQuality = 'elite' | 'crack' | 'average' | 'green';
export type Stance = 'engage' | 'avoid' | 'engage-if-stronger';
export type NodeKind = 'sea' | 'port' | 'box';
export type ShipType = 'ship-of-the-line' | 'frigate';

export const MISSION_TYPES: readonly MissionType[] = ['idle', 'convoy', 'patrol', 'raid', 'blockade'];
export const CREW_QUALITIES: readonly CrewQuality[] = ['elite', 'crack', 'average', 'green'];
export const STANCES: readonly Stance[] = ['engage', 'avoid', 'engage-if-stronger'];

/** A port's repair rating "hull/rigging/guns/crew", e.g. St. Kitts 1/6/2/d6-5. */
export interface PortRating {
  hull: number;
  rigging: number;
  guns: number;
  /** Dice expression for the turn's crew roll: "d6-5", "d6-3", "d6", "0". */
  crew: string;
}

export interface FortSpec {
  hull: number;
  crewSections: number[];
  guns: number;
}

export interface VpTable {
  portCaptured: number;
  convoyArrived: number;
  frigateSunk: number;
  shipOfTheLineSunk: number;
  captureMultiplier: number;
  convoyCaptured: number;
}
