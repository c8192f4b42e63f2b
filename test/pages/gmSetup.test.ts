// On the pages, through app.inject with real CSRF tokens and cookies: start a campaign
// (built-in or uploaded scenario; a bad file lists every problem and creates nothing; a
// short name taken is a clear 409; the CREATE_TOKEN asked for when the service has one;
// the per-address limit), then on "Players & settings": invite and replace players
// (welcome mail queued with the password), rotate the GM token, change a rule setting
// from the next turn, set a deadline schedule. Real database throughout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { builtInScenario } from '../../src/scenario/builtin.js';
import { csrfOf, PageBrowser } from '../support/pageBrowser.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let app: App;
let closed: App;

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  closed = await buildApp({ db, config: { CREATE_TOKEN: 'let-me-create-campaigns', CREATE_RATE_LIMIT: '3/1h' } });
});
afterAll(async () => { await app?.close(); await closed?.close(); await db?.destroy(); });

/** POST a multipart form (the new-campaign form uploads a file). */
async function postMultipart(b: PageBrowser, target: App, url: string, fields: Record<string, string>, file?: { name: string; filename: string; content: string }) {
  const boundary = '----sasgtest7d93';
  const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  if (file) parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: application/json\r\n\r\n${file.content}\r\n`);
  const res = await target.inject({
    method: 'POST', url, remoteAddress: b.ip, payload: `${parts.join('')}--${boundary}--\r\n`,
    headers: { cookie: b.header(), 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  b.store(res);
  return res;
}

const campaigns = () => db.prisma.campaign.count();

describe('starting a campaign on the web', () => {
  let gm: PageBrowser;
  let slug = '';
  let firstToken = '';
  let firstPassword = '';

  it('creates one from the built-in scenario with the chosen name and short name, shows the GM token once and signs the GM in', async () => {
    gm = new PageBrowser(() => app);
    const form = await gm.get('/new');
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('enctype="multipart/form-data"');
    expect(form.body).not.toContain('name="createToken"');
    const res = await postMultipart(gm, app, '/new', { _csrf: csrfOf(form.body), source: 'builtin', builtin: 'caribbean', name: 'Windward Station', slug: 'windward' });
    expect(res.statusCode, res.body.slice(0, 800)).toBe(201);
    expect(res.body).toContain('Windward Station');
    const token = /<code class="secret gm-token">([^<]+)<\/code>/.exec(res.body)?.[1];
    expect(token).toMatch(/^gm_/);
    slug = 'windward';
    firstToken = token!;
    // The token works on the API, and the GM is signed in on the pages.
    const c = await db.prisma.campaign.findUniqueOrThrow({ where: { slug } });
    expect((await app.inject({ url: `/api/campaigns/${c.id}/settings`, headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
    expect((await gm.get(`/c/${slug}/gm`)).statusCode).toBe(200);
    // It is never shown again.
    expect((await gm.get(`/c/${slug}/gm/setup`)).body).not.toContain(token!);
  });

  it('a short name already taken is a 409 that says so, keeping the other answers; nothing is created', async () => {
    const b = new PageBrowser(() => app);
    const before = await campaigns();
    const res = await postMultipart(b, app, '/new', { _csrf: await b.csrf('/new'), source: 'builtin', builtin: 'caribbean', name: 'Second Station', slug });
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain('a campaign called &#x27;windward&#x27; already exists');
    expect(res.body).toContain('value="Second Station"');
    expect(await campaigns()).toBe(before);
  });

  it('an uploaded scenario file with problems lists every one and creates nothing', async () => {
    const b = new PageBrowser(() => app);
    const before = await campaigns();
    const scenario = builtInScenario('caribbean') as { powers: { key: string }[]; vpGoal: unknown };
    const bad = { ...scenario, vpGoal: 'lots', powers: [...scenario.powers, { key: 'british' }] };
    const res = await postMultipart(b, app, '/new', { _csrf: await b.csrf('/new'), source: 'upload', name: '', slug: 'broken' },
      { name: 'scenarioFile', filename: 'broken.json', content: JSON.stringify(bad) });
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatch(/The scenario file has \d+ problem\(s\); nothing was created/);
    const items = res.body.match(/<ul class="problems">([\s\S]*?)<\/ul>/)?.[1]?.match(/<li>/g) ?? [];
    expect(items.length).toBeGreaterThanOrEqual(2);
    expect(res.body).toContain('vpGoal');
    expect(await campaigns()).toBe(before);
    // Not JSON at all: said so.
    const notJson = await postMultipart(b, app, '/new', { _csrf: await b.csrf('/new'), source: 'upload' }, { name: 'scenarioFile', filename: 'x.json', content: '{ nope' });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.body).toContain('it is not JSON');
    expect(await campaigns()).toBe(before);
    // A NUL inside the file's JSON strings: refused, naming where.
    const nul = await postMultipart(b, app, '/new', { _csrf: await b.csrf('/new'), source: 'upload' },
      { name: 'scenarioFile', filename: 'nul.json', content: JSON.stringify({ ...scenario, name: 'Bad\u0000Name' }) });
    expect(nul.statusCode).toBe(400);
    expect(nul.body).toContain('scenario file.name');
    expect(await campaigns()).toBe(before);
  });

  it('an uploaded good scenario file creates the campaign', async () => {
    const b = new PageBrowser(() => app);
    const res = await postMultipart(b, app, '/new', { _csrf: await b.csrf('/new'), source: 'upload', slug: 'uploaded-one' },
      { name: 'scenarioFile', filename: 'mine.json', content: JSON.stringify(builtInScenario('caribbean')) });
    expect(res.statusCode, res.body.slice(0, 600)).toBe(201);
    expect(await db.prisma.campaign.findUnique({ where: { slug: 'uploaded-one' } })).not.toBeNull();
  });

  it('with a CREATE_TOKEN the form asks for it: a wrong one is refused, the right one creates; the per-address limit holds', async () => {
    const b = new PageBrowser(() => closed);
    const form = await b.get('/new');
    expect(form.body).toContain('name="createToken"');
    const before = await campaigns();
    const wrong = await postMultipart(b, closed, '/new', { _csrf: csrfOf(form.body), source: 'builtin', createToken: 'guess', slug: 'tokened' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('CREATE_TOKEN');
    expect(await campaigns()).toBe(before);
    const right = await postMultipart(b, closed, '/new', { _csrf: await b.csrf('/new'), source: 'builtin', createToken: 'let-me-create-campaigns', slug: 'tokened' });
    expect(right.statusCode, right.body.slice(0, 600)).toBe(201);
    // 3 an hour from one address: the fourth is refused with when to try again.
    await postMultipart(b, closed, '/new', { _csrf: await b.csrf('/new'), source: 'builtin', createToken: 'x' });
    const limited = await postMultipart(b, closed, '/new', { _csrf: await b.csrf('/new'), source: 'builtin', createToken: 'let-me-create-campaigns' });
    expect(limited.statusCode).toBe(429);
    expect(limited.body).toContain('too many new campaigns');
  });

  it('a form without its CSRF token is refused', async () => {
    const b = new PageBrowser(() => app);
    await b.get('/new');
    const before = await campaigns();
    const res = await postMultipart(b, app, '/new', { source: 'builtin', slug: 'no-csrf' });
    expect(res.statusCode).toBe(403);
    expect(await campaigns()).toBe(before);
  });

  describe('Players & settings', () => {
    let id = '';
    beforeAll(async () => { id = (await db.prisma.campaign.findUniqueOrThrow({ where: { slug } })).id; });

    it('invites a player: the password is shown once and the welcome mail carries it', async () => {
      const token = await gm.csrf(`/c/${slug}/gm/setup`);
      const res = await gm.post(`/c/${slug}/gm/setup/players`, { _csrf: token, power: 'french', name: 'Pierre', email: 'pierre@example.org', password: '' });
      expect(res.statusCode).toBe(200);
      const password = /<code class="secret">([^<]+)<\/code>/.exec(res.body)?.[1];
      expect(password).toBeTruthy();
      firstPassword = password!;
      const mail = await db.prisma.outgoingMail.findFirstOrThrow({ where: { campaignId: id, to: 'pierre@example.org' } });
      expect(mail.subject).toContain('Welcome');
      expect(mail.text).toContain(password!);
      // The new player signs in with it.
      const player = new PageBrowser(() => app);
      const login = await player.post(`/c/${slug}/login`, { _csrf: await player.csrf(`/c/${slug}/login`), password: password! });
      expect(login.statusCode).toBe(303);
      expect(login.headers.location).toBe(`/c/${slug}/map`);
    });

    it('replaces a player: the old password stops working', async () => {
      const old = await db.prisma.player.findFirstOrThrow({ where: { campaignId: id, power: { key: 'french' } } });
      const res = await gm.post(`/c/${slug}/gm/setup/players`, { _csrf: await gm.csrf(`/c/${slug}/gm/setup`), power: 'french', name: 'Jean', email: 'jean@example.org', password: 'topsail-keel-1805' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('now plays');
      const now = await db.prisma.player.findFirstOrThrow({ where: { campaignId: id, power: { key: 'french' } } });
      expect(now.passwordHash).not.toBe(old.passwordHash);
      expect(now.email).toBe('jean@example.org');
      const before = new PageBrowser(() => app);
      const refused = await before.post(`/c/${slug}/login`, { _csrf: await before.csrf(`/c/${slug}/login`), password: firstPassword });
      expect(refused.statusCode).toBe(401);
      const bad = await gm.post(`/c/${slug}/gm/setup/players`, { _csrf: await gm.csrf(`/c/${slug}/gm/setup`), power: 'french', name: 'X', email: 'not-an-address' });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain('email address');
    });

    it('changes a rule setting from the next turn, audited; a bad value is refused with what to fix', async () => {
      const page = await gm.get(`/c/${slug}/gm/setup`);
      const token = csrfOf(page.body);
      const bad = await gm.post(`/c/${slug}/gm/setup/settings`, { _csrf: token, maxFleetsMoved: '0' });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain('maxFleetsMoved is a whole number from 1 to 20');
      const ok = await gm.post(`/c/${slug}/gm/setup/settings`, { _csrf: token, maxFleetsMoved: '2', allowPendingBattles: 'yes', reason: 'small table' });
      expect(ok.statusCode).toBe(303);
      const after = await gm.get(ok.headers.location as string);
      expect(after.body).toContain('take effect when the next turn opens');
      expect(after.body).toContain('maxFleetsMoved 3 → 2');
      const c = await db.prisma.campaign.findUniqueOrThrow({ where: { id } });
      expect(c.pendingSettings).toEqual({ maxFleetsMoved: 2, allowPendingBattles: true });
      expect((c.settings as { maxFleetsMoved: number }).maxFleetsMoved).toBe(3);
      expect(await db.prisma.auditEntry.count({ where: { campaignId: id, action: 'campaign.settings' } })).toBe(1);
    });

    it('sets a monthly deadline schedule: the open turn gets its deadline at once', async () => {
      const token = await gm.csrf(`/c/${slug}/gm/setup`);
      const bad = await gm.post(`/c/${slug}/gm/setup/schedule`, { _csrf: token, kind: 'monthly', day: '40', time: '25:00', timeZone: 'Europe/London' });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain('day of the month');
      expect(bad.body).toContain('HH:MM');
      const ok = await gm.post(`/c/${slug}/gm/setup/schedule`, { _csrf: token, kind: 'monthly', day: '15', time: '18:00', timeZone: 'Europe/London', graceMinutes: '30', autoResolve: 'yes' });
      expect(ok.statusCode).toBe(303);
      const page = await gm.get(ok.headers.location as string);
      expect(page.body).toContain('every month on day 15 at 18:00 (Europe/London), 30 min grace, resolved automatically');
      const turn = await db.prisma.turn.findFirstOrThrow({ where: { campaignId: id, number: 1 } });
      expect(turn.deadline).not.toBeNull();
      expect(turn.autoResolve).toBe(true);
      expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(turn.deadline!)).toBe('15, 18:00');
    });

    it('rotates the GM token: shown once, the old one no longer signs in, this session stays', async () => {
      const res = await gm.post(`/c/${slug}/gm/setup/token`, { _csrf: await gm.csrf(`/c/${slug}/gm/setup`) });
      expect(res.statusCode).toBe(200);
      const fresh = /<code class="secret gm-token">([^<]+)<\/code>/.exec(res.body)?.[1];
      expect(fresh).toMatch(/^gm_/);
      expect((await app.inject({ url: `/api/campaigns/${id}/settings`, headers: { authorization: `Bearer ${fresh}` } })).statusCode).toBe(200);
      expect((await app.inject({ url: `/api/campaigns/${id}/settings`, headers: { authorization: `Bearer ${firstToken}` } })).statusCode).toBe(401);
      const other = new PageBrowser(() => app);
      expect((await other.post(`/c/${slug}/login`, { _csrf: await other.csrf(`/c/${slug}/login`), password: firstToken })).statusCode).toBe(401);
      expect((await gm.get(`/c/${slug}/gm/setup`)).statusCode).toBe(200);
      expect(await db.prisma.auditEntry.count({ where: { campaignId: id, action: 'campaign.gm_token_rotated' } })).toBe(1);
    });

    it('is for the GM only', async () => {
      const player = new PageBrowser(() => app);
      await player.post(`/c/${slug}/login`, { _csrf: await player.csrf(`/c/${slug}/login`), password: 'topsail-keel-1805' });
      expect((await player.get(`/c/${slug}/gm/setup`)).statusCode).toBe(403);
      const token = csrfOf((await player.get(`/c/${slug}/map`)).body);
      expect((await player.post(`/c/${slug}/gm/setup/token`, { _csrf: token })).statusCode).toBe(403);
      expect((await player.post(`/c/${slug}/gm/setup/settings`, { _csrf: token, maxFleetsMoved: '5' })).statusCode).toBe(403);
    });
  });
});
