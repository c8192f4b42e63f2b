// The real scheduler in the real service (src/serve.ts): the pass interval is the
// SCHEDULER_SECONDS setting, and the last orders of a turn wake the scheduler, so an early
// resolve comes within seconds even with a pass only once an hour, whether the last orders
// come by mail or by the web form. Then, on a short pass,
// a turn whose deadline passes without orders is resolved (its powers missed the turn).
import { describe, expect, it } from 'vitest';
import { sendRawMail } from '../support/smtp.js';
import { PageBrowser } from '../support/pageBrowser.js';
import { demoOf, freePort, freshServiceEnv, overHttp, serviceFixture, startService, stopService, type Demo, type Service } from '../support/service.js';

const { cleanups, sink } = serviceFixture();

const FLEET = { british: 'Jamaica Squadron', french: 'Escadre de la Martinique', american: 'Chesapeake Squadron' } as const;

async function api(s: Service, token: string, method: string, url: string, body?: unknown) {
  const res = await fetch(`${s.base}/api${url}`, {
    method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = await res.json() as Record<string, unknown>;
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json;
}
const openTurn = async (s: Service, d: Demo) => (await api(s, d.gmToken, 'GET', `/campaigns/${d.campaignId}/turns/current`)).turn as number;

function mailOrders(d: Demo, power: keyof typeof FLEET, n: number): string {
  return `From: ${power}@example.org\nTo: orders@sasg.test\nSubject: Orders\nMessage-ID: <wake-${power}-${n}-${Date.now()}@test.example>\n\n`
    + `CAMPAIGN ${d.campaignId}\nPOWER ${power}\nPASSWORD ${d.passwords[power]}\nFLEET "${FLEET[power]}": HOLD\nFLEET "${FLEET[power]}": MISSION\nEND\n`;
}

describe('the scheduler in the service', () => {
  it('resolves early within seconds of the last orders, with an hour between passes; a short pass resolves at the deadline', async () => {
    const smtpPort = await freePort();
    const { env } = await freshServiceEnv(cleanups, { DEMO_CAMPAIGN: '1', SMTP_LISTEN_PORT: String(smtpPort), SMTP_URL: sink().url, SCHEDULER_SECONDS: '3600' });
    const first = await startService(env);
    cleanups.push(() => stopService(first));
    await first.line(/scheduler: checking deadlines every 3600 s/);
    const demo = demoOf(first);
    // Auto-resolve on, the deadline a day away: only "everyone ready" can resolve it now.
    await api(first, demo.gmToken, 'PUT', `/campaigns/${demo.campaignId}/turns/current/deadline`, { deadline: new Date(Date.now() + 86_400_000).toISOString(), autoResolve: true });
    // One power's orders by the web form, one by the API, the last by mail to the SMTP listener.
    const web = new PageBrowser(overHttp(first.base));
    const signedIn = await web.post('/c/caribbean-demo/login', { _csrf: await web.csrf('/c/caribbean-demo/login'), password: demo.passwords.british! });
    expect(signedIn.statusCode, signedIn.body.slice(0, 400)).toBe(303);
    const sent = await web.post('/c/caribbean-demo/orders', { _csrf: await web.csrf('/c/caribbean-demo/orders'), action: 'send', fleet: '', text: `POWER british\nFLEET "${FLEET.british}": HOLD\nFLEET "${FLEET.british}": MISSION` });
    expect(sent.statusCode).toBe(303);
    expect((await web.get(String(sent.headers.location))).body).toMatch(/Stored now: <strong class="status ready">ready/);
    const check = await api(first, demo.passwords.french!, 'POST', `/campaigns/${demo.campaignId}/orders/french`, { text: `POWER french\nFLEET "${FLEET.french}": HOLD\nFLEET "${FLEET.french}": MISSION` });
    expect(check.status).toBe('ready');
    expect(await openTurn(first, demo)).toBe(1);
    await sendRawMail(smtpPort, 'american@example.org', mailOrders(demo, 'american', 1));
    await first.line(/turn 1 resolved automatically: every power is ready; turn 2 is open/, 30_000);
    expect(await openTurn(first, demo)).toBe(2);
    // Turn 2: this time the web form brings the last orders.
    await api(first, demo.gmToken, 'PUT', `/campaigns/${demo.campaignId}/turns/current/deadline`, { deadline: new Date(Date.now() + 86_400_000).toISOString(), autoResolve: true });
    await sendRawMail(smtpPort, 'french@example.org', mailOrders(demo, 'french', 2));
    await api(first, demo.passwords.american!, 'POST', `/campaigns/${demo.campaignId}/orders/american`, { text: `POWER american\nFLEET "${FLEET.american}": HOLD\nFLEET "${FLEET.american}": MISSION` });
    await expect.poll(async () => (await api(first, demo.gmToken, 'GET', `/campaigns/${demo.campaignId}/turns/current`)).powers, { timeout: 30_000 })
      .toEqual(expect.arrayContaining([expect.objectContaining({ power: 'french', status: 'ready' })]));
    expect(await openTurn(first, demo)).toBe(2);
    const last = await web.post('/c/caribbean-demo/orders', { _csrf: await web.csrf('/c/caribbean-demo/orders'), action: 'send', fleet: '', text: `POWER british\nFLEET "${FLEET.british}": HOLD\nFLEET "${FLEET.british}": MISSION` });
    expect(last.statusCode).toBe(303);
    await first.line(/turn 2 resolved automatically: every power is ready; turn 3 is open/, 30_000);
    await stopService(first);

    // The same service with a pass every 2 s: turn 3's deadline passes with no orders sent.
    const second = await startService({ ...env, SCHEDULER_SECONDS: '2' });
    cleanups.push(() => stopService(second));
    await second.line(/scheduler: checking deadlines every 2 s/);
    expect(await openTurn(second, demo)).toBe(3);
    // A few seconds ahead (a first request to a new process may itself take a second or two).
    await api(second, demo.gmToken, 'PUT', `/campaigns/${demo.campaignId}/turns/current/deadline`, { deadline: new Date(Date.now() + 6_000).toISOString(), autoResolve: true });
    await second.line(/turn 3 resolved automatically: its deadline passed .*no orders from .*; turn 4 is open/, 30_000);
    expect(await openTurn(second, demo)).toBe(4);
  }, 600_000);
});
