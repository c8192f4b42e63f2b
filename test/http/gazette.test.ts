// The Gazette and rumours end to end through the API, the pages, the mail and the webhooks
// (docs/gazette.md): the GM writes the open turn's issue (a draft nobody else reads), puts
// the turn's public news in with one click, and it goes to press with the turn's reports —
// heading each report mail (real SMTP over loopback) and report page — or at once with the
// button, posted once to the campaign's webhook (a real receiver on loopback). A rumour
// reaches its one power, text only; the GM's note of truth stays in the audit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCampaignWebhook } from '../../src/campaign/campaignWebhooks.js';
import { resolveOpenTurn } from '../../src/campaign/resolveTurn.js';
import { buildApp, type App } from '../../src/http/app.js';
import { sendDueMail } from '../../src/mail/worker.js';
import { postDueWebhooks } from '../../src/webhooks/worker.js';
import { makeCampaign } from '../campaign/helpers.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { PageBrowser } from '../support/pageBrowser.js';
import { loopbackSmtp, recipients, type LoopbackSmtp } from '../support/smtp.js';
import { WebhookReceiver } from '../support/webhookReceiver.js';

let db: TestDatabase;
let app: App;
let smtp: LoopbackSmtp;
let rx: WebhookReceiver;
let c: Awaited<ReturnType<typeof makeCampaign>>;
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const ISSUE = '# News from Port Royal\n\nThe **Admiralty** is *pleased*. <script>alert(1)</script>\n\n- one\n- two';

beforeAll(async () => {
  db = await testDatabase();
  c = await makeCampaign(db, { seed: 'gazette' });
  app = await buildApp({ db, config: {} });
  smtp = await loopbackSmtp();
  rx = await new WebhookReceiver().start();
  process.env.WEBHOOK_ALLOW_PRIVATE = '1';
  await addCampaignWebhook(db, c.id, { kind: 'json', url: rx.url('/table'), events: ['gazette'] });
  delete process.env.WEBHOOK_ALLOW_PRIVATE;
});
afterAll(async () => {
  await rx?.stop();
  await smtp?.close();
  await app?.close();
  await db?.destroy();
});

async function signedIn(secret: string): Promise<PageBrowser> {
  const b = new PageBrowser(() => app);
  await b.post(`/c/${c.slug}/login`, { _csrf: await b.csrf(`/c/${c.slug}/login`), password: secret });
  return b;
}

