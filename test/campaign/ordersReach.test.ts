// Orders always reach the right fleet. Through the use cases on the real database: a route
// that names the power needs no POWER line (a mail still does), and a set whose only error
// is the three-fleet limit is carried out, the first three fleets sailing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { resolveOpenTurn } from '../../src/campaign/resolveTurn.js';
import { submitOrders } from '../../src/campaign/submitOrders.js';
import { loadState } from '../../src/db/campaignStore.js';
import { builtInScenario } from '../../src/scenario/builtin.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let id: string;

beforeAll(async () => {
  db = await testDatabase();
  const scenario = builtInScenario('caribbean') as { fleets: { power: string; name: string; at: string; inHarbor?: boolean; ships: object[] }[] };
  // A fourth British fleet, so that four may be ordered to sail.
  scenario.fleets.push({ power: 'british', name: 'Frigate Squadron', at: 'kingston', inHarbor: true, ships: [{ name: 'HMS Pique', class: 'frigate-28' }] });
  id = (await createCampaign(db, { scenario, seed: 'orders-reach' })).id;
});
afterAll(async () => { await db?.destroy(); });

describe('a route that already names the power needs no POWER line', () => {
  it('the API and the web form take orders without POWER; they are ready', async () => {
    for (const source of ['api', 'web'] as const) {
      const check = await submitOrders(db, id, 'french', { text: 'FLEET "Escadre de la Martinique": HOLD\nFLEET "Escadre de la Martinique": MISSION', source });
      expect(check.errors).toEqual([]);
      expect(check.status).toBe('ready');
    }
  });

  it('a mail names its power only in its text: POWER is still needed there', async () => {
    const check = await submitOrders(db, id, 'french', { text: 'FLEET "Escadre de la Martinique": HOLD\nFLEET "Escadre de la Martinique": MISSION', source: 'email' });
    expect(check.errors.map((e) => e.code)).toEqual(['orders/missing_power']);
  });
});

describe('the three-fleet limit', () => {
  // Rules VI: "Due to command limitations, no player may move more than three fleets in a given turn".
  it('the check reports the fourth fleet; at resolution the first three in the orders sail and the fourth holds, logged', async () => {
    const check = await submitOrders(db, id, 'british', {
      source: 'api',
      text: [
        'FLEET "Jamaica Squadron": LEAVE HARBOR MOVE "South of Jamaica"',
        'FLEET "Leeward Islands Squadron": LEAVE HARBOR MOVE "Lee of St. Kitts"',
        'FLEET "Windward Islands Squadron": LEAVE HARBOR MOVE "St. Vincent Passage"',
        'FLEET "Frigate Squadron": LEAVE HARBOR MOVE "Off Morant Point"',
        'FLEET "Jamaica Squadron": MISSION',
      ].join('\n'),
    });
    expect(check.status).toBe('has_errors');
    expect(check.errors.map((e) => [e.line, e.code])).toEqual([[4, 'orders/too_many_fleets']]);
    expect(check.errors[0]!.message).toContain('Frigate Squadron is number 4 and will hold');

    const out = await resolveOpenTurn(db, id, { expectedTurn: 1 });
    expect(out.missingOrders).not.toContain('british');
    const state = await loadState(db.prisma, id);
    const at = (name: string) => { const f = state.fleets.find((x) => x.name === name)!; return [f.at, f.inHarbor]; };
    expect(at('Jamaica Squadron')).toEqual(['south-of-jamaica', false]);
    expect(at('Leeward Islands Squadron')).toEqual(['lee-of-st-kitts', false]);
    expect(at('Windward Islands Squadron')).toEqual(['st-vincent-passage', false]);
    expect(at('Frigate Squadron')).toEqual(['kingston', true]);
    const held = out.events.filter((e) => e.type === 'orderRejected' && e.code === 'orders/too_many_fleets');
    expect(held).toHaveLength(1);
    expect(held[0]!.visibleTo).toEqual(['british']);
    expect(held[0]!.text).toContain('Frigate Squadron would be number 4 and holds');
  });
});
