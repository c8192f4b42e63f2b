/**
 * The event log of a turn (SPEC §5): one plain object per event, in order.
 * `visibleTo` says which powers may see the event; the GM sees all.
 */
import type { PowerKey } from './terms.js';

export type EventType =
  | 'mission' | 'missionBroken' | 'missionComplete' | 'repair' | 'crew' | 'move' | 'harborEntry' | 'harborRefused'
  | 'harborLeft' | 'spot' | 'pursuit' | 'battle' | 'fortRoll' | 'portCaptured' | 'shipLost' | 'supplies'
  | 'attrition' | 'vp' | 'victory' | 'roll' | 'convoy' | 'fleetFormed' | 'dropSlow' | 'orderRejected'
  | 'battleResult' | 'afterBattleRepair' | 'turnOpened' | 'weather'
  /** A packet's roll at a danger node (./packet.ts): the GM's log only. */
  | 'packet';

export interface DiceFields {
  /** The natural d6 (or the first die, for multi-dice rolls; see `dice`). */
  die: number;
  dice?: number[];
  modifier: number;
  total: number;
  result: string;
  /** What the roll was for, in words ("spot: British Jamaica Squadron vs French Toulon Squadron"). */
  purpose: string;
}

export interface GameEvent {
  type: EventType;
  /** Movement phase 1-6; 0 outside movement. */
  phase: number;
  /** Powers that may see this event; the GM sees everything. */
  visibleTo: PowerKey[];
  fleetIds?: string[];
  shipIds?: string[];
  nodeId?: string;
  battleId?: string;
  power?: PowerKey;
  /** One line a human reads in a report. */
  text: string;
  roll?: DiceFields;
  [extra: string]: unknown;
}
