// Who is asking (src/campaign/access.ts) remembers verified passwords and, briefly, tokens
// that matched nobody. Neither memo may outlive a change: a password set to a token that
// was just refused works at once, and a replaced password stops working at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identify } from '../../src/campaign/access.js';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { setPlayer } from '../../src/campaign/players.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let campaignId: string;
const player = { name: 'Horatio Nelson', email: 'h.nelson.rn@gmail.com' };

beforeAll(async () => {
  db = await testDatabase();
  campaignId = (await createCampaign(db, { scenario: 'caribbean', slug: 'tokens-1805', seed: 'tokens' })).id;
  await setPlayer(db, campaignId, 'british', { ...player, password: 'hearts-of-oak' });
  await setPlayer(db, campaignId, 'french', { name: 'Pierre', email: 'p@example.fr', password: 'vive-l-empereur' });
});

afterAll(async () => { await db?.destroy(); });

const refusal = (token: string) => identify(db, campaignId, token).then(() => 'accepted', (err: { code?: string }) => err.code);

describe('Bearer tokens', () => {
  it('a wrong token is refused every time it is sent', async () => {
    expect(await refusal('grog-and-biscuit')).toBe('auth/bad_token');
    expect(await refusal('grog-and-biscuit')).toBe('auth/bad_token');
  });

  it('a password set to a token just refused works at once', async () => {
    expect(await refusal('topsail-bosun-1805')).toBe('auth/bad_token');
    await setPlayer(db, campaignId, 'british', { ...player, password: 'topsail-bosun-1805' });
    expect(await identify(db, campaignId, 'topsail-bosun-1805')).toMatchObject({ role: 'player', power: 'british' });
  });

  it('a replaced password, verified just before, is refused at once', async () => {
    await setPlayer(db, campaignId, 'british', { ...player, password: 'first-rate' });
    expect(await identify(db, campaignId, 'first-rate')).toMatchObject({ role: 'player', power: 'british' });
    expect(await identify(db, campaignId, 'first-rate')).toMatchObject({ role: 'player', power: 'british' });
    await setPlayer(db, campaignId, 'british', { ...player, password: 'second-rate' });
    expect(await refusal('first-rate')).toBe('auth/bad_token');
    expect(await identify(db, campaignId, 'second-rate')).toMatchObject({ role: 'player', power: 'british' });
    // Another player's password is that player's, not the one that changed.
    expect(await identify(db, campaignId, 'vive-l-empereur')).toMatchObject({ role: 'player', power: 'french' });
  });
});
