// Despatches over the API (app.inject on the real database): a player sends as their power
// and reads their own; the GM reads all with filters, writes as the GM, and alone sets how
// despatches travel; refusals are 422 with the reason and nothing stored; OpenAPI lists it all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/http/app.js';
import { buildApp } from '../../src/http/app.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { PageBrowser } from '../support/pageBrowser.js';

let db: TestDatabase;
let app: App;
let id: string;
let gm: string;
let slug: string;
const pw: Record<string, string> = {};

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const send = (token: string, payload: object) => app.inject({ method: 'POST', url: `/api/campaigns/${id}/despatches`, headers: auth(token), payload });
const list = async (token: string, query = '') => {
  const res = await app.inject({ url: `/api/campaigns/${id}/despatches${query}`, headers: auth(token) });
  expect(res.statusCode).toBe(200);
  return res.json().despatches as { text: string; sender: string | null; senderHidden: boolean; fromGm: boolean; direction: string; interceptedBy: string | null }[];
};

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', name: 'Despatch API' } });
  ({ id, slug, gmToken: gm } = res.json());
  for (const p of ['british', 'french', 'american']) {
    const r = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/players/${p}`, headers: auth(gm), payload: { name: p, email: `${p}@api.example.org` } });
    pw[p] = r.json().password;
  }
});
afterAll(async () => {
  await app?.close();
  await db?.destroy();
});

describe('sending', () => {
  it('a player sends as their power: 201 with the despatch; the recipients\' mails are queued', async () => {
    const res = await send(pw.british!, { to: ['french'], text: 'Sir, a word about Martinique.' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ sender: 'british', recipients: ['french'], direction: 'sent', delivery: 'instant', turn: 1 });
    expect(res.json().deliveredAt).toEqual(expect.any(String));
    expect(await db.prisma.outgoingMail.count({ where: { to: 'french@api.example.org', subject: { contains: 'despatch from Great Britain' } } })).toBe(1);
  });

  it.each([
    [{ to: ['prussian'], text: 'Guten Tag.' }, 'despatch/unknown_power', /'prussian' is not a power/],
    [{ to: ['french'], text: '   ' }, 'despatch/empty', /has no text/],
    [{ to: ['french'], text: 'z'.repeat(10_001) }, 'despatch/too_long', /10001 characters long/],
    [{ to: ['french'], text: 'Secret.', grey: true }, 'despatch/grey_off', /grey despatches are not allowed/],
  ])('refused with 422, its code and reason; nothing stored (%#)', async (payload, code, reason) => {
    const before = await db.prisma.despatch.count({ where: { campaignId: id } });
    const res = await send(pw.british!, payload);
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe(code);
    expect(res.json().message).toMatch(reason);
    expect(await db.prisma.despatch.count({ where: { campaignId: id } })).toBe(before);
  });

  it('a body without `to` is 400 naming the field', async () => {
    const res = await send(pw.british!, { text: 'To whom?' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/to/);
  });

  it('the GM writes to all, marked as from the GM', async () => {
    const res = await send(gm, { to: 'all', text: 'Peace of Amiens is over.' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ sender: null, fromGm: true, recipients: ['british', 'french', 'american'], direction: 'gm' });
    for (const p of ['british', 'french', 'american']) {
      expect((await list(pw[p]!)).some((d) => d.text === 'Peace of Amiens is over.' && d.fromGm)).toBe(true);
    }
  });
});

describe('despatches beside the orders (orders API)', () => {
  it('orders with a despatch: the orders are stored and the despatch sent, confirmed by its line', async () => {
    const text = ['FLEET "Escadre de la Martinique": HOLD', 'FLEET "Escadre de la Martinique": MISSION', 'DESPATCH TO british', 'Monsieur, nous tenons la Martinique.', 'END DESPATCH'].join('\n');
    const res = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/orders/french`, headers: auth(pw.french!), payload: { text } });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('ready');
    expect(res.json().despatches).toEqual([expect.stringMatching(/^line 3: Despatch to Great Britain: delivered at once/)]);
    expect((await list(pw.british!)).some((d) => d.text === 'Monsieur, nous tenons la Martinique.')).toBe(true);
    // The same orders sent again (as the web form shows them, block and all): the despatch is not sent twice.
    const count = await db.prisma.despatch.count({ where: { campaignId: id } });
    const again = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/orders/french`, headers: auth(pw.french!), payload: { text } });
    expect(again.json().despatches).toEqual([expect.stringMatching(/^line 3: Despatch to Great Britain: already sent this turn, with earlier orders; not sent again/)]);
    expect(await db.prisma.despatch.count({ where: { campaignId: id } })).toBe(count);
  });

  it('the orders form: Send stores the orders, sends the despatch, and the page says how many went and how many were refused', async () => {
    const browser = new PageBrowser(() => app);
    await browser.post(`/c/${slug}/login`, { _csrf: await browser.csrf(`/c/${slug}/login`), password: pw.american! });
    const before = await db.prisma.despatch.count({ where: { campaignId: id, sender: 'american' } });
    const text = ['FLEET "Chesapeake Squadron": HOLD', 'DESPATCH TO british', 'Free trade, sir.', 'END DESPATCH', 'DESPATCH TO prussian', 'Hallo.', 'END DESPATCH'].join('\n');
    const res = await browser.post(`/c/${slug}/orders`, { _csrf: await browser.csrf(`/c/${slug}/orders`), text, action: 'send' });
    expect(res.statusCode).toBe(303);
    const page = (await browser.get(String(res.headers.location))).body;
    expect(page).toContain('1 despatch sent (or already sent) with these orders; 1 refused: write it on the Despatches page to see why.');
    expect(await db.prisma.despatch.count({ where: { campaignId: id, sender: 'american' } })).toBe(before + 1);
  });

  it('a text of despatches only is 422, nothing sent, pointing to the despatches route', async () => {
    const before = await db.prisma.despatch.count({ where: { campaignId: id } });
    const res = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/orders/french`, headers: auth(pw.french!), payload: { text: 'DESPATCH TO british\nAlone.\nEND DESPATCH' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/only despatches \(line 1: DESPATCH TO british\); nothing was sent or stored: send a despatch on its own/);
    expect(await db.prisma.despatch.count({ where: { campaignId: id } })).toBe(before);
  });
});

