/** Campaigns for the use-case tests of test/campaign (the real database, no HTTP). */
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { setPlayer } from '../../src/campaign/players.js';
import { submitOrders } from '../../src/campaign/submitOrders.js';
import type { Database } from '../../src/db/client.js';
import { builtInScenario } from '../../src/scenario/builtin.js';

export const POWERS = ['british', 'french', 'american'] as const;

/** Clean orders: each names the fleet that carries out its power's mission (rules VI: "in keeping with the orders they receive"). */
export const CLEAN: Record<(typeof POWERS)[number], string> = {
  british: 'POWER british\nFLEET "Jamaica Squadron": LEAVE HARBOR MOVE "South of Jamaica"\nFLEET "Jamaica Squadron": MISSION',
  french: 'POWER french\nFLEET "Escadre de la Martinique": HOLD\nFLEET "Escadre de la Martinique": MISSION',
  american: 'POWER american\nFLEET "Chesapeake Squadron": LEAVE HARBOR MOVE "Hampton Roads"\nFLEET "Chesapeake Squadron": MISSION',
};

type Fleet = { name: string; at: string; inHarbor?: boolean; stance?: string };

/**
 * A Caribbean campaign with a player for each playable power. `battle: true` puts the
 * Jamaica Squadron (5 ships) and the Escadre de la Martinique (6) at sea in one node,
 * both eager to fight: each sights the other on any d6 (+1 per enemy ship), so turn 1
 * makes a battle whatever the dice.
 */
export async function makeCampaign(db: Database, opts: { seed?: string; battle?: boolean; missions?: object[] } = {}) {
  const scenario = builtInScenario('caribbean') as { fleets: Fleet[]; missions?: object[] };
  if (opts.missions) scenario.missions = opts.missions;
  if (opts.battle) {
    for (const f of scenario.fleets) {
      if (f.name === 'Jamaica Squadron' || f.name === 'Escadre de la Martinique') Object.assign(f, { at: 'lee-of-martinique', inHarbor: false, stance: 'engage' });
    }
  }
  const made = await createCampaign(db, { scenario, seed: opts.seed ?? 'campaign-test' });
  const passwords: Record<string, string> = {};
  for (const power of POWERS) passwords[power] = (await setPlayer(db, made.id, power, { name: `Player ${power}`, email: `${power}@example.org` })).password;
  return { id: made.id, slug: made.slug, gmToken: made.gmToken, passwords };
}

export async function sendOrders(db: Database, id: string, power: string, text: string) {
  return submitOrders(db, id, power, { text, source: 'api' });
}

export async function allReady(db: Database, id: string) {
  for (const p of POWERS) await sendOrders(db, id, p, CLEAN[p]);
}
