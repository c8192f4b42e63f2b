// The fog of war for despatches, every reader against every other: a despatch is read only
// by its sender, its recipients and the GM, in every output a player can reach (the API, the
// pages, the mails they are sent, the turn report) and in none of the GM's that a player
// might try (the GM's list, the archive, the mail log). A grey despatch never names its
// sender to a recipient. The Gazette and rumours alike (docs/gazette.md): a published issue
// is read by everyone, a draft by the GM alone; a rumour by its power and the GM; the GM's
// note of truth on it by the GM alone.
// Under the GM's approval, a held despatch is read only by its sender (as on its way) and the
// GM; one the GM marked taken by a power is read by the taker (as intercepted), its sender (as
// on its way, never told by whom) and the GM, not its recipient.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveOpenTurn } from '../../src/campaign/resolveTurn.js';
import type { App } from '../../src/http/app.js';
import { buildApp } from '../../src/http/app.js';
import { sendDueMail } from '../../src/mail/worker.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { PageBrowser } from '../support/pageBrowser.js';
import { loopbackSmtp, recipients, type LoopbackSmtp } from '../support/smtp.js';

const POWERS = ['british', 'french', 'american'] as const;
type Reader = (typeof POWERS)[number] | 'gm';

// Each despatch's text, and who may read it (besides the GM, who reads all).
const D = {
  one: { text: 'FOG-ONE british to french', from: 'british', to: ['french'] },
  two: { text: 'FOG-TWO a grey letter to american', from: 'french', to: ['american'], grey: true },
  three: { text: 'FOG-THREE the GM to british', from: 'gm', to: ['british'] },
  four: { text: 'FOG-FOUR american to all', from: 'american', to: 'all' as const },
  five: { text: 'FOG-FIVE british to american, with the report', from: 'british', to: ['american'] },
  six: { text: 'FOG-SIX british to french, held by the GM', from: 'british', to: ['french'] },
  seven: { text: 'FOG-SEVEN french to british, lost at sea', from: 'french', to: ['british'] },
};
// The Gazette and a rumour: what each is, and who reads it ('public': anyone, signed in or not).
const G = {
  published: 'FOG-GAZETTE-ONE published with the report',
  draft: 'FOG-DRAFT of turn two, not published',
  rumour: 'FOG-RUMOUR whispered to France alone',
  basis: 'FOG-BASIS the GM\'s own source',
};
const G_READS: Record<Reader | 'public', (keyof typeof G)[]> = {
  british: ['published'], american: ['published'], public: ['published'],
  french: ['published', 'rumour'],
  gm: ['published', 'draft', 'rumour', 'basis'],
};
const READS: Record<Reader, (keyof typeof D)[]> = {
  british: ['one', 'three', 'four', 'five', 'six'],
  french: ['one', 'two', 'four', 'seven'],
  american: ['two', 'four', 'five', 'seven'],
  gm: ['one', 'two', 'three', 'four', 'five', 'six', 'seven'],
};
/** Who gets it by mail and in the turn report: its recipients, but for the held one (nobody) and the one taken (the taker). */
const deliveredTo = (k: keyof typeof D): string[] => {
  const d = D[k];
  if (k === 'six') return [];
  if (k === 'seven') return ['american'];
  return d.to === 'all' ? POWERS.filter((x) => x !== d.from) : [...d.to];
};

