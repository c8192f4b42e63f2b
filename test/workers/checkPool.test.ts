// Orders are parsed and checked on worker threads (src/workers/checkPool.ts). These run the
// real threads (from TypeScript, as vitest does) on the built-in map: the answer is the
// in-process check's, the state crosses to a thread once per stateVersion, and a check that
// fails or a thread that dies gives a clear error while the pool goes on.
import { afterEach, describe, expect, it } from 'vitest';
import { checkText, type CheckTextInput } from '../../src/orders/check.js';
import type { CampaignState } from '../../src/rules/state.js';
import { builtInScenario } from '../../src/scenario/builtin.js';
import { scenarioToState } from '../../src/scenario/toState.js';
import type { Scenario } from '../../src/scenario/types.js';
import { CheckFailed, CheckPool } from '../../src/workers/checkPool.js';

const state = scenarioToState(builtInScenario('caribbean') as Scenario);
const input = (text: string): CheckTextInput => ({ text, power: 'british', campaign: { id: 'c1', slug: 'c1' }, powerLineOptional: true });
const fleet = state.fleets.find((f) => f.power === 'british')!.name;
const longText = `FLEET ${fleet}: MOVE ${'Kingstn '.repeat(8000)}`;

const pools: CheckPool[] = [];
const pool = (o?: ConstructorParameters<typeof CheckPool>[0]) => { const p = new CheckPool(o); pools.push(p); return p; };
afterEach(async () => { for (const p of pools.splice(0)) await p.close(); });

describe('orders checks on worker threads', () => {
  it('answer as the in-process check does, with the state sent once per campaign version', async () => {
    const p = pool({ size: 2 });
    const texts = [`FLEET ${fleet}: MOVE Kingstn`, `FLEET ${fleet}: HOLD`, 'POWER french\nFLEET Nowhere: MOVE Atlantis', longText];
    for (const text of texts) expect(await p.check('c1', '7', state, input(text))).toEqual(checkText(state, input(text)));
    // Ten at once on two threads: each thread is sent the state at most once for version 7.
    await Promise.all(Array.from({ length: 10 }, () => p.check('c1', '7', state, input(texts[0]!))));
    expect(p.statesSent).toBeLessThanOrEqual(2);
    // A new version is sent again; the old one is not used for it.
    const moved: CampaignState = { ...state, fleets: state.fleets.filter((f) => f.name !== fleet) };
    const sent = p.statesSent;
    const after = await p.check('c1', '8', moved, input(`FLEET ${fleet}: HOLD`));
    expect(p.statesSent).toBe(sent + 1);
    expect(after.errors.map((e) => e.code)).toEqual(checkText(moved, input(`FLEET ${fleet}: HOLD`)).errors.map((e) => e.code));
    expect(after.errors.length).toBeGreaterThan(0);
  });

  it('a check that throws is a clear error, and the thread goes on checking', async () => {
    const p = pool({ size: 1 });
    const broken = { nodes: null } as unknown as CampaignState;
    await expect(p.check('c2', '1', broken, input('FLEET x: HOLD'))).rejects.toThrow(/orders checker failed on this text \(TypeError/);
    expect((await p.check('c1', '1', state, input(`FLEET ${fleet}: HOLD`))).errors).toEqual([]);
    expect(p.threadCount).toBe(1);
  });

  it('a check past the time limit is stopped with a clear error, and its thread with it', async () => {
    const p = pool({ size: 1, timeLimitMs: 1 });
    const failed = await p.check('c1', '1', state, input(longText)).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(CheckFailed);
    expect((failed as Error).message).toBe('the orders checker took longer than 1 ms on this text and was stopped');
    expect(p.threadCount).toBe(0);
  });

  it('a thread that dies mid-check fails that check clearly and is replaced', async () => {
    const p = pool({ size: 1 });
    await p.check('c1', '1', state, input(`FLEET ${fleet}: HOLD`));
    const inFlight = p.check('c1', '1', state, input(longText));
    // What an out-of-memory stop or a crash looks like from the pool: the thread exits.
    await (p as unknown as { threads: { worker: { terminate(): Promise<number> } }[] }).threads[0]!.worker.terminate();
    await expect(inFlight).rejects.toThrow(/^the orders checker stopped/);
    const next = await p.check('c1', '1', state, input(`FLEET ${fleet}: MOVE Kingstn`));
    expect(next.errors[0]!.message).toMatch(/did you mean/);
    expect(p.threadCount).toBe(1);
    // The fresh thread had to be sent the state again.
    expect(p.statesSent).toBe(2);
  });
});
