// The sender look-up started ahead (seal.ts starts it while mailparser reads the masked copy):
// it answers exactly as a fresh look-up would, and a look-up made for another CAMPAIGN line is
// never taken for this one. Real database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../../src/campaign/createCampaign.js';
import { setPlayer } from '../../../src/campaign/players.js';
import { candidatesAhead, identifySender } from '../../../src/mail/inbound/identify.js';
import { testDatabase, type TestDatabase } from '../../support/db.js';

const NELSON = 'h.nelson.rn@gmail.com';
const PASSWORD = 'hearts-of-oak-1805';

let db: TestDatabase;
let windward: { id: string; slug: string };
let leeward: { id: string; slug: string };

beforeAll(async () => {
  db = await testDatabase();
  windward = await createCampaign(db, { scenario: 'caribbean', slug: 'windward-ahead', seed: 'ahead-1' });
  leeward = await createCampaign(db, { scenario: 'caribbean', slug: 'leeward-ahead', seed: 'ahead-2' });
  await setPlayer(db, windward.id, 'british', { name: 'Horatio Nelson', email: NELSON, password: PASSWORD });
  await setPlayer(db, leeward.id, 'british', { name: 'Horatio Nelson', email: NELSON, password: 'another-one' });
});

afterAll(async () => { await db?.destroy(); });

describe('the sender look-up started ahead', () => {
  it('is only started with a CAMPAIGN line, a POWER and a PASSWORD', () => {
    expect(candidatesAhead(db, { power: 'british', password: PASSWORD })).toBeNull();
    expect(candidatesAhead(db, { campaign: windward.slug, password: PASSWORD })).toBeNull();
    expect(candidatesAhead(db, { campaign: windward.slug, power: 'british' })).toBeNull();
  });

  it('answers as a fresh look-up: right password passes, wrong one and wrong address fail', async () => {
    const header = { campaign: windward.slug, power: 'british', password: PASSWORD };
    const ok = await identifySender(db, header, NELSON, candidatesAhead(db, header));
    expect(ok).toMatchObject({ ok: true, as: 'player', sender: { campaignId: windward.id, power: 'british' } });
    expect(ok).toEqual(await identifySender(db, header, NELSON));
    const wrong = { ...header, password: 'not-it' };
    expect(await identifySender(db, wrong, NELSON, candidatesAhead(db, wrong))).toMatchObject({ ok: false });
    expect(await identifySender(db, header, 'someone@else.example', candidatesAhead(db, header))).toMatchObject({ ok: false });
  });

  it('made for another CAMPAIGN line, it is not used: the campaign named decides', async () => {
    // Looked up for windward, where this password is right; the message names leeward, where it is not.
    const ahead = candidatesAhead(db, { campaign: windward.slug, power: 'british', password: PASSWORD });
    const who = await identifySender(db, { campaign: leeward.slug, power: 'british', password: PASSWORD }, NELSON, ahead);
    expect(who).toMatchObject({ ok: false });
    expect(who.ok ? '' : who.reason).toContain(leeward.slug);
  });
});