let db: TestDatabase;
let app: App;
let smtp: LoopbackSmtp;
let id: string;
let slug: string;
let gm: string;
const pw: Record<string, string> = {};
const received: Record<string, string> = {};

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const email = (p: string) => `${p}@fog.example.org`;
const secret = (r: Reader) => (r === 'gm' ? gm : pw[r]!);

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  smtp = await loopbackSmtp();
  const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', name: 'Fog of Despatches' } });
  ({ id, slug, gmToken: gm } = res.json());
  for (const p of POWERS) {
    pw[p] = (await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/players/${p}`, headers: auth(gm), payload: { name: p, email: email(p) } })).json().password;
  }
  await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/despatch-settings`, headers: auth(gm), payload: { greyDespatches: true } });
  for (const k of ['one', 'two', 'three', 'four'] as const) {
    const d = D[k];
    const r = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/despatches`, headers: auth(d.from === 'gm' ? gm : pw[d.from]!), payload: { to: d.to, text: d.text, ...('grey' in d ? { grey: true } : {}) } });
    expect(r.statusCode, r.body).toBe(201);
  }
  await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/despatch-settings`, headers: auth(gm), payload: { despatchDelivery: 'with-report' } });
  const five = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/despatches`, headers: auth(pw.british!), payload: { to: D.five.to, text: D.five.text } });
  expect(five.statusCode).toBe(201);
  await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/gazette/draft`, headers: auth(gm), payload: { text: G.published } });
  const rumour = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/rumours`, headers: auth(gm), payload: { power: 'french', text: G.rumour, truth: 'true', basis: G.basis } });
  expect(rumour.statusCode, rumour.body).toBe(201);
  // The GM's approval: six held, seven marked taken by the Americans (it goes with the report, to them alone).
  await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/despatch-settings`, headers: auth(gm), payload: { despatchGmApproval: true } });
  for (const k of ['six', 'seven'] as const) {
    const d = D[k];
    const r = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/despatches`, headers: auth(pw[d.from]!), payload: { to: d.to, text: d.text } });
    expect(r.statusCode).toBe(201);
    const decision = k === 'six' ? { action: 'hold' } : { action: 'intercept', by: 'american' };
    expect((await app.inject({ method: 'POST', url: `/api/campaigns/${id}/despatches/${r.json().id}/approval`, headers: auth(gm), payload: decision })).statusCode).toBe(200);
  }
  await resolveOpenTurn(db, id, { expectedTurn: 1 });
  await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/gazette/draft`, headers: auth(gm), payload: { text: G.draft } });
  // Every mail the players were sent (welcomes, despatches, the turn report), over real SMTP.
  await sendDueMail(db, smtp.transport, { now: () => new Date(Date.now() + 60_000) });
  for (const p of POWERS) {
    received[p] = smtp.received.filter((m) => recipients(m).includes(email(p))).map((m) => `${m.subject}\n${m.text}\n${m.html || ''}`).join('\n');
  }
});
afterAll(async () => {
  await smtp?.close();
  await app?.close();
  await db?.destroy();
});

/** Everything a reader can fetch: every API read open to them, and their pages. */
async function everythingFor(r: Reader): Promise<string> {
  const api = ['', '/view', '/status', '/turns/current', '/turns/1/events', '/turns/1/history', '/despatches', '/battles', '/relations', '/audit', '/mail', '/archive?format=json',
    '/gazette', '/gazette/draft', '/rumours'];
  if (r !== 'gm') api.push(`/orders/${r}`);
  const bodies: string[] = [];
  for (const a of api) bodies.push((await app.inject({ url: `/api/campaigns/${id}${a}`, headers: auth(secret(r)) })).body);
  const browser = new PageBrowser(() => app);
  const token = await browser.csrf(`/c/${slug}/login`);
  await browser.post(`/c/${slug}/login`, { _csrf: token, password: secret(r) });
  const pages = r === 'gm'
    ? ['/gm', '/gm/despatches', '/gm/turns', '/gm/turns/1', '/gm/mail', '/gm/gazette', '/gazette']
    : ['/map', '/orders', '/reports', '/reports/1', '/reports/2', '/despatches', '/gm/despatches', '/gm/mail', '/gazette', '/gm/gazette'];
  for (const p of pages) bodies.push((await browser.get(`/c/${slug}${p}`)).body);
  return bodies.join('\n');
}

