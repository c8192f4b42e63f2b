// Assistant GMs (docs/gm-guide.md): the GM adds an umpire and a deputy, each with a token of
// their own (kept only as a hash). Every route of the OpenAPI document under a campaign is
// walked with each token, with a body built from the route's own schema so that validation
// passes and only the role decides: an umpire gets through on battle routes alone (packages,
// setup sheets, results, the battle desk) and is refused with auth/outside_role everywhere
// else; a deputy gets through everywhere but the campaign's settings and its GMs (403
// auth/reserved_to_gm, on the pages too, whose controls a deputy does not see). Their actions
// are audited under their own names; removing one ends their token. Real database throughout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../src/campaign/secrets.js';
import { buildApp, type App } from '../../src/http/app.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { PageBrowser, csrfOf } from '../support/pageBrowser.js';

let db: TestDatabase;
let app: App;
let id: string;
let slug: string;
let gm: string;
let umpire: { id: string; token: string };
let deputy: { id: string; token: string };
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; anyOf?: Schema[]; oneOf?: Schema[]; const?: unknown; enum?: unknown[];
  minLength?: number; minimum?: number; format?: string; items?: Schema; minItems?: number; default?: unknown; minProperties?: number };

/** The smallest value the schema accepts (enough for these routes: validation must pass so the handler decides). */
function sample(s: Schema | undefined): unknown {
  if (!s) return {};
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const alt = s.anyOf ?? s.oneOf;
  if (alt) return sample(alt.find((a) => a.type !== 'null') ?? alt[0]);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type === 'object' || s.properties) {
    const out: Record<string, unknown> = {};
    const keys = [...(s.required ?? [])];
    if (keys.length < (s.minProperties ?? 0)) keys.push(...Object.keys(s.properties ?? {}).filter((k) => !keys.includes(k)).slice(0, (s.minProperties ?? 0) - keys.length));
    for (const k of keys) out[k] = sample(s.properties?.[k]);
    return out;
  }
  if (type === 'string') return s.format === 'email' ? 'someone@example.org' : s.format === 'date-time' ? new Date(Date.now() + 7 * 86_400_000).toISOString() : s.format === 'date' ? '2030-01-01' : 'x'.repeat(Math.max(1, s.minLength ?? 1));
  if (type === 'integer' || type === 'number') return s.minimum ?? 1;
  if (type === 'boolean') return false;
  if (type === 'array') return Array.from({ length: s.minItems ?? 0 }, () => sample(s.items));
  return {};
}

const PARAMS: Record<string, () => string> = { id: () => id, power: () => 'british', battle: () => 'B1', number: () => '1', file: () => 'x.ics' };

