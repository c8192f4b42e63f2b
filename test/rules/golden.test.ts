// Golden test: the built-in scenario, fixed seeds and a fixed set of orders. The whole
// event log is checked in (test/golden/) and was read through by hand once; any change to
// a rule, to the dice order or to an event's words shows up here as a diff.
import { describe, expect, it } from 'vitest';
import { playGolden } from '../support/goldenCaribbean.js';

describe('golden: the Caribbean, two turns', () => {
  it('gives the checked-in event log, byte for byte', async () => {
    const { opening, turns } = playGolden();
    const log: unknown[] = [...opening, ...turns.flatMap((t) => t.events)];
    await expect(`${JSON.stringify(log, null, 1)}\n`).toMatchFileSnapshot('../golden/caribbean-two-turns.json');
  });
});
