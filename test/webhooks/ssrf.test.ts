// Where a webhook may post: https only, never into a private network unless
// WEBHOOK_ALLOW_PRIVATE=1, every resolved address checked (IPv4, IPv6, IPv4-mapped), a
// timeout and a cap on the answer read. Real sockets on loopback; https with a certificate
// made here by the openssl CLI and trusted through an explicit CA.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCampaignWebhook, testWebhook } from '../../src/campaign/campaignWebhooks.js';
import { UseCaseError } from '../../src/campaign/errors.js';
import { setPersonalWebhook } from '../../src/campaign/playerNotifications.js';
import { TargetRefused, checkUrl, isPublicAddress } from '../../src/webhooks/address.js';
import { postJson } from '../../src/webhooks/post.js';
import { postDueWebhooks } from '../../src/webhooks/worker.js';
import { makeCampaign } from '../campaign/helpers.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { WebhookReceiver } from '../support/webhookReceiver.js';

let db: TestDatabase;
let plain: WebhookReceiver;
let secure: WebhookReceiver;
let ca: string;
let dir: string;

beforeAll(async () => {
  delete process.env.WEBHOOK_ALLOW_PRIVATE;
  dir = mkdtempSync(path.join(tmpdir(), 'sasg-tls-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
    '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
  ca = readFileSync(path.join(dir, 'cert.pem'), 'utf8');
  db = await testDatabase();
  plain = await new WebhookReceiver().start();
  secure = await new WebhookReceiver({ key: readFileSync(path.join(dir, 'key.pem'), 'utf8'), cert: ca }).start();
});
afterAll(async () => {
  await plain?.stop();
  await secure?.stop();
  await db?.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const refused = (fn: () => unknown) => {
  try { fn(); } catch (err) { return err instanceof TargetRefused ? err.message : `not refused as a target: ${String(err)}`; }
  return null;
};

describe('webhook targets', () => {
  it('only globally routed unicast counts as public, IPv4-mapped IPv6 read as the IPv4 it carries', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888', '::ffff:8.8.8.8']) expect(isPublicAddress(a), a).toBe(true);
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.10', '169.254.169.254', '100.64.0.1', '0.0.0.0', '255.255.255.255', '224.0.0.1',
      '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '2002:7f00:1::1', '2001:db8::1', 'not-an-ip']) {
      expect(isPublicAddress(a), a).toBe(false);
    }
  });

  it('refuses http, credentials, a non-URL and a private address written in the URL', () => {
    const rules = { allowPrivate: false };
    expect(refused(() => checkUrl('http://hooks.example.org/x', rules))).toMatch(/must start with https:\/\//);
    expect(refused(() => checkUrl('ftp://hooks.example.org/x', rules))).toMatch(/must start with https:\/\//);
    expect(refused(() => checkUrl('https://user:pw@hooks.example.org/x', rules))).toMatch(/user name or password/);
    expect(refused(() => checkUrl('discord webhook', rules))).toMatch(/not a whole URL/);
    for (const host of ['127.0.0.1', '[::1]', '[::ffff:7f00:1]', '169.254.169.254', '10.0.0.8', '[fe80::1]', '2130706433']) {
      expect(refused(() => checkUrl(`https://${host}/hook`, rules)), host).toMatch(/private, loopback or link-local/);
    }
    expect(checkUrl('https://hooks.example.org/x', rules).host).toBe('hooks.example.org');
    // Allowed on a LAN; http too, but never to a public address.
    const lan = { allowPrivate: true };
    expect(checkUrl('http://127.0.0.1:8065/hooks/abc', lan).port).toBe('8065');
    expect(refused(() => checkUrl('http://8.8.8.8/hook', lan))).toMatch(/public internet: use https/);
  });

  it('resolves the host and refuses it when any address is private, before connecting', async () => {
    secure.posts = [];
    // localhost resolves to loopback (127.0.0.1 and/or ::1): refused, nothing reaches the receiver.
    await expect(postJson(`https://localhost:${secure.port}/hook`, '{}', {}, { allowPrivate: false, ca })).rejects.toThrow(/localhost resolves to .*private, loopback or link-local/);
    expect(secure.posts).toHaveLength(0);
  });

  it('posts over https to a receiver whose certificate is trusted, and not to one whose is not', async () => {
    secure.posts = [];
    secure.answer = () => ({ status: 200, body: 'ok' });
    const r = await postJson(`https://localhost:${secure.port}/hook`, '{"a":1}', { 'X-Test': 'yes' }, { allowPrivate: true, ca });
    expect(r).toEqual({ status: 200, answer: 'ok' });
    expect(secure.posts[0]).toMatchObject({ path: '/hook', body: '{"a":1}' });
    expect(secure.posts[0]!.headers['x-test']).toBe('yes');
    await expect(postJson(`https://localhost:${secure.port}/hook`, '{}', {}, { allowPrivate: true })).rejects.toThrow(/self-signed|certificate/);
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    plain.answer = () => ({ hang: true });
    const t0 = Date.now();
    await expect(postJson(plain.url(), '{}', {}, { allowPrivate: true, timeoutMs: 700 })).rejects.toThrow(/no answer within 0.7 s/);
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it('reads at most the cap of an answer: an endless one does not hold the worker', async () => {
    const endless = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = 'x'.repeat(64 * 1024);
      const pump = () => { while (res.write(chunk)); };
      res.on('drain', pump);
      pump();
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', () => resolve()));
    try {
      const port = (endless.address() as AddressInfo).port;
      const t0 = Date.now();
      const r = await postJson(`http://127.0.0.1:${port}/`, '{}', {}, { allowPrivate: true, timeoutMs: 5000, maxAnswerBytes: 32 * 1024 });
      expect(r.status).toBe(200);
      expect(Date.now() - t0).toBeLessThan(2000);
    } finally {
      endless.closeAllConnections();
      endless.close();
    }
  });

  it('WEBHOOK_ALLOW_PRIVATE decides what a GM or a player may add, and what the worker posts to', async () => {
    const c = await makeCampaign(db, { seed: 'ssrf' });
    const error = async (p: Promise<unknown>) => { try { await p; } catch (err) { return err instanceof UseCaseError ? `${err.code}: ${err.message}` : String(err); } return null; };
    expect(await error(addCampaignWebhook(db, c.id, { kind: 'discord', url: plain.url() }))).toMatch(/^webhook\/bad_url: the webhook URL is refused: the URL must start with https/);
    expect(await error(addCampaignWebhook(db, c.id, { kind: 'discord', url: `https://127.0.0.1:${secure.port}/x` }))).toMatch(/private, loopback or link-local/);
    expect(await error(setPersonalWebhook(db, c.id, 'french', { kind: 'slack', url: 'https://[::ffff:169.254.169.254]/latest' }))).toMatch(/^webhook\/bad_url/);
    expect(await error(addCampaignWebhook(db, c.id, { kind: 'teams', url: 'https://hooks.example.org/' }))).toMatch(/^webhook\/bad_kind/);
    expect(await error(addCampaignWebhook(db, c.id, { kind: 'json', url: 'https://hooks.example.org/', events: ['fleet-moved'] }))).toMatch(/^webhook\/bad_events: unknown event fleet-moved/);

    process.env.WEBHOOK_ALLOW_PRIVATE = '1';
    const hook = await addCampaignWebhook(db, c.id, { kind: 'discord', url: `http://localhost:${plain.port}/lan`, events: ['turn-opened'] });
    expect(hook.url).toBe(`http://localhost:${plain.port}/lan`);
    // Queued now; then the setting is taken away: the worker refuses the post for good, and says why.
    await testWebhook(db, c.id, hook.id);
    delete process.env.WEBHOOK_ALLOW_PRIVATE;
    plain.posts = [];
    expect(await postDueWebhooks(db)).toEqual({ sent: 0, failed: 1 });
    const row = await db.prisma.webhookDelivery.findFirstOrThrow({ where: { webhookId: hook.id } });
    expect(row.status).toBe('failed');
    expect(row.lastError).toMatch(/must start with https/);
    expect(plain.posts).toHaveLength(0);
    // With the setting, the worker posts it (a new test post).
    process.env.WEBHOOK_ALLOW_PRIVATE = '1';
    plain.answer = () => ({ status: 204 });
    await testWebhook(db, c.id, hook.id);
    expect(await postDueWebhooks(db)).toEqual({ sent: 1, failed: 0 });
    expect(JSON.parse(plain.posts[0]!.body).content).toMatch(/this webhook works/);
    delete process.env.WEBHOOK_ALLOW_PRIVATE;
  });
});