/** The battle routes an umpire may use (docs/gm-guide.md): packages, setup sheets, results, the battle desk. */
const isBattleRoute = (path: string) => /\/battles(\/|$)|\/battle-desk/.test(path) && !RESERVED_ROUTES.includes(path);
/** The campaign's settings and its GMs: the GM's alone (src/words/assistants.ts names each). */
const RESERVED_ROUTES = [
  'PATCH /api/campaigns/{id}/settings', 'GET /api/campaigns/{id}/settings', 'GET /api/campaigns/{id}/deadline-schedule', 'PUT /api/campaigns/{id}/deadline-schedule',
  'DELETE /api/campaigns/{id}/deadline-schedule', 'PUT /api/campaigns/{id}/turn-policy', 'PUT /api/campaigns/{id}/despatch-settings',
  'PUT /api/campaigns/{id}/observers', 'GET /api/campaigns/{id}/webhooks', 'POST /api/campaigns/{id}/webhooks', 'DELETE /api/campaigns/{id}/webhooks/{webhookId}',
  'POST /api/campaigns/{id}/webhooks/{webhookId}/test', 'PUT /api/campaigns/{id}/battle-desk', 'PUT /api/campaigns/{id}/sheet-paper',
  'POST /api/campaigns/{id}/end', 'POST /api/campaigns/{id}/reopen',
  'POST /api/campaigns/{id}/gm-token', 'PUT /api/campaigns/{id}/gm', 'PUT /api/campaigns/{id}/gm/timezone',
  'GET /api/campaigns/{id}/calendar', 'POST /api/campaigns/{id}/calendar/rotate',
  'GET /api/campaigns/{id}/assistants', 'POST /api/campaigns/{id}/assistants', 'DELETE /api/campaigns/{id}/assistants/{assistant}',
];
/** Routes anyone may read, signed in or not (docs/gazette.md: the published Gazette): an assistant's token changes nothing there. */
const PUBLIC_ROUTES = ['GET /api/campaigns/{id}/gazette'];
/** The page forms (and pages) of the same: each refused to a deputy with a page naming what is the GM's. */
const RESERVED_FORMS: [string, Record<string, string>, RegExp][] = [
  ['/gm/setup/settings', { reason: 'x' }, /rule settings/], ['/gm/setup/schedule', { kind: 'monthly', day: '1' }, /deadline schedule/],
  ['/gm/setup/token', {}, /GMs/], ['/gm/early-resolve', { earlyResolve: 'no' }, /early resolve/],
  ['/gm/despatches/settings', { delivery: 'instant' }, /despatch settings/], ['/gm/observers', { delay: '2' }, /observer page/],
  ['/gm/webhooks', { kind: 'json', url: 'https://example.org/hook' }, /webhooks/], ['/gm/battles/desk', { resultDeadlineDays: '3' }, /battle settings/],
  ['/gm/battles/paper', { paper: 'letter' }, /battle settings/], ['/gm/end', { reason: 'peace' }, /ending and reopening/],
  ['/gm/reopen', { reason: 'war' }, /ending and reopening/], ['/gm/assistants', { email: 'x@example.org', role: 'deputy' }, /GMs/],
];

