/**
 * Scratch measurement (not a test): what writing a turn's stateBefore (~44 KB of JSON) costs the
 * server by column type, through the raw driver on one connection, in a transaction per write
 * (rolled back). Median of N: client ms, and server CPU ms of the backend.
 * Usage: tsx bench/jsonColumn.ts   (DATABASE_URL or local postgres)
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { builtInScenario } from '../src/scenario/builtin.js';
import { scenarioToState } from '../src/scenario/toState.js';
import type { Scenario } from '../src/scenario/types.js';

const N = Number(process.env.N ?? 300);
const url = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const text = JSON.stringify(scenarioToState(builtInScenario('caribbean') as Scenario));
const c = new pg.Client({ connectionString: url });
await c.connect();
const { pid } = (await c.query('SELECT pg_backend_pid() AS pid')).rows[0] as { pid: number };
const cpu = () => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
await c.query(`CREATE TEMP TABLE tb (id int primary key, v jsonb COMPRESSION lz4, j json COMPRESSION lz4, t text COMPRESSION lz4, p jsonb)`);
await c.query(`INSERT INTO tb (id) VALUES (1)`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`stateBefore ${text.length} bytes; N=${N}`);
for (const [label, sql] of [
  ['jsonb lz4 (now)', 'UPDATE tb SET v = $1::jsonb WHERE id = 1'],
  ['json lz4', 'UPDATE tb SET j = $1::json WHERE id = 1'],
  ['text lz4', 'UPDATE tb SET t = $1::text WHERE id = 1'],
  ['jsonb pglz', 'UPDATE tb SET p = $1::jsonb WHERE id = 1'],
  ['no stateBefore (small param)', 'UPDATE tb SET t = $1::text WHERE id = 1'],
] as const) {
  const times: number[] = [];
  const arg = label.startsWith('no ') ? 'x' : text;
  const c0 = cpu();
  for (let i = 0; i < N; i++) {
    await c.query('BEGIN');
    const t0 = performance.now();
    await c.query(sql, [arg]);
    times.push(performance.now() - t0);
    await c.query('ROLLBACK');
  }
  console.log(`  ${label.padEnd(30)} ${median(times).toFixed(3)} ms client (median), backend CPU ${((cpu() - c0) / N).toFixed(3)} ms/write incl. BEGIN/ROLLBACK`);
}
await c.end();
