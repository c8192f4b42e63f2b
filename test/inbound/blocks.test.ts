// Blocks beside the orders in a mail (SPEC §3, "Blocks beside the orders"): a despatch, an
// absence, standing orders or battle dates are never read as this turn's orders, their own
// END never ends the orders, and a mail that carries only blocks leaves the stored orders as
// they are. A despatch is sent (test/inbound/despatches.test.ts has the whole exchange); until
// the service carries another block out, its sender is told so, line by line. The API and the
// web orders form carry out despatches, absences and standing orders in the text the same way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { setPlayer } from '../../src/campaign/players.js';
import { currentOrders } from '../../src/campaign/submitOrders.js';
import type { PowerOrders } from '../../src/rules/orders.js';
import { receiveInbound } from '../../src/inbound/handle.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

const NELSON = { name: 'Horatio Nelson', email: 'h.nelson.rn@gmail.com', password: 'hearts-of-oak' };
let db: TestDatabase;
let campaignId: string;
let slug: string;

beforeAll(async () => {
  db = await testDatabase();
  const c = await createCampaign(db, { scenario: 'caribbean', slug: 'windward-1805', name: 'Windward 1805', seed: 'blocks' });
  campaignId = c.id;
  slug = c.slug;
  await setPlayer(db, c.id, 'british', NELSON);
  await setPlayer(db, c.id, 'french', { name: 'Pierre Villeneuve', email: 'villeneuve@example.org' });
  await setPlayer(db, c.id, 'american', { name: 'Edward Preble', email: 'preble@example.org' });
});
afterAll(async () => { await db?.destroy(); });

function mail(tag: string, body: string[]): Buffer {
  return Buffer.from([
    `From: Horatio Nelson <${NELSON.email}>`, 'To: orders@steady.example', 'Subject: orders', `Message-ID: <${tag}@example.org>`,
    'Content-Type: text/plain; charset=utf-8', '', `CAMPAIGN ${slug}`, 'POWER british', `PASSWORD ${NELSON.password}`, ...body, '',
  ].join('\r\n'), 'utf8');
}

async function send(tag: string, body: string[]) {
  const { stored, outcome } = await receiveInbound(db, mail(tag, body), 'smtp', { ratePerHour: 1000 });
  expect(outcome?.status).toBe('handled');
  const row = await db.prisma.inboundMessage.findUniqueOrThrow({ where: { id: stored.id } });
  const replies = await db.prisma.outgoingMail.findMany({ where: { headers: { path: ['In-Reply-To'], equals: row.messageId } }, orderBy: { createdAt: 'asc' } });
  return { id: stored.id, replies };
}

const DESPATCH = [
  'DESPATCH TO french, american',
  'Sir, His Majesty\'s squadron will not molest your convoy off Norfolk this month.',
  'FLEET Jamaica Squadron: MOVE Havana',
  'END DESPATCH',
];