describe('the Gazette', () => {
  it('the GM writes a draft that nobody else reads, puts the public news in with one click, and it goes to press with the reports', async () => {
    // Only the GM writes; a player is refused.
    expect((await app.inject({ method: 'PUT', url: `/api/campaigns/${c.id}/gazette/draft`, headers: auth(c.passwords.british!), payload: { text: 'forged' } })).statusCode).toBe(403);
    const put = await app.inject({ method: 'PUT', url: `/api/campaigns/${c.id}/gazette/draft`, headers: auth(c.gmToken), payload: { text: ISSUE } });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().issue).toMatchObject({ turn: 1, format: 'markdown', publishedAt: null });
    // Drawn safely: Markdown drawn, the GM's HTML shown as written.
    expect(put.json().issue.html).toContain('<strong>Admiralty</strong>');
    expect(put.json().issue.html).toContain('&lt;script&gt;');
    expect(put.json().issue.html).not.toContain('<script>');

    // A draft is read by nobody but the GM: not the public API, not the public page, not a player.
    expect((await app.inject({ url: `/api/campaigns/${c.id}/gazette` })).json()).toEqual({ issues: [] });
    expect((await app.inject({ url: `/c/${c.slug}/gazette` })).body).not.toContain('Admiralty');
    expect((await app.inject({ url: `/api/campaigns/${c.id}/gazette/draft`, headers: auth(c.passwords.french!) })).statusCode).toBe(403);
    expect((await (await signedIn(c.passwords.french!)).get(`/c/${c.slug}/gazette`)).body).not.toContain('Admiralty');

    // A relation change is public news (every player was mailed it): one click puts it in.
    const rel = await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/relations`, headers: auth(c.gmToken), payload: { a: 'british', b: 'american', relation: 'allied' } });
    expect(rel.statusCode, rel.body).toBe(200);
    const desk = (await app.inject({ url: `/api/campaigns/${c.id}/gazette/draft`, headers: auth(c.gmToken) })).json();
    expect(desk.news.map((n: { text: string }) => n.text)).toEqual(['Great Britain and the United States are allied from turn 2.']);
    const gm = await signedIn(c.gmToken);
    const page = await gm.get(`/c/${c.slug}/gm/gazette`);
    expect(page.body).toContain('Great Britain and the United States are allied from turn 2.');
    const added = await gm.post(`/c/${c.slug}/gm/gazette/news`, { _csrf: await gm.csrf(`/c/${c.slug}/gm/gazette`), key: desk.news[0].key });
    expect(added.statusCode).toBe(303);
    const after = (await app.inject({ url: `/api/campaigns/${c.id}/gazette/draft`, headers: auth(c.gmToken) })).json();
    expect(after.issue.text).toBe(`${ISSUE}\n\nGreat Britain and the United States are allied from turn 2.`);
    // A second click adds nothing twice.
    const again = await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/gazette/draft/news`, headers: auth(c.gmToken), payload: { keys: 'all' } });
    expect(again.statusCode, again.body).toBe(200);
    expect((await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/gazette/draft/news`, headers: auth(c.gmToken), payload: { keys: 'all' } })).json().added).toBe(0);
    expect((await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/gazette/draft/news`, headers: auth(c.gmToken), payload: { keys: ['fleet:secret'] } })).statusCode).toBe(400);

    await resolveOpenTurn(db, c.id, { expectedTurn: 1 });
    const pub = (await app.inject({ url: `/api/campaigns/${c.id}/gazette` })).json().issues;
    expect(pub).toHaveLength(1);
    expect(pub[0]).toMatchObject({ turn: 1 });
    expect(pub[0].publishedAt).not.toBeNull();
    // Published: never changed again.
    const late = await app.inject({ method: 'PUT', url: `/api/campaigns/${c.id}/gazette/draft`, headers: auth(c.gmToken), payload: { text: 'a new turn, a new issue' } });
    expect(late.json().turn).toBe(2);
    const audit = (await app.inject({ url: `/api/campaigns/${c.id}/audit?action=gazette.`, headers: auth(c.gmToken) })).json().entries as { text: string }[];
    expect(audit.map((e) => e.text)).toContain('GM published the Gazette for turn 1 with the turn\'s reports.');
  });

  it('heads every report mail (text and HTML, over SMTP) and report page, and the public page; posted once to the webhook', async () => {
    await sendDueMail(db, smtp.transport, { now: () => new Date(Date.now() + 60_000) });
    for (const p of ['british', 'french', 'american']) {
      const mail = smtp.received.find((m) => recipients(m).includes(`${p}@example.org`) && /Turn 1 report/.test(m.subject ?? ''));
      expect(mail, `${p}'s report`).toBeTruthy();
      const text = mail!.text ?? '';
      // At the head: before the summary of the turn.
      expect(text.indexOf('The Gazette — turn 1')).toBeGreaterThan(0);
      expect(text.indexOf('The Gazette — turn 1')).toBeLessThan(text.search(/No battle this turn|battles? this turn/));
      expect(text).toContain('The **Admiralty** is *pleased*.');
      const html = String(mail!.html);
      expect(html).toContain('<strong>Admiralty</strong>');
      expect(html).toContain('&lt;script&gt;');
      expect(html).not.toMatch(/<script>alert/);
      expect(html).toContain('Great Britain and the United States are allied from turn 2.');
    }
    const report = await (await signedIn(c.passwords.french!)).get(`/c/${c.slug}/reports/1`);
    expect(report.body).toMatch(/class="card gazette-head"[\s\S]*<strong>Admiralty<\/strong>/);
    expect(report.body.indexOf('gazette-head')).toBeLessThan(report.body.indexOf('What your fleets saw and did'));
    const gmTurn = await (await signedIn(c.gmToken)).get(`/c/${c.slug}/gm/turns/1`);
    expect(gmTurn.body).toContain('<strong>Admiralty</strong>');
    const open = await app.inject({ url: `/c/${c.slug}/gazette` });
    expect(open.statusCode).toBe(200);
    expect(open.body).toMatch(/id="turn-1"[\s\S]*<h1>News from Port Royal<\/h1>/);

    await postDueWebhooks(db, { post: { allowPrivate: true }, publicUrl: 'https://sasg.example.org' });
    const posts = rx.posts.filter((p) => p.headers['x-sasg-event'] === 'gazette');
    expect(posts).toHaveLength(1);
    expect(JSON.parse(posts[0]!.body)).toMatchObject({ event: 'gazette', turn: 1, url: `https://sasg.example.org/c/${c.slug}/gazette#turn-1` });
    expect(JSON.parse(posts[0]!.body).text).toContain('The **Admiralty** is *pleased*.');
  });

  it('the button publishes at once (once); the issue still heads the turn\'s reports; a re-run posts it no second time', async () => {
    const pub = await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/gazette/publish`, headers: auth(c.gmToken) });
    expect(pub.statusCode, pub.body).toBe(200);
    expect(pub.json()).toMatchObject({ turn: 2, text: 'a new turn, a new issue' });
    expect((await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/gazette/publish`, headers: auth(c.gmToken) })).json().error).toBe('gazette/published');
    expect((await app.inject({ method: 'PUT', url: `/api/campaigns/${c.id}/gazette/draft`, headers: auth(c.gmToken), payload: { text: 'changed' } })).statusCode).toBe(409);
    expect((await app.inject({ url: `/api/campaigns/${c.id}/gazette` })).json().issues.map((i: { turn: number }) => i.turn)).toEqual([2, 1]);
    await resolveOpenTurn(db, c.id, { expectedTurn: 2 });
    expect((await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/turns/last/rollback`, headers: auth(c.gmToken), payload: { turn: 2 } })).statusCode).toBe(200);
    await resolveOpenTurn(db, c.id, { expectedTurn: 2 });
    await sendDueMail(db, smtp.transport, { now: () => new Date(Date.now() + 60_000) });
    const reports = smtp.received.filter((m) => recipients(m).includes('british@example.org') && /Turn 2 report/.test(m.subject ?? ''));
    expect(reports.length).toBe(2);
    for (const m of reports) expect(m.text).toContain('The Gazette — turn 2\n\na new turn, a new issue');
    await postDueWebhooks(db, { post: { allowPrivate: true }, publicUrl: null });
    expect(rx.posts.filter((p) => JSON.parse(p.body).event === 'gazette').map((p) => JSON.parse(p.body).turn)).toEqual([1, 2]);
    // An empty text throws a draft away; nothing to publish then.
    await app.inject({ method: 'PUT', url: `/api/campaigns/${c.id}/gazette/draft`, headers: auth(c.gmToken), payload: { text: 'soon gone', format: 'plain' } });
    expect((await app.inject({ method: 'PUT', url: `/api/campaigns/${c.id}/gazette/draft`, headers: auth(c.gmToken), payload: { text: '  ' } })).json()).toEqual({ turn: 3, issue: null });
    expect((await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/gazette/publish`, headers: auth(c.gmToken) })).json().error).toBe('gazette/nothing_to_publish');
  });

  it('one-click news offers a port that changed hands (public) and a victory, never a fact one power alone saw', async () => {
    const turn = await db.prisma.turn.findUniqueOrThrow({ where: { campaignId_number: { campaignId: c.id, number: 2 } } });
    const seq = (await db.prisma.event.aggregate({ where: { turnId: turn.id, run: turn.reruns }, _max: { seq: true } }))._max.seq ?? 0;
    const powers = (await db.prisma.power.findMany({ where: { campaignId: c.id }, select: { key: true } })).map((p) => p.key);
    await db.prisma.event.createMany({ data: [
      { campaignId: c.id, turnId: turn.id, run: turn.reruns, seq: seq + 1, type: 'portCaptured', phase: 6, visibleTo: powers,
        data: { type: 'portCaptured', phase: 6, visibleTo: powers, power: 'french', from: 'british', nodeId: 'kingston', text: 'Kingston taken' } },
      { campaignId: c.id, turnId: turn.id, run: turn.reruns, seq: seq + 2, type: 'portCaptured', phase: 6, visibleTo: ['french'],
        data: { type: 'portCaptured', phase: 6, visibleTo: ['french'], power: 'french', from: 'british', nodeId: 'port-royal', text: 'a secret' } },
    ] });
    await db.prisma.campaign.update({ where: { id: c.id }, data: { winner: 'american' } });
    const news = (await app.inject({ url: `/api/campaigns/${c.id}/gazette/draft`, headers: auth(c.gmToken) })).json().news.map((n: { text: string }) => n.text);
    expect(news).toEqual(['Kingston (Jamaica) has fallen to France, taken from Great Britain (turn 2).', 'The United States has won the campaign.']);
    await db.prisma.campaign.update({ where: { id: c.id }, data: { winner: null } });
  });
});