describe('settings and the GM\'s list', () => {
  it('only the GM reads and changes the settings (audited); a player gets 403', async () => {
    expect((await app.inject({ url: `/api/campaigns/${id}/despatch-settings`, headers: auth(pw.french!) })).statusCode).toBe(403);
    expect((await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/despatch-settings`, headers: auth(pw.french!), payload: { greyDespatches: true } })).statusCode).toBe(403);
    const bad = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/despatch-settings`, headers: auth(gm), payload: { despatchDelivery: 'pigeon' } });
    expect(bad.statusCode).toBe(400);
    const res = await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/despatch-settings`, headers: auth(gm), payload: { greyDespatches: true } });
    expect(res.json()).toEqual({ greyDespatches: true, despatchDelivery: 'instant', despatchGmApproval: false });
    expect(await db.prisma.auditEntry.count({ where: { campaignId: id, action: 'despatch.settings' } })).toBe(1);
  });

  it('a grey despatch: the recipient reads it without its sender; the sender and the GM with it; the third power not at all', async () => {
    const res = await send(pw.french!, { to: ['american'], text: 'From a well-wisher: beware Hampton Roads.', grey: true });
    expect(res.statusCode).toBe(201);
    const american = (await list(pw.american!)).find((d) => d.text.startsWith('From a well-wisher'));
    expect(american).toMatchObject({ sender: null, senderHidden: true, direction: 'received' });
    expect(JSON.stringify(american)).not.toMatch(/french|France/);
    expect((await list(pw.french!)).find((d) => d.text.startsWith('From a well-wisher'))).toMatchObject({ sender: 'french', direction: 'sent' });
    expect((await list(gm)).find((d) => d.text.startsWith('From a well-wisher'))).toMatchObject({ sender: 'french', direction: 'gm' });
    expect((await list(pw.british!)).some((d) => d.text.startsWith('From a well-wisher'))).toBe(false);
  });

  it('the GM filters by turn, sender, recipient and text; a player\'s filters stay inside their own', async () => {
    expect((await list(gm, '?sender=british')).map((d) => d.text)).toEqual(['Sir, a word about Martinique.']);
    expect((await list(gm, '?sender=gm')).map((d) => d.text)).toEqual(['Peace of Amiens is over.']);
    expect((await list(gm, '?recipient=american')).map((d) => d.text).sort()).toEqual(['From a well-wisher: beware Hampton Roads.', 'Peace of Amiens is over.']);
    expect((await list(gm, '?q=HAMPTON')).map((d) => d.text)).toEqual(['From a well-wisher: beware Hampton Roads.']);
    expect(await list(gm, '?turn=2')).toEqual([]);
    expect((await list(pw.british!, '?sender=french')).map((d) => d.text)).toEqual(['Monsieur, nous tenons la Martinique.']); // not the one to the Americans
    const bad = await app.inject({ url: `/api/campaigns/${id}/despatches?turn=abc`, headers: auth(gm) });
    expect(bad.statusCode).toBe(400);
  });

  it('no token is 401', async () => {
    expect((await app.inject({ url: `/api/campaigns/${id}/despatches` })).statusCode).toBe(401);
    expect((await app.inject({ method: 'POST', url: `/api/campaigns/${id}/despatches`, payload: { to: 'all', text: 'x' } })).statusCode).toBe(401);
  });

  it('the OpenAPI document lists the routes and the Despatch schema', async () => {
    const doc = (await app.inject({ url: '/docs/json' })).json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/campaigns/{id}/despatches', '/api/campaigns/{id}/despatch-settings']));
    expect(Object.keys(doc.components.schemas.Despatch.properties)).toEqual(expect.arrayContaining(['sender', 'recipients', 'grey', 'text', 'sentAt', 'deliveredAt']));
  });
});
