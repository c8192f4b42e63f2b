/**
 * Orders parser benchmark (not a test). Prints, with the machine, the time to parse and
 * check (checkText: parseOrders, then validateOrders and the movement preview, as the
 * service's check threads do) worst-case texts of 2 KB and 64 KB (MAX_ORDERS_BYTES) on the
 * built-in map: near misses of every place name on one MOVE line, one misspelling repeated,
 * many short lines of near misses, a line of unclosed single quotes and spaces, and a line
 * of spaces ending in one letter.
 * Target: linear in the text (the same ms per KB at 2 KB and 64 KB); 64 KB in tens of ms,
 * never seconds. Last, what the worker thread adds to a one-line check.
 */
import os from 'node:os';
import { checkText } from '../src/orders/check.js';
import { MAX_ORDERS_BYTES } from '../src/orders/index.js';
import { builtInScenario } from '../src/scenario/builtin.js';
import { scenarioToState } from '../src/scenario/toState.js';
import type { Scenario } from '../src/scenario/types.js';
import { CheckPool } from '../src/workers/checkPool.js';
import { machineLine } from './machine.js';

const state = scenarioToState(builtInScenario('caribbean') as Scenario);
const names = state.nodes.map((n) => n.name);
const fleet = state.fleets.find((f) => f.power === 'british')!.name;
const miss = (s: string) => s.split(' ').map((w) => (w.length > 3 ? w.slice(0, 2) + w.slice(3) : w)).join(' ');

/** Text of `bytes` bytes (UTF-8) from a header and repeated pieces. */
function fill(head: string, piece: (i: number) => string, bytes: number): string {
  let text = head;
  for (let i = 0; ; i++) {
    const next = piece(i);
    if (Buffer.byteLength(text + next) > bytes) break;
    text += next;
  }
  return text;
}

const CASES: Record<string, (bytes: number) => string> = {
  'near misses, one line': (b) => fill(`POWER british\nFLEET ${fleet}: MOVE `, (i) => `${miss(names[i % names.length]!)} `, b),
  'one misspelling repeated': (b) => fill(`POWER british\nFLEET ${fleet}: MOVE `, () => 'Kingstn ', b),
  'near misses, many lines': (b) => fill('POWER british\n', (i) => `FLEET ${fleet}: MOVE ${miss(names[i % names.length]!)} ${miss(names[(i + 1) % names.length]!)}\n`, b),
  'unclosed quotes and spaces': (b) => fill(`POWER british\nFLEET ${fleet}: MOVE `, (i) => (i % 2 ? "'x " : '          '), b),
  // Trailing-space trimming by /\s+$/ was quadratic on this (64 KB: 14 s).
  'spaces, then one letter': (b) => `${fill(`POWER british\nFLEET ${fleet}: MOVE`, () => ' ', b - 1)}x`,
};

const input = (text: string) => ({ text, power: 'british', campaign: { id: 'bench', slug: 'bench' }, powerLineOptional: false });

/** The check the service makes, as its worker thread runs it (src/campaign/checkText.ts). */
function checkOnce(text: string): number {
  const t0 = performance.now();
  checkText(state, input(text));
  return performance.now() - t0;
}

function median(times: number[]): number {
  return [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

console.log(machineLine());
console.log(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} (other work on the machine slows every figure)`);
console.log('parse + check of worst-case orders texts (median of 9 runs after 2 warm-up runs); linear = the same ms per KB at both sizes:');
const perKb: Record<string, number[]> = {};
for (const bytes of [2048, MAX_ORDERS_BYTES]) {
  for (const [name, make] of Object.entries(CASES)) {
    const text = make(bytes);
    for (let i = 0; i < 2; i++) checkOnce(text);
    const times = Array.from({ length: 9 }, () => checkOnce(text));
    const kb = Buffer.byteLength(text) / 1024;
    (perKb[name] ??= []).push(Math.min(...times) / kb);
    console.log(`  ${String(Buffer.byteLength(text)).padStart(6)} bytes  ${name.padEnd(28)} ${median(times).toFixed(2).padStart(8)} ms  (fastest ${Math.min(...times).toFixed(2)} ms, ${(Math.min(...times) / kb).toFixed(3)} ms per KB)`);
  }
}
console.log('fastest run\'s ms per KB, 64 KB against 2 KB (reference; 1.0 = linear, well above 1 = worse than linear; the fastest run is the least disturbed by other work):');
for (const [name, [small, large]] of Object.entries(perKb)) console.log(`  ${name.padEnd(28)} ${small!.toFixed(3)} → ${large!.toFixed(3)} ms per KB, ratio ${(large! / small!).toFixed(2)}`);

// The service runs the check on a worker thread (src/workers/checkPool.ts). What that costs on
// top, for a one-line text, with the state already kept by the thread: why there is no
// in-process shortcut for small texts.
const pool = new CheckPool({ size: 1 });
const oneLine = `FLEET ${fleet}: MOVE Kingstn`;
await pool.check('bench', '1', state, input(oneLine));
const viaPool: number[] = [];
for (let i = 0; i < 200; i++) {
  const t0 = performance.now();
  await pool.check('bench', '1', state, input(oneLine));
  viaPool.push(performance.now() - t0);
}
const inProcess = Array.from({ length: 200 }, () => checkOnce(oneLine));
console.log(`one-line text: ${median(inProcess).toFixed(3)} ms in process (reference), ${median(viaPool).toFixed(3)} ms through the check pool (median of 200), ratio ${(median(viaPool) / median(inProcess)).toFixed(1)}`);
await pool.close();
