import { defineConfig } from 'vitest/config';

/**
 * Test files whose module state cannot be shared with others: they change process.env, fake
 * the clock or timers, so each runs in a fresh worker. Every other file shares its worker's
 * loaded modules with the files before it (isolate: false): loading the service's modules
 * again for every file cost more than half of the suite's CPU time.
 */
const isolated = [
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

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Embedded databases are memory-hungry; two workers suit the 2-core machines this runs on.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: isolated, isolate: false } },
      { extends: true, test: { name: 'isolated', include: isolated } },
    ],
  },
});
