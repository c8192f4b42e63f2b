/**
 * Step 6, Supplies (rules VI; SPEC §4): "A ship carries supplies for four months on board.
 * On the fifth month, the ship loses one square from each crew section due to disease and
 * starvation. Supplies immediately return to full on docking in any friendly or neutral
 * harbor."
 *
 * At turn end every afloat ship not in a friendly or admitted neutral harbor uses one month
 * (settings.fullSupplies when full); one with none left loses one box from each crew section
 * instead. A ship in such a harbor at turn end is filled up.
 */
import { afloat, fleetLabel, fleetSupplies, inRestingHarbor, nodeName, note, plural, settingsOf } from './common.js';
import type { TurnContext } from './context.js';
import type { CampaignState, RuleSettings, Ship } from './state.js';

export function runSupplies(ctx: TurnContext): void {
  const { state } = ctx;
  const full = settingsOf(state).fullSupplies;
  for (const fleet of state.fleets) {
    const ships = afloat(fleet);
    if (ships.length === 0) continue;
    if (inRestingHarbor(state, fleet)) {
      const short = ships.filter((s) => s.supplies < full);
      if (short.length === 0) continue;
      for (const s of short) s.supplies = full;
      note(ctx, {
        type: 'supplies', visibleTo: [fleet.power], power: fleet.power, fleetIds: [fleet.id], shipIds: short.map((s) => s.id), nodeId: fleet.at,
        supplies: full, text: `${fleetLabel(state, fleet)} takes on supplies at ${nodeName(state, fleet.at)}: ${plural(full, 'month')} on board`,
      });
      continue;
    }
    const starving: Ship[] = [];
    for (const s of ships) {
      if (s.supplies > 0) { s.supplies -= 1; continue; }
      starving.push(s);
    }
    note(ctx, {
      type: 'supplies', visibleTo: [fleet.power], power: fleet.power, fleetIds: [fleet.id], nodeId: fleet.at, supplies: fleetSupplies(fleet),
      text: `${fleetLabel(state, fleet)} spends a month at sea: ${fleetSupplies(fleet) === 0 ? 'its supplies are out' : `${plural(fleetSupplies(fleet), 'month')} of supplies left`}`,
    });
    for (const s of starving) {
      const before = [...s.crew];
      s.crew = s.crew.map((c) => Math.max(0, c - 1));
      const lost = before.reduce((n, c, i) => n + (c - s.crew[i]!), 0);
      note(ctx, {
        type: 'attrition', visibleTo: [fleet.power], power: fleet.power, fleetIds: [fleet.id], shipIds: [s.id], nodeId: fleet.at, crewLost: lost,
        text: `${s.name} is out of supplies: disease and starvation cost ${plural(lost, 'crew box')} (one from each section)`,
      });
    }
  }
}

/**
 * New rule settings coming into force as a turn opens (the GM's changes). No ship carries
 * more than full supplies, so lowering `fullSupplies` cuts any ship above the new full
 * down to it.
 */
export function settingsInForce(state: CampaignState, change: Partial<RuleSettings>): CampaignState {
  const settings = { ...state.settings, ...change };
  const full = settings.fullSupplies;
  const fleets = state.fleets.map((f) => ({ ...f, ships: f.ships.map((s) => (s.supplies > full ? { ...s, supplies: full } : s)) }));
  return { ...state, settings, fleets };
}