describe('rumours', () => {
  it('reach their one power, text only, by mail at once and on its page; the note of truth is the GM\'s', async () => {
    const body = { power: 'french', text: 'They say the British mean to strike at Martinique.', truth: 'false', basis: 'NOTE-FOR-GM a tavern keeper in Fort-de-France' };
    expect((await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/rumours`, headers: auth(c.passwords.british!), payload: body })).statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/rumours`, headers: auth(c.gmToken), payload: { ...body, power: 'prussia' } })).json().error).toBe('rumour/unknown_power');
    expect((await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/rumours`, headers: auth(c.gmToken), payload: { ...body, text: ' ' } })).json().error).toBe('rumour/empty');
    const sent = await app.inject({ method: 'POST', url: `/api/campaigns/${c.id}/rumours`, headers: auth(c.gmToken), payload: body });
    expect(sent.statusCode, sent.body).toBe(201);

    const french = (await app.inject({ url: `/api/campaigns/${c.id}/rumours`, headers: auth(c.passwords.french!) })).json().rumours;
    expect(french).toHaveLength(1);
    expect(Object.keys(french[0]).sort()).toEqual(['id', 'power', 'sentAt', 'text', 'turn']);
    expect((await app.inject({ url: `/api/campaigns/${c.id}/rumours`, headers: auth(c.passwords.british!) })).json().rumours).toEqual([]);
    const gm = (await app.inject({ url: `/api/campaigns/${c.id}/rumours`, headers: auth(c.gmToken) })).json().rumours;
    expect(gm[0]).toMatchObject({ power: 'french', truth: 'false', basis: body.basis });
    const audit = (await app.inject({ url: `/api/campaigns/${c.id}/audit?action=rumour.`, headers: auth(c.gmToken) })).json().entries;
    expect(audit[0].text).toContain('noted as false; based on “NOTE-FOR-GM');

    await sendDueMail(db, smtp.transport, { now: () => new Date(Date.now() + 60_000) });
    const mail = smtp.received.filter((m) => /A rumour reaches/.test(m.subject ?? ''));
    expect(mail).toHaveLength(1);
    expect(recipients(mail[0]!)).toEqual(['french@example.org']);
    expect(mail[0]!.text).toContain(body.text);
    expect(`${mail[0]!.subject}${mail[0]!.text}${mail[0]!.html || ''}`).not.toMatch(/NOTE-FOR-GM|false/);

    const page = (await (await signedIn(c.passwords.french!)).get(`/c/${c.slug}/gazette`)).body;
    expect(page).toContain('Rumours heard by France');
    expect(page).toContain(body.text);
    expect(page).not.toContain('NOTE-FOR-GM');
    expect((await (await signedIn(c.passwords.british!)).get(`/c/${c.slug}/gazette`)).body).not.toContain(body.text);
    expect((await app.inject({ url: `/c/${c.slug}/gazette` })).body).not.toContain(body.text);
    expect((await (await signedIn(c.gmToken)).get(`/c/${c.slug}/gm/gazette`)).body).toContain('NOTE-FOR-GM');
  });
});