describe('a mail with a despatch', () => {
  it('with orders: the orders are read around the despatch, END DESPATCH does not end them, and no despatch line is an order', async () => {
    const { id, replies } = await send('with-orders', ['FLEET Jamaica Squadron: HOLD', ...DESPATCH, 'FLEET Leeward Islands Squadron: HOLD', 'FLEET Jamaica Squadron: MISSION']);
    const orders = await currentOrders(db, campaignId, 'british');
    expect(orders?.status).toBe('ready');
    const set = await db.prisma.orderSet.findFirstOrThrow({ where: { inboundId: id } });
    const fleets = (set.parsed as unknown as PowerOrders).fleets;
    expect(fleets).toHaveLength(2);
    expect(fleets.every((f) => f.hold === true && !f.move), 'both fleets hold; the MOVE inside the despatch is its text').toBe(true);
    // One answer: the checker's, which confirms the despatch too.
    expect(replies).toHaveLength(1);
    const check = replies[0]!;
    expect(check.text).toMatch(/Jamaica Squadron/);
    expect(check.text).toMatch(/Leeward Islands Squadron/);
    expect(check.text).toMatch(/7 +FLEET Jamaica Squadron: MOVE Havana +\[not orders \(a block beside them\)\]/);
    expect(check.text).not.toMatch(/not an order, ignored: Sir/);
    expect(check.text).toMatch(/line 5: Despatch to France and the United States: delivered at once/);
    expect(await db.prisma.despatch.count({ where: { inboundId: id } })).toBe(1);
  });

  it('alone: the stored orders stay as they were, and the reply says so', async () => {
    const before = await currentOrders(db, campaignId, 'british');
    const sets = await db.prisma.orderSet.count({ where: { campaignId } });
    const { replies } = await send('only-despatch', DESPATCH);
    expect(await db.prisma.orderSet.count({ where: { campaignId } })).toBe(sets);
    expect(await currentOrders(db, campaignId, 'british')).toEqual(before);
    expect(replies).toHaveLength(1);
    expect(replies[0]!.text).toMatch(/line 4: Despatch to France and the United States: delivered at once/);
    expect(replies[0]!.text).toMatch(/your orders for this turn are as they were/);
  });

  it('never closed: everything below it is the despatch, the orders stay as they were, and the reply names the missing END DESPATCH', async () => {
    const before = await currentOrders(db, campaignId, 'british');
    const { replies } = await send('unclosed', ['DESPATCH TO ALL', 'Gentlemen,', 'FLEET Jamaica Squadron: MOVE Havana']);
    expect(await currentOrders(db, campaignId, 'british')).toEqual(before);
    expect(replies).toHaveLength(1);
    expect(replies[0]!.text).toMatch(/line 4: despatch not sent: it was never closed with END DESPATCH/);
    expect(await db.prisma.despatch.count({ where: { campaignId, text: { contains: 'Gentlemen' } } })).toBe(0);
  });
});

describe('the other blocks', () => {
  it('an absence, battle dates and standing orders alone leave the orders as they were; each is named', async () => {
    const before = await currentOrders(db, campaignId, 'british');
    const { replies } = await send('others', [
      'ABSENT 2027-02-01 TO 2027-02-20',
      'BATTLE b3 DATES 2027-01-09 14:00, 2027-01-10 10:00',
      'STANDING ORDERS', 'FLEET Jamaica Squadron: HOLD', 'END STANDING ORDERS',
    ]);
    expect(await currentOrders(db, campaignId, 'british')).toEqual(before);
    // Each is carried out and answered: table dates (here refused: this campaign has no battle
    // b3), the absence and the standing orders (docs/absences.md; test/inbound/absence.test.ts).
    expect(replies).toHaveLength(2);
    const dates = replies.find((r) => /Your table dates/.test(r.text));
    expect(dates?.text).toMatch(/line 5: no dates were proposed for battle b3: /);
    const absence = replies.find((r) => /Your absence and standing orders/.test(r.text));
    expect(absence?.text).toMatch(/line 4: absence filed, from 2027-02-01 to 2027-02-20/);
    expect(absence?.text).toMatch(/line 6: standing orders set/);
    expect(replies.some((r) => /not carry out yet/.test(r.text))).toBe(false);
  });

  it('a header alone is still an empty set of orders', async () => {
    await send('header-only', []);
    const orders = await currentOrders(db, campaignId, 'british');
    expect(orders?.text).not.toMatch(/FLEET/);
  });
});

