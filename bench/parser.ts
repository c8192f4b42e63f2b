/**
 * Orders parser benchmark (not a test; issue 13). Prints, with the machine, the time to
 * parse and check (parseOrders, then validateOrders and the movement preview, as the check
 * route does) worst-case texts of 2 KB and 64 KB (MAX_ORDERS_BYTES) on the built-in map:
 * near misses of every place name on one MOVE line, one misspelling repeated, many short
 * lines of near misses, a line of unclosed single quotes and spaces, and a line of
 * spaces ending in one letter.
 * Target: linear in the text; 64 KB in a few ms to a few tens of ms, never seconds.
 */
import { MAX_ORDERS_BYTES, parseOrders } from '../src/orders/index.js';
import { previewMovement } from '../src/rules/movement/index.js';
import { validateOrders } from '../src/rules/validateOrders.js';
import { builtInScenario } from '../src/scenario/builtin.js';
import { scenarioToState } from '../src/scenario/toState.js';
import type { Scenario } from '../src/scenario/types.js';
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

function checkOnce(text: string): number {
  const t0 = performance.now();
  const parsed = parseOrders(text, state, { power: 'british' });
  if (parsed.orders) {
    validateOrders(state, parsed.orders);
    previewMovement(state, parsed.orders.fleets, 'british');
  }
  return performance.now() - t0;
}

console.log(machineLine());
console.log('parse + check of worst-case orders texts (median of 9 runs after 2 warm-up runs):');
for (const bytes of [2048, MAX_ORDERS_BYTES]) {
  for (const [name, make] of Object.entries(CASES)) {
    const text = make(bytes);
    for (let i = 0; i < 2; i++) checkOnce(text);
    const times = Array.from({ length: 9 }, () => checkOnce(text)).sort((a, b) => a - b);
    console.log(`  ${String(Buffer.byteLength(text)).padStart(6)} bytes  ${name.padEnd(28)} ${times[4]!.toFixed(2).padStart(8)} ms  (fastest ${times[0]!.toFixed(2)} ms)`);
  }
}
