/**
 * What the browser tests of the pages start from: the real app on a loopback port, a
 * Caribbean campaign with its British player, and Debian's Chromium. Closed by `close()`.
 */
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { expect } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { launchChromium } from './chromium.js';
import { testDatabase, type TestDatabase } from './db.js';

export const BRITISH_PASSWORD = 'bosun-keel-anchor-1805';

export interface BrowserCampaign {
  db: TestDatabase;
  app: App;
  browser: Browser;
  /** The app's address, http://127.0.0.1:<port>. */
  base: string;
  id: string;
  slug: string;
  gmToken: string;
  close(): Promise<void>;
}

export async function browserCampaign(slug: string): Promise<BrowserCampaign> {
  const db = await testDatabase();
  const app = await buildApp({ db, config: {} });
  const created = await app.inject({ method: 'POST', url: '/api/campaigns', payload: { scenario: 'caribbean', seed: slug, slug } });
  expect(created.statusCode, created.body).toBe(201);
  const { id, gmToken } = created.json() as { id: string; gmToken: string };
  const put = await app.inject({
    method: 'PUT', url: `/api/campaigns/${id}/players/british`, headers: { authorization: `Bearer ${gmToken}` },
    payload: { name: 'Horatio', email: 'british@example.org', password: BRITISH_PASSWORD },
  });
  expect(put.statusCode).toBe(201);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const browser = await launchChromium();
  return {
    db, app, browser, base, id, slug, gmToken,
    async close() {
      await browser.close();
      await app.close();
      await db.destroy();
    },
  };
}