async function walk(token: string) {
  const doc = app.swagger() as { paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: Schema }> } }>> };
  const seen: { route: string; status: number; error?: string }[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    if (!path.startsWith('/api/campaigns/{id}')) continue;
    for (const [method, op] of Object.entries(ops)) {
      const url = path.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(PARAMS[k]?.() ?? 'x'));
      const json = op.requestBody?.content?.['application/json']?.schema;
      const res = await app.inject({
        method: method.toUpperCase() as 'GET', url, headers: auth(token),
        ...(json ? { payload: sample(json) as object } : {}),
      });
      let error: string | undefined;
      try { error = res.json().error; } catch { /* not JSON: a file */ }
      seen.push({ route: `${method.toUpperCase()} ${path}`, status: res.statusCode, error });
    }
  }
  return seen;
}

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  const res = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', seed: 'assistants', slug: 'assistants' } });
  ({ id, slug, gmToken: gm } = res.json());
  await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/players/british`, headers: auth(gm), payload: { name: 'Horatio Nelson', email: 'nelson@example.org' } });
});
afterAll(async () => { await app?.close(); await db?.destroy(); });

describe('assistant GMs', () => {
  it('are added by the GM with a role and a token of their own, shown once and kept as a hash', async () => {
    const bad = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/assistants`, headers: auth(gm), payload: { email: 'jervis@example.org', role: 'admiral' } });
    expect(bad.statusCode).toBe(400);
    const u = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/assistants`, headers: auth(gm), payload: { email: 'Jervis@Example.org', role: 'umpire' } });
    expect(u.statusCode, u.body).toBe(201);
    umpire = u.json();
    expect(u.json()).toMatchObject({ email: 'jervis@example.org', role: 'umpire' });
    const d = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/assistants`, headers: auth(gm), payload: { email: 'collingwood@example.org', role: 'deputy' } });
    deputy = d.json();
    const rows = await db.prisma.assistantGm.findMany({ where: { campaignId: id } });
    expect(rows.map((r) => r.tokenHash).sort()).toEqual([sha256(umpire.token), sha256(deputy.token)].sort());
    expect(JSON.stringify(rows)).not.toContain(umpire.token);
    const list = await app.inject({ url: `/api/campaigns/${id}/assistants`, headers: auth(gm) });
    expect(list.body).not.toContain(umpire.token);
    expect(list.json().assistants.map((a: { email: string; role: string }) => `${a.email}:${a.role}`)).toEqual(['jervis@example.org:umpire', 'collingwood@example.org:deputy']);
  });

  it('an umpire gets through on every battle route of the OpenAPI document and on no other', async () => {
    const seen = await walk(umpire.token);
    const battle = seen.filter((s) => isBattleRoute(s.route));
    const other = seen.filter((s) => !isBattleRoute(s.route) && !RESERVED_ROUTES.includes(s.route) && !PUBLIC_ROUTES.includes(s.route));
    const reserved = seen.filter((s) => RESERVED_ROUTES.includes(s.route));
    // A public route answers an umpire as it answers anyone.
    for (const s of seen.filter((x) => PUBLIC_ROUTES.includes(x.route))) expect(s.status, s.route).toBe(200);
    expect(battle.length).toBeGreaterThan(8);
    expect(other.length).toBeGreaterThan(30);
    expect(battle.filter((s) => s.status === 401 || s.status === 403), 'battle routes refused to the umpire').toEqual([]);
    expect(other.filter((s) => s.status !== 403 || s.error !== 'auth/outside_role'), 'other routes the umpire got through').toEqual([]);
    expect(reserved.filter((s) => s.status !== 403 || s.error !== 'auth/reserved_to_gm'), 'the GM\'s routes the umpire got through').toEqual([]);
  });

  it('a deputy gets through everywhere but the campaign\'s settings and its GMs, each refused naming what is the GM\'s', async () => {
    const seen = await walk(deputy.token);
    const reserved = seen.filter((s) => RESERVED_ROUTES.includes(s.route));
    expect(reserved).toHaveLength(RESERVED_ROUTES.length);
    expect(reserved.filter((s) => s.status !== 403 || s.error !== 'auth/reserved_to_gm'), 'reserved routes the deputy got through').toEqual([]);
    const webhooks = await app.inject({ method: 'POST', url: `/api/campaigns/${id}/webhooks`, headers: auth(deputy.token), payload: { kind: 'json', url: 'https://example.org/hook' } });
    expect(webhooks.json().message).toMatch(/^only the GM may change the campaign's webhooks: a deputy runs the turns/);
    // A player's own settings (their notifications) are refused to every GM alike: not a role's limit.
    const rest = seen.filter((s) => !RESERVED_ROUTES.includes(s.route) && s.error !== 'auth/player_only');
    expect(rest.length).toBeGreaterThan(30);
    expect(rest.filter((s) => s.status === 401 || s.status === 403), 'routes refused to the deputy').toEqual([]);
    // Nothing reserved was changed by the walk (the GM's observer page, webhooks, the campaign still open).
    const c = await db.prisma.campaign.findUniqueOrThrow({ where: { id } });
    expect({ observerDelay: c.observerDelay, endedAt: c.endedAt }).toEqual({ observerDelay: null, endedAt: null });
  });

  it('on the pages, a deputy sees no control of the GM\'s, and each such form is refused naming what is the GM\'s', async () => {
    const web = new PageBrowser(() => app);
    await web.post(`/c/${slug}/login`, { _csrf: await web.csrf(`/c/${slug}/login`), password: deputy.token });
    const pagesSeen = await Promise.all(['/gm', '/gm/admin', '/gm/setup', '/gm/despatches', '/gm/battles', '/gm/mail', '/gm/people'].map((p) => web.get(`/c/${slug}${p}`)));
    for (const page of pagesSeen) expect(page.statusCode).toBe(200);
    const html = pagesSeen.map((p) => p.body).join('\n');
    for (const [path] of RESERVED_FORMS) expect(html, path).not.toContain(`action="/c/${slug}${path}"`);
    expect(html).not.toContain(`href="/c/${slug}/gm/webhooks"`);
    expect(html).toContain('Only the GM changes this.');
    // What a deputy runs is still there: the pause, the deadline, the players.
    for (const path of ['/gm/pause', '/gm/deadline', '/gm/setup/players', '/gm/vacant']) expect(html, path).toContain(`action="/c/${slug}${path}"`);
    const csrf = csrfOf(pagesSeen[0]!.body);
    for (const [path, form, what] of RESERVED_FORMS) {
      const res = await web.post(`/c/${slug}${path}`, { _csrf: csrf, ...form });
      expect(res.statusCode, path).toBe(403);
      expect(res.body, path).toMatch(what);
    }
    expect((await web.get(`/c/${slug}/gm/webhooks`)).statusCode).toBe(403);
    const c = await db.prisma.campaign.findUniqueOrThrow({ where: { id } });
    expect({ observerDelay: c.observerDelay, endedAt: c.endedAt }).toEqual({ observerDelay: null, endedAt: null });
    // The GM sees them all.
    const gmWeb = new PageBrowser(() => app);
    await gmWeb.post(`/c/${slug}/login`, { _csrf: await gmWeb.csrf(`/c/${slug}/login`), password: gm });
    const gmHtml = (await Promise.all(['/gm', '/gm/admin', '/gm/setup', '/gm/despatches', '/gm/battles'].map((p) => gmWeb.get(`/c/${slug}${p}`)))).map((p) => p.body).join('\n');
    for (const [path] of RESERVED_FORMS.filter(([p]) => !['/gm/webhooks', '/gm/reopen', '/gm/assistants'].includes(p))) expect(gmHtml, path).toContain(`action="/c/${slug}${path}"`);
  });

  it('act under their own names in the audit; removing one ends their token and web sessions', async () => {
    const deadline = new Date(Date.now() + 3 * 86_400_000).toISOString();
    expect((await app.inject({ method: 'PUT', url: `/api/campaigns/${id}/turns/current/deadline`, headers: auth(deputy.token), payload: { deadline } })).statusCode).toBe(200);
    const audit = await db.prisma.auditEntry.findMany({ where: { campaignId: id, action: { startsWith: 'turn.deadline' } }, select: { actor: true } });
    expect(audit.map((a) => a.actor)).toContain('assistant:collingwood@example.org');
    expect((await app.inject({ method: 'POST', url: `/api/campaigns/${id}/orders/british`, headers: auth(deputy.token), payload: { text: 'FLEET "Jamaica Squadron": HOLD' } })).statusCode).toBe(200);
    const set = await db.prisma.orderSet.findFirstOrThrow({ where: { campaignId: id, current: true, power: { key: 'british' } } });
    expect(set.actor).toBe('assistant:collingwood@example.org');

    const web = new PageBrowser(() => app);
    await web.post(`/c/${slug}/login`, { _csrf: await web.csrf(`/c/${slug}/login`), password: deputy.token });
    const dashboard = await web.get(`/c/${slug}/gm`);
    expect(dashboard.statusCode).toBe(200);
    const paused = await web.post(`/c/${slug}/gm/pause`, { _csrf: (/name="_csrf" value="([^"]+)"/.exec(dashboard.body))![1]!, reason: 'Trafalgar day' });
    expect(paused.statusCode, paused.body.slice(0, 300)).toBe(303);
    const byDeputy = await db.prisma.auditEntry.findMany({ where: { campaignId: id, actor: 'assistant:collingwood@example.org' }, select: { action: true } });
    expect(byDeputy.map((a) => a.action)).toEqual(expect.arrayContaining(['session.signed_in', 'campaign.paused']));
    const removed = await app.inject({ method: 'DELETE', url: `/api/campaigns/${id}/assistants/${deputy.id}`, headers: auth(gm) });
    expect(removed.json()).toEqual({ sessionsEnded: 2 }); // this browser's and the one that walked the pages above
    expect((await web.get(`/c/${slug}/gm`)).statusCode).toBe(303);
    expect((await app.inject({ url: `/api/campaigns/${id}/turns/current`, headers: auth(deputy.token) })).statusCode).toBe(401);
    expect(await db.prisma.auditEntry.count({ where: { campaignId: id, action: 'assistant.removed', actor: 'gm' } })).toBe(1);
  });
});
