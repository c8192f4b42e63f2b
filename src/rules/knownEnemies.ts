/**
 * Known enemies on a plotted route: a fleet that ends a phase where its power last saw an
 * enemy fleet of a power it is at war with may meet it there (rules: encounters happen
 * where fleets of powers at war share a node). The check warns, naming the sighting; it
 * does not forbid the move. Pure: the state's sightings and the movement preview only.
 */
import type { FleetPreview } from './movement/preview.js';
import { atWar } from './relations.js';
import type { CampaignState, Sighting } from './state.js';

export interface KnownEnemyMeeting {
  fleetId: string;
  phase: number;
  node: string;
  sighting: Sighting;
  /** Turns since the sighting (0: this turn's opening, 1: last turn). */
  age: number;
}

/** Each (fleet, node) once: the first phase the fleet ends at a node where a warring enemy was last seen. */
export function knownEnemyMeetings(state: CampaignState, power: string, preview: readonly FleetPreview[]): KnownEnemyMeeting[] {
  const known = state.sightings.filter((s) => s.observer === power && atWar(state, power, s.power));
  const out: KnownEnemyMeeting[] = [];
  for (const p of preview) {
    const told = new Set<string>();
    for (const ph of p.phases) {
      for (const s of known.filter((k) => k.node === ph.node)) {
        const key = `${ph.node}\u0000${s.fleetId}`;
        if (told.has(key)) continue;
        told.add(key);
        out.push({ fleetId: p.fleetId, phase: ph.phase, node: ph.node, sighting: s, age: Math.max(0, state.turn - s.turn) });
      }
    }
  }
  return out;
}
