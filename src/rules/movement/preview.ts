/**
 * Where each ordered fleet will be at the end of each phase, for the orders checker and
 * the web form. Pure: ignores other fleets (no encounters) and dice (a neutral harbor is
 * assumed to admit the fleet; the note says so).
 */
import type { NodeId, PowerKey } from '../terms.js';
import { mapIndex } from '../map.js';
import type { FleetOrders, RuleViolation } from '../orders.js';
import type { CampaignState, Fleet, FleetId } from '../state.js';
import { takeCommand } from './command.js';
import { harborStanding } from './harbor.js';
import { fleetMp, PHASES } from './mp.js';
import { legsLeft, spendPhase, startPassage } from './passage.js';

export interface PreviewPhase {
  phase: number;
  node: NodeId;
  inHarbor: boolean;
  note?: string;
}

export interface FleetPreview {
  fleetId: FleetId;
  phases: PreviewPhase[];
  /** Where the fleet ends the turn; null when the power has no such fleet. */
  stopsAt: NodeId | null;
  mpUsed: number;
  mp: number;
  windSteps: [NodeId, NodeId][];
  problems: RuleViolation[];
}

const fleetCache = new WeakMap<object, Map<FleetId, Fleet>>();

export function previewMovement(state: CampaignState, fleetOrders: readonly FleetOrders[], power: PowerKey): FleetPreview[] {
  const map = mapIndex(state);
  let fleets = fleetCache.get(state.fleets);
  if (!fleets) fleetCache.set(state.fleets, (fleets = new Map(state.fleets.map((f) => [f.id, f]))));
  const name = (id: NodeId) => map.node(id)?.name ?? id;

  return takeCommand(state, map, fleets, power, fleetOrders).map((c) => {
    if (!c.fleet) return { fleetId: c.fleetId, phases: [], stopsAt: null, mpUsed: 0, mp: 0, windSteps: [], problems: c.problems };
    const mp = fleetMp(state, c.fleet);
    const ghost: Fleet = { ...c.fleet };
    const p = startPassage(ghost, mp, c.plan.legs);
    const phases: PreviewPhase[] = [];
    for (let phase = 1; phase <= PHASES; phase++) {
      const before = p.mpUsed;
      const paying = p.legs[p.next];
      const leg = spendPhase(p, phase);
      let note: string | undefined;
      if (leg?.kind === 'leave') {
        ghost.inHarbor = false;
        note = leg.implied ? 'leaves harbor (1 mp; LEAVE HARBOR implied by the MOVE)' : 'leaves harbor (1 mp)';
      } else if (leg?.kind === 'step') {
        ghost.at = leg.to;
        note = `${name(leg.from)} → ${name(leg.to)}${leg.againstWind ? ' (against the trade wind, 2 mp)' : ''}`;
      } else if (leg?.kind === 'enter') {
        ghost.inHarbor = true;
        const port = map.port(ghost.at);
        note = port && harborStanding(state, port, power) === 'neutral'
          ? 'enters harbor (1 mp; neutral port: admission roll assumed granted, 1-3 would refuse)'
          : 'enters harbor (1 mp)';
      } else if (p.mpUsed > before && paying?.kind === 'step') {
        note = `halfway to ${name(paying.to)} against the trade wind`;
      } else if (p.next < p.legs.length && p.mpUsed === before && phase < PHASES + 1 - mp) {
        note = `waits: a ${mp}-mp fleet moves in phases ${PHASES + 1 - mp}-${PHASES}`;
      }
      phases.push({ phase, node: ghost.at, inHarbor: ghost.inHarbor, ...(note ? { note } : {}) });
    }
    const problems = [...c.problems];
    const left = legsLeft(p);
    if (left.length > 0) {
      const line = c.orders.lines?.[0];
      problems.push({
        code: 'outOfMp', fleetId: c.fleetId, ...(line !== undefined ? { line } : {}),
        message: `${c.fleet.name} has ${mp} mp but its orders need ${p.mpUsed - p.paid + left.reduce((s, l) => s + l.cost, 0)}: it stops at ${name(ghost.at)}${p.paid > 0 ? ' (a trade-wind step half paid is lost)' : ''}`,
      });
    }
    return { fleetId: c.fleetId, phases, stopsAt: ghost.at, mpUsed: p.mpUsed, mp, windSteps: c.plan.windSteps, problems };
  });
}