describe('who reads which despatch', () => {
  it.each(POWERS)('%s: the API lists exactly the despatches it sent or received', async (p) => {
    const res = await app.inject({ url: `/api/campaigns/${id}/despatches`, headers: auth(pw[p]!) });
    expect(res.json().despatches.map((d: { text: string }) => d.text).sort()).toEqual(READS[p].map((k) => D[k].text).sort());
  });

  it('the GM lists every despatch, with every sender', async () => {
    const res = await app.inject({ url: `/api/campaigns/${id}/despatches`, headers: auth(gm) });
    const list = res.json().despatches as { text: string; sender: string | null }[];
    expect(list.map((d) => d.text).sort()).toEqual(Object.values(D).map((d) => d.text).sort());
    expect(list.find((d) => d.text === D.two.text)?.sender).toBe('french');
  });

  it.each(['british', 'french', 'american', 'gm'] as Reader[])('%s: no output it can reach holds a despatch it may not read; every one it may read is on its page', async (r) => {
    const all = await everythingFor(r);
    for (const [k, d] of Object.entries(D) as [keyof typeof D, (typeof D)[keyof typeof D]][]) {
      if (READS[r].includes(k)) expect(all, `${r} reads ${k}`).toContain(d.text);
      else expect(all, `${r} must not read ${k}`).not.toContain(d.text);
    }
  });

  it.each(POWERS)('%s: the mails it was sent hold only despatches to it (instant at once, with-report in the report)', async (p) => {
    const mails = received[p]!;
    for (const [k, d] of Object.entries(D) as [keyof typeof D, (typeof D)[keyof typeof D]][]) {
      if (deliveredTo(k).includes(p)) expect(mails, `${p} is mailed ${k}`).toContain(d.text);
      else expect(mails, `${p} must not be mailed ${k}`).not.toContain(d.text);
    }
    if (p === 'american') expect(mails).toMatch(/DESPATCHES RECEIVED THIS MONTH[\s\S]*FOG-FIVE/);
    if (p === 'british') expect(mails).toMatch(/DESPATCHES RECEIVED THIS MONTH\s+From the Game Master, to Great Britain:\nFOG-THREE/);
  });

  it('the grey despatch names its sender to nobody but the sender and the GM', async () => {
    const res = await app.inject({ url: `/api/campaigns/${id}/despatches`, headers: auth(pw.american!) });
    const grey = (res.json().despatches as { text: string }[]).find((d) => d.text === D.two.text)!;
    expect(JSON.stringify(grey)).not.toMatch(/french|France/i);
    const mail = smtp.received.find((m) => recipients(m).includes(email('american')) && /a despatch from/.test(m.subject ?? '') && (m.text ?? '').includes(D.two.text))!;
    expect(`${mail.subject} ${mail.text} ${mail.html || ''}`).not.toMatch(/french|France/i);
    // The turn report repeats it under "Despatches received this month", from an unknown hand.
    const report = smtp.received.find((m) => recipients(m).includes(email('american')) && /DESPATCHES RECEIVED THIS MONTH/.test(m.text ?? ''))!;
    expect(report.text).toContain(`From an unknown hand, to the United States:\n${D.two.text}`);
    const browser = new PageBrowser(() => app);
    await browser.post(`/c/${slug}/login`, { _csrf: await browser.csrf(`/c/${slug}/login`), password: pw.american! });
    const page = (await browser.get(`/c/${slug}/despatches`)).body;
    const article = page.slice(page.lastIndexOf('<article', page.indexOf(D.two.text)), page.indexOf('</article>', page.indexOf(D.two.text)));
    expect(article).toContain('an unknown hand');
    expect(article).not.toMatch(/France/);
  });

  it.each(POWERS)('%s: the web report of turn 1 lists the despatches it received that month, and no other', async (p) => {
    const browser = new PageBrowser(() => app);
    await browser.post(`/c/${slug}/login`, { _csrf: await browser.csrf(`/c/${slug}/login`), password: pw[p]! });
    const page = (await browser.get(`/c/${slug}/reports/1`)).body;
    const mine = (Object.keys(D) as (keyof typeof D)[]).filter((k) => deliveredTo(k).includes(p));
    expect(page).toContain('Despatches received this month');
    for (const k of Object.keys(D) as (keyof typeof D)[]) {
      if (mine.includes(k)) expect(page).toContain(D[k].text);
      else expect(page).not.toContain(D[k].text);
    }
  });

  it('the despatch taken by the Americans: they read it as intercepted; its sender reads it on its way and never learns the taker', async () => {
    const byText = async (p: string) => ((await app.inject({ url: `/api/campaigns/${id}/despatches`, headers: auth(pw[p]!) })).json().despatches as { text: string }[])
      .find((d) => d.text === D.seven.text)!;
    expect(await byText('american')).toMatchObject({ direction: 'intercepted', interceptedBy: 'american', approval: null });
    const sent = await byText('french');
    expect(sent).toMatchObject({ direction: 'sent', deliveredAt: null, interceptedBy: null, interceptedNode: null, approval: null });
    expect(JSON.stringify(Object.values(sent))).not.toMatch(/american|intercepted/i);
    expect(received.french).not.toMatch(/intercepted/i);
    expect(received.american).toContain(`Intercepted at sea: from France, to Great Britain:\n${D.seven.text}`);
    const browser = new PageBrowser(() => app);
    await browser.post(`/c/${slug}/login`, { _csrf: await browser.csrf(`/c/${slug}/login`), password: pw.french! });
    const page = (await browser.get(`/c/${slug}/despatches`)).body;
    const article = page.slice(page.lastIndexOf('<article', page.indexOf(D.seven.text)), page.indexOf('</article>', page.indexOf(D.seven.text)));
    expect(article).toContain('on its way');
    expect(article).not.toMatch(/intercept|United States/i);
    // The held one: its sender reads it on its way, like any other.
    const held = (await app.inject({ url: `/api/campaigns/${id}/despatches`, headers: auth(pw.british!) })).json().despatches.find((d: { text: string }) => d.text === D.six.text);
    expect(held).toMatchObject({ deliveredAt: null, approval: null });
  });

  it('a player may not read the GM\'s despatch list, the archive or the mail log', async () => {
    for (const p of POWERS) {
      expect((await app.inject({ url: `/api/campaigns/${id}/archive`, headers: auth(pw[p]!) })).statusCode).toBe(403);
      expect((await app.inject({ url: `/api/campaigns/${id}/mail`, headers: auth(pw[p]!) })).statusCode).toBe(403);
      expect((await app.inject({ url: `/api/campaigns/${id}/despatch-settings`, headers: auth(pw[p]!) })).statusCode).toBe(403);
    }
  });

  it('the archive (GM) carries every despatch, so a restored campaign keeps them', async () => {
    const res = await app.inject({ url: `/api/campaigns/${id}/archive?format=json`, headers: auth(gm) });
    const text = res.body;
    for (const d of Object.values(D)) expect(text).toContain(d.text);
  });

  it.each(['british', 'french', 'american', 'gm'] as Reader[])('%s: of the Gazette and the rumour, reads exactly what it may (a draft the GM alone; a rumour its power and the GM; the note of truth the GM alone)', async (r) => {
    const all = await everythingFor(r);
    for (const k of Object.keys(G) as (keyof typeof G)[]) {
      if (G_READS[r].includes(k)) expect(all, `${r} reads ${k}`).toContain(G[k]);
      else expect(all, `${r} must not read ${k}`).not.toContain(G[k]);
    }
  });

  it('the public (no sign-in) reads the published Gazette and nothing else of it', async () => {
    const bodies = [(await app.inject({ url: `/api/campaigns/${id}/gazette` })).body, (await app.inject({ url: `/c/${slug}/gazette` })).body,
      (await app.inject({ url: `/api/campaigns/${id}/gazette/draft` })).body, (await app.inject({ url: `/api/campaigns/${id}/rumours` })).body].join('\n');
    for (const k of Object.keys(G) as (keyof typeof G)[]) {
      if (G_READS.public.includes(k)) expect(bodies).toContain(G[k]);
      else expect(bodies, `the public must not read ${k}`).not.toContain(G[k]);
    }
  });

  it.each(POWERS)('%s: its mails hold the Gazette at the head of its report, a rumour only if it was sent to it, never a draft or a note of truth', (p) => {
    const mails = received[p]!;
    expect(mails).toMatch(/The Gazette — turn 1\s+FOG-GAZETTE-ONE/);
    if (p === 'french') expect(mails).toContain(G.rumour); else expect(mails).not.toContain(G.rumour);
    expect(mails).not.toContain(G.draft);
    expect(mails).not.toContain(G.basis);
  });
});
