import { defineConfig } from 'vitest/config';

/**
 * `npm run test:unit`: the game and its words without a database or a browser (rules,
 * orders, scenario, map, words, export) and the layer check, for the everyday loop.
 * `npm test` runs these too.
 */
export default defineConfig({
  test: {
    include: ['test/{rules,orders,scenario,map,words,export,architecture}/**/*.test.ts'],
    exclude: ['test/**/*.browser.test.ts'],
    testTimeout: 60_000,
    maxWorkers: 2,
  },
});
