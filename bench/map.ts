/**
 * Benchmark (not a test): drawing the built-in map. The first drawing reads Natural Earth
 * and thins the coast for the map's extent (once per process); later ones reuse it.
 * Usage: tsx bench/map.ts
 */
import { mapFromState, mapFromView, renderMapSvg } from '../src/map/svg.js';
import { seededDice } from '../src/rules/dice.js';
import { openTurn } from '../src/rules/resolve.js';
import { viewFor } from '../src/rules/view.js';
import { builtInScenario } from '../src/scenario/builtin.js';
import { scenarioToState } from '../src/scenario/toState.js';
import { validateScenario } from '../src/scenario/validate.js';

const checked = validateScenario(builtInScenario('caribbean'));
if (!checked.ok) throw new Error('scenario');
const opened = openTurn(scenarioToState(checked.scenario), seededDice('bench-map'));
if (!opened.ok) throw new Error('open');
const state = opened.state;

let t = performance.now();
const first = renderMapSvg(mapFromState(state), { width: 900 });
console.log(`first map (coast computed): ${(performance.now() - t).toFixed(0)} ms, ${(first.length / 1024).toFixed(0)} kB`);
const runs = 200;
t = performance.now();
for (let i = 0; i < runs; i++) renderMapSvg(mapFromView(viewFor(state, i % 2 ? 'british' : 'french')), { width: 900, clickable: true });
console.log(`player map, coast cached: ${((performance.now() - t) / runs).toFixed(2)} ms each (${runs} runs)`);
