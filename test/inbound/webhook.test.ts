// POST /api/inbound/mail: the raw message as the body, a shared secret, the size cap.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { setPlayer } from '../../src/campaign/players.js';
import { buildApp, type App } from '../../src/http/app.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { caribbeanWithStandingMissions } from '../support/standingMissions.js';

const SECRET = 'pipe-from-postfix-7f3a9c';
let db: TestDatabase;
let app: App;
let closed: App;
let slug: string;

function gmail(tag: string): Buffer {
  const s = readFileSync(new URL('../fixtures/mail/gmail.eml', import.meta.url), 'utf8')
    .replaceAll('{{CAMPAIGN}}', slug).replaceAll('{{PASSWORD}}', 'hearts-of-oak')
    .replace('Message-ID: <', `Message-ID: <${tag}.`);
  return Buffer.from(s.replace(/\r?\n/g, '\r\n'));
}

const post = (a: App, payload: Buffer, headers: Record<string, string> = {}) =>
  a.inject({ method: 'POST', url: '/api/inbound/mail', payload, headers: { 'content-type': 'message/rfc822', ...headers } });
const bearer = { authorization: `Bearer ${SECRET}` };

beforeAll(async () => {
  db = await testDatabase();
  const c = await createCampaign(db, { scenario: caribbeanWithStandingMissions(), slug: 'webhook-1805', seed: 'webhook' });
  slug = c.slug;
  await setPlayer(db, c.id, 'british', { name: 'Horatio Nelson', email: 'h.nelson.rn@gmail.com', password: 'hearts-of-oak' });
  app = await buildApp({ db, config: {}, inbound: { secret: SECRET, maxBytes: 64 * 1024, ratePerHour: 1000 } });
  const saved = process.env.INBOUND_SECRET;
  delete process.env.INBOUND_SECRET;
  closed = await buildApp({ db, config: {} });
  await closed.ready();
  if (saved !== undefined) process.env.INBOUND_SECRET = saved;
});

afterAll(async () => {
  await app?.close();
  await closed?.close();
  await db?.destroy();
});

describe('POST /api/inbound/mail', () => {
  it('is 404 when INBOUND_SECRET is unset, even with a token', async () => {
    const res = await post(closed, gmail('off'), bearer);
    expect(res.statusCode).toBe(404);
    expect(await db.prisma.inboundMessage.count()).toBe(0);
  });

  it('is 401 without the secret, or with a wrong one, and stores nothing', async () => {
    expect((await post(app, gmail('anon'))).statusCode).toBe(401);
    const wrong = await post(app, gmail('anon'), { authorization: 'Bearer guess' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['www-authenticate']).toBe('Bearer');
    expect((await post(app, gmail('anon'), { authorization: SECRET })).statusCode).toBe(401);
    expect(await db.prisma.inboundMessage.count()).toBe(0);
  });

  it('stores and handles a message: 202, orders checked, answer queued; the same message again is 200 duplicate', async () => {
    const raw = gmail('hook');
    const res = await post(app, raw, bearer);
    expect(res.statusCode).toBe(202);
    const body = res.json();
    expect(body).toMatchObject({ duplicate: false, status: 'handled' });
    const row = await db.prisma.inboundMessage.findUniqueOrThrow({ where: { id: body.id } });
    expect(row.source).toBe('http');
    // Stored as received but for the password, masked before storing (password-at-rest.test.ts).
    expect(Buffer.from(row.raw).toString('latin1')).not.toContain('hearts-of-oak');
    expect(Buffer.from(row.raw).toString('latin1')).toContain('PASSWORD ****');
    expect(await db.prisma.orderSet.count({ where: { inboundId: body.id, ready: true } })).toBe(1);
    expect(await db.prisma.outgoingMail.count({ where: { to: 'h.nelson.rn@gmail.com', subject: { startsWith: 'Re:' } } })).toBe(1);

    const again = await post(app, raw, bearer);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ id: body.id, duplicate: true, status: 'handled' });
    expect(await db.prisma.outgoingMail.count({ where: { to: 'h.nelson.rn@gmail.com', subject: { startsWith: 'Re:' } } })).toBe(1);
  });

  it('takes text/plain too, and refuses JSON with 415', async () => {
    const res = await post(app, gmail('plain'), { ...bearer, 'content-type': 'text/plain; charset=utf-8' });
    expect(res.statusCode).toBe(202);
    const json = await app.inject({ method: 'POST', url: '/api/inbound/mail', payload: { raw: 'x' }, headers: bearer });
    expect(json.statusCode).toBe(415);
  });

  it('is 413 over the size cap and stores nothing', async () => {
    const before = await db.prisma.inboundMessage.count();
    const big = Buffer.concat([gmail('big'), Buffer.alloc(70 * 1024, 'x')]);
    const res = await post(app, big, bearer);
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe('mail/too_large');
    expect(res.json().message).toMatch(/larger than 65536 bytes/);
    expect(await db.prisma.inboundMessage.count()).toBe(before);
  });

  it('the default cap is 1 MiB (MAIL_MAX_BYTES)', async () => {
    const dflt = await buildApp({ db, config: {}, inbound: { secret: SECRET } });
    const before = await db.prisma.inboundMessage.count();
    const res = await post(dflt, Buffer.concat([gmail('huge'), Buffer.alloc(1024 * 1024, 'x')]), bearer);
    expect(res.statusCode).toBe(413);
    expect(await db.prisma.inboundMessage.count()).toBe(before);
    await dflt.close();
  });

  it('leaves the app\'s other routes and their JSON parsing alone', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { name: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('scenario');
  });
});
