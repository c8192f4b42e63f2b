// The GM's approval of despatches (campaign setting despatchGmApproval, docs/despatches.md),
// over the API and the GM's page: a power's despatch waits for the GM (no mail, the recipient
// reads nothing); the GM holds it, releases it (then it travels: instant, mailed now), or marks
// it taken by a named power (it goes to that power as intercepted, never to its recipients).
// Every decision is audited; a wrong one is refused with the reason.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { PageBrowser } from '../support/pageBrowser.js';

const POWERS = ['british', 'french', 'american'] as const;
let db: TestDatabase;
let app: App;
let id: string;
let slug: string;
let gm: string;
const pw: Record<string, string> = {};
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const email = (p: string) => `${p}@approval.example.org`;

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', name: 'Approval' } });
  ({ id, slug, gmToken: gm } = res.json());
  for (const p of POWERS) {
    pw[p] = (await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/players/${p}`, headers: auth(gm), payload: { name: p, email: email(p) } })).json().password;
  }
});
afterAll(async () => {
  await app?.close();
  await db?.destroy();
});

const send = async (from: string, to: string[], text: string) => {
  const r = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/despatches`, headers: auth(pw[from]!), payload: { to, text } });
  expect(r.statusCode, r.body).toBe(201);
  return r.json() as { id: string; deliveredAt: string | null; approval: string | null };
};
const list = async (who: string) => ((await app.inject({ url: `/api/campaigns/${id}/despatches`, headers: auth(who === 'gm' ? gm : pw[who]!) })).json().despatches) as
  { id: string; text: string; deliveredAt: string | null; interceptedBy: string | null; approval: string | null; direction: string }[];
const decide = (despatch: string, body: object, token = gm) =>
  app.inject({ method: 'POST', url: `/api/campaigns/${id}/despatches/${despatch}/approval`, headers: auth(token), payload: body });
const mailsTo = (p: string) => db.prisma.outgoingMail.findMany({ where: { campaignId: id, to: email(p), subject: { contains: 'despatch' } } });

describe('despatches waiting for the GM', () => {
  it('the setting is the GM\'s, beside the others, and audited', async () => {
    const put = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/despatch-settings`, headers: auth(gm), payload: { despatchGmApproval: true } });
    expect(put.json()).toEqual({ greyDespatches: false, despatchDelivery: 'instant', despatchGmApproval: true });
    expect((await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/despatch-settings`, headers: auth(pw.british!), payload: { despatchGmApproval: false } })).statusCode).toBe(403);
    expect(await db.prisma.auditEntry.count({ where: { campaignId: id, action: 'despatch.settings' } })).toBe(1);
    const doc = (await app.inject({ url: '/docs/json' })).json();
    expect(doc.paths['/api/campaigns/{id}/despatches/{despatchId}/approval'].post).toBeDefined();
  });

  it('held, then released: it waits unseen and unmailed, the sender reads it on its way; released, it is delivered and mailed at once', async () => {
    const d = await send('british', ['french'], 'APPROVAL-ONE to France');
    expect(d).toMatchObject({ deliveredAt: null, approval: null }); // the sender is not told what the GM does
    expect(await mailsTo('french')).toEqual([]);
    expect((await list('french')).map((x) => x.text)).not.toContain('APPROVAL-ONE to France');
    expect((await list('gm')).find((x) => x.id === d.id)?.approval).toBe('waiting');

    expect((await decide(d.id, { action: 'hold' })).json()).toMatchObject({ approval: 'held', deliveredAt: null });
    expect((await list('british')).find((x) => x.id === d.id)).toMatchObject({ deliveredAt: null, approval: null, direction: 'sent' });
    expect((await list('french')).map((x) => x.text)).not.toContain('APPROVAL-ONE to France');

    const released = await decide(d.id, { action: 'release' });
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json()).toMatchObject({ approval: 'released', deliveredAt: expect.any(String) });
    expect((await list('french')).find((x) => x.id === d.id)).toMatchObject({ direction: 'received', approval: null });
    expect((await mailsTo('french')).map((m) => m.text).join()).toContain('APPROVAL-ONE to France');
    expect((await decide(d.id, { action: 'release' })).statusCode).toBe(409);
    const audit = await db.prisma.auditEntry.findMany({ where: { campaignId: id, action: { in: ['despatch.held', 'despatch.released'] } }, orderBy: { at: 'asc' } });
    expect(audit.map((a) => a.action)).toEqual(['despatch.held', 'despatch.released']);
  });

  it('marked taken by a named power: the taker reads it (and is mailed) as intercepted, the recipient never, the sender on its way', async () => {
    const d = await send('french', ['british'], 'APPROVAL-TWO to Britain');
    const wrong = await decide(d.id, { action: 'intercept', by: 'british' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().message).toMatch(/recipient: release it instead/);
    expect((await decide(d.id, { action: 'intercept', by: 'american' }, pw.american!)).statusCode).toBe(403);
    const taken = await decide(d.id, { action: 'intercept', by: 'american' });
    expect(taken.json()).toMatchObject({ interceptedBy: 'american', interceptedNode: null });
    expect((await list('american')).find((x) => x.id === d.id)).toMatchObject({ direction: 'intercepted', interceptedBy: 'american' });
    expect((await list('british')).map((x) => x.text)).not.toContain('APPROVAL-TWO to Britain');
    expect((await list('french')).find((x) => x.id === d.id)).toMatchObject({ deliveredAt: null, interceptedBy: null });
    const mail = (await mailsTo('american')).find((m) => m.text.includes('APPROVAL-TWO'))!;
    expect(mail.subject).toBe('Approval: a despatch intercepted at sea');
    expect(await mailsTo('british')).toEqual([]);
    expect(await db.prisma.auditEntry.count({ where: { campaignId: id, action: 'despatch.intercepted' } })).toBe(1);
  });

  it('the GM\'s page lists what waits with its controls, and a decision there is made and said', async () => {
    const d = await send('american', ['french'], 'APPROVAL-THREE to France');
    const browser = new PageBrowser(() => app);
    await browser.post(`/c/${slug}/login`, { _csrf: await browser.csrf(`/c/${slug}/login`), password: gm });
    const page = (await browser.get(`/c/${slug}/gm/despatches`)).body;
    expect(page).toContain('1 waiting for your approval');
    expect(page).toContain(`/gm/despatches/${d.id}/approval`);
    expect(page).toMatch(/name="approval" value="1" checked/);
    const token = await browser.csrf(`/c/${slug}/gm/despatches`);
    const res = await browser.post(`/c/${slug}/gm/despatches/${d.id}/approval`, { _csrf: token, action: 'intercept', by: 'british' });
    expect(res.statusCode).toBe(303);
    expect((await browser.get(res.headers.location as string)).body).toContain('The despatch is marked taken');
    expect((await list('british')).find((x) => x.id === d.id)?.direction).toBe('intercepted');
  });
});
