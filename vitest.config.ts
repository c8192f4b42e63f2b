import { defineConfig } from 'vitest/config';

/**
 * Test files whose module state cannot be shared with others: they change process.env, fake
 * the clock or timers, so each runs in a fresh worker. Every other file shares its worker's
 * loaded modules with the files before it (isolate: false): loading the service's modules
 * again for every file cost more than half of the suite's CPU time.
 */
const isolated = [
  'test/campaign/absences.test.ts',
  'test/campaign/battleDesk.test.ts',
  'test/campaign/scheduler.test.ts',
  'test/db/embedded.test.ts',
  'test/http/host.test.ts',
  'test/http/webhooks.test.ts',
  'test/inbound/read-forget.test.ts',
  'test/inbound/webhook.test.ts',
  'test/mail/replyTo.test.ts',
  'test/pages/gmStart.browser.test.ts',
  'test/pages/notifications.browser.test.ts',
  'test/webhooks/fog.test.ts',
  'test/webhooks/ordersReceived.test.ts',
  'test/webhooks/outbox.test.ts',
  'test/webhooks/ssrf.test.ts',
];

/**
 * Test files that open no database (the game, its words, maps, exports, and pages rendered
 * from the pure game): they give the same result on either database, so a developer's second
 * pass on the server may leave them out (SASG_TESTS=database, `npm run test:database`), as it
 * does BROWSER_ONCE below. `npm test`, which CI runs on both databases, runs every file.
 * test/architecture/databaseFree.test.ts checks that nothing these files import reaches a database.
 */
export const DATABASE_FREE_DIRS = ['rules', 'orders', 'scenario', 'map', 'words', 'export', 'architecture', 'workers'];
export const DATABASE_FREE_FILES = ['test/mail/reportHeight.browser.test.ts', 'test/inbound/read-forget.test.ts'];
const DATABASE_FREE = [`test/{${DATABASE_FREE_DIRS.join(',')}}/**/*.test.ts`, ...DATABASE_FREE_FILES];
/**
 * Browser tests whose subject is the page in Chromium (clicking every place of the map, a
 * phone's and a desk's layout), not what the database stores: they read a campaign and sign
 * in, which every page test does on both databases. `npm run test:database` leaves them out;
 * together they are about 280 s of a pass on a loaded 2-core machine (the map clicks 247 s).
 */
export const BROWSER_ONCE = ['test/pages/plotClicks.browser.test.ts', 'test/pages/phone.browser.test.ts', 'test/pages/gmDesk.browser.test.ts'];
const skipped = process.env.SASG_TESTS === 'database' ? [...DATABASE_FREE, ...BROWSER_ONCE] : [];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Embedded databases are memory-hungry; two workers suit the 2-core machines this runs on.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: [...isolated, ...skipped], isolate: false } },
      { extends: true, test: { name: 'isolated', include: isolated, exclude: skipped } },
    ],
  },
});