describe('the API and the web form take the same blocks', () => {
  it('a text of a despatch only is refused with 422 naming its line, and the stored orders stay as they were', async () => {
    const { buildApp } = await import('../../src/http/app.js');
    const app = await buildApp({ db, config: {} });
    try {
      const before = await currentOrders(db, campaignId, 'british');
      const res = await app.inject({
        method: 'POST', url: `/api/campaigns/${campaignId}/orders/british`,
        headers: { authorization: `Bearer ${NELSON.password}` }, payload: { text: DESPATCH.join('\n') },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toBe('orders/blocks_only');
      expect(res.json().message).toMatch(/line 1: DESPATCH TO french, american/);
      expect(await currentOrders(db, campaignId, 'british')).toEqual(before);
    } finally {
      await app.close();
    }
  });

  it('ABSENT and STANDING ORDERS beside the orders are carried out as by mail, each confirmed or refused by its line; sent again, filed once', async () => {
    const { buildApp } = await import('../../src/http/app.js');
    const app = await buildApp({ db, config: {} });
    try {
      const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
      const text = ['FLEET Jamaica Squadron: HOLD', 'FLEET Jamaica Squadron: MISSION', `ABSENT ${day(100)} TO ${day(110)}: at Bath`,
        'STANDING ORDERS', 'FLEET Jamaica Squadron: STAY IN PORT', 'FLEET Leeward Islands Squadron: KEEP MISSION', 'END STANDING ORDERS', `ABSENT ${day(105)}`].join('\n');
      const post = (t: string) => app.inject({ method: 'POST', url: `/api/campaigns/${campaignId}/orders/british`, headers: { authorization: `Bearer ${NELSON.password}` }, payload: { text: t } });
      const res = await post(text);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().status).toBe('ready');
      expect(res.json().absences).toEqual([
        `line 3: absence filed, from ${day(100)} to ${day(110)} (days in your time zone), with your note to the GM: "at Bath"`,
        'line 4: standing orders set; while you are absent and send no orders:\n  Jamaica Squadron stays in port (a fleet at sea returns to the nearest friendly port)\n  Leeward Islands Squadron keeps its mission',
        expect.stringMatching(new RegExp(`^line 8: no absence was filed: this absence overlaps the one from ${day(100)} to ${day(110)}`)),
      ]);
      const absences = await db.prisma.absence.findMany({ where: { campaignId, cancelledAt: null, power: { key: 'british' }, filedBy: 'player:british' } });
      expect(absences.map((a) => [a.fromDay, a.toDay, a.note, a.filedBy])).toEqual([[day(100), day(110), 'at Bath', 'player:british']]);
      expect((await db.prisma.standingOrders.findFirstOrThrow({ where: { campaignId, power: { key: 'british' } } })).text).toMatch(/STAY IN PORT/);
      // The form shows the text sent, blocks and all: sent again, the absence is the one filed, not a second.
      expect((await post(text)).json().absences[0]).toBe(`line 3: your absence from ${day(100)} to ${day(110)} was filed already; nothing changed`);
      expect(await db.prisma.absence.count({ where: { campaignId, cancelledAt: null, power: { key: 'british' }, filedBy: 'player:british' } })).toBe(1);

      // A text of absences only stores no orders: carried out, and the orders stay as they were.
      const before = await currentOrders(db, campaignId, 'british');
      const only = await post(`ABSENT ${day(120)} TO ${day(121)}`);
      expect(only.statusCode, only.body).toBe(200);
      expect(only.json()).toMatchObject({ status: 'blocks_only', orderSetId: null, absences: [`line 1: absence filed, from ${day(120)} to ${day(121)} (days in your time zone)`] });
      expect(await currentOrders(db, campaignId, 'british')).toEqual(before);

      // The web form: the page answers each block by its line.
      const { PageBrowser, csrfOf } = await import('../support/pageBrowser.js');
      const web = new PageBrowser(() => app);
      await web.post(`/c/${slug}/login`, { _csrf: await web.csrf(`/c/${slug}/login`), password: NELSON.password });
      const page = await web.get(`/c/${slug}/orders`);
      const sent = await web.post(`/c/${slug}/orders`, { _csrf: csrfOf(page.body), action: 'send', text: `ABSENT CANCEL\nSTANDING ORDERS\nFLEET Nowhere Squadron: HOLD\nEND STANDING ORDERS` });
      expect(sent.statusCode).toBe(200);
      expect(sent.body).toContain('this text carried no orders: your orders for this turn are as they were');
      expect(sent.body).toMatch(new RegExp(`line 1: cancelled your absences .*from ${day(100)} to ${day(110)}.*from ${day(120)} to ${day(121)}`));
      expect(sent.body).toMatch(/line 2: your standing orders were not changed: nothing was stored/);
      expect(await currentOrders(db, campaignId, 'british')).toEqual(before);
    } finally {
      await app.close();
    }
  });
});
