/**
 * A campaign made through the API whose turn 1 is certain to make a battle: the British and
 * French squadrons start at sea in one node, both set to ENGAGE, and with 5+ enemy ships each
 * side sights on any roll (d6 + 1 per enemy ship). Players are set for all three powers.
 */
import { expect } from 'vitest';
import type { App } from '../../src/http/app.js';

export const auth = (token: string) => ({ authorization: `Bearer ${token}` });

export async function campaignWithBattle(app: App, seed: string, opts: { allowPendingBattles?: boolean; turnSeed?: string; slug?: string } = {}) {
  const scenario = (await app.inject({ url: '/api/scenarios/caribbean' })).json();
  scenario.vpGoal = 1000; // a crushing victory at the table must not end the campaign here
  if (opts.allowPendingBattles) scenario.settings = { ...(scenario.settings ?? {}), allowPendingBattles: true };
  for (const f of scenario.fleets) {
    if (f.name === 'Escadre de la Martinique' || f.name === 'Leeward Islands Squadron') Object.assign(f, { at: 'lee-of-martinique', inHarbor: false, stance: 'engage' });
  }
  const made = (await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario, seed, ...(opts.slug ? { slug: opts.slug } : {}) } })).json();
  const pw: Record<string, string> = {};
  for (const power of ['british', 'french', 'american']) {
    pw[power] = (await app.inject({ method: 'PUT', url: `/api/campaigns/${made.id}/players/${power}`, headers: auth(made.gmToken), payload: { name: power, email: `${power}@example.org` } })).json().password;
  }
  const payload = { expectedTurn: 1, ...(opts.turnSeed ? { seed: opts.turnSeed } : {}) };
  const resolved = await app.inject({ method: 'POST', url: `/api/campaigns/${made.id}/turns/current/resolve`, headers: auth(made.gmToken), payload });
  expect(resolved.statusCode, `${JSON.stringify(made).slice(0, 300)} ${resolved.body}`).toBe(200);
  expect(resolved.json().battles.length).toBeGreaterThan(0);
  return { id: made.id as string, gm: made.gmToken as string, pw, battle: resolved.json().battles[0].id as string };
}

/**
 * A campaign whose turn 1 makes a harbor battle: the Leeward Islands Squadron lies off
 * Martinique and attacks the harbor, where the Escadre de la Martinique lies under the fort.
 */
export async function campaignWithHarborBattle(app: App, seed: string) {
  const scenario = (await app.inject({ url: '/api/scenarios/caribbean' })).json();
  scenario.vpGoal = 1000;
  for (const f of scenario.fleets) {
    if (f.name === 'Leeward Islands Squadron') Object.assign(f, { at: 'martinique', inHarbor: false });
  }
  const made = (await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario, seed } })).json();
  const pw: Record<string, string> = {};
  for (const power of ['british', 'french', 'american']) {
    pw[power] = (await app.inject({ method: 'PUT', url: `/api/campaigns/${made.id}/players/${power}`, headers: auth(made.gmToken), payload: { name: power, email: `${power}@example.org` } })).json().password;
  }
  const orders = await app.inject({
    method: 'POST', url: `/api/campaigns/${made.id}/orders/british`, headers: auth(pw.british!),
    payload: { text: 'POWER british\nFLEET "Leeward Islands Squadron": ATTACK HARBOR\nFLEET "Jamaica Squadron": MISSION' },
  });
  expect(orders.statusCode, orders.body).toBe(200);
  const resolved = await app.inject({ method: 'POST', url: `/api/campaigns/${made.id}/turns/current/resolve`, headers: auth(made.gmToken), payload: { expectedTurn: 1 } });
  expect(resolved.statusCode, resolved.body).toBe(200);
  const battle = (resolved.json().battles as { id: string; harbor: boolean }[]).find((b) => b.harbor);
  expect(battle, resolved.body.slice(0, 400)).toBeDefined();
  return { id: made.id as string, gm: made.gmToken as string, pw, battle: battle!.id };
}
