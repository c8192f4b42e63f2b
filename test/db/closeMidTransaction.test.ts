// Ctrl-C or SIGTERM while a transaction is open on the embedded database (the demo campaign
// being made at first start, a resolve in flight): the database closes and the process ends.
// PGlite 0.4 alone lets that transaction's next statement reach the PostgreSQL that has exited,
// traps, and retries it forever at 100% CPU (src/db/embedded.ts, closePGlite). The scenario runs
// in a child process, so a regression fails this test by a time limit instead of blocking the
// test run's own thread.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const SCENARIO = `
import { openDatabase } from './src/db/client.ts';
const db = await openDatabase({ kind: 'embedded', dir: null });
let release;
const gate = new Promise((r) => { release = r; });
const inFlight = db.sql.transaction(async (tx) => {
  await tx.query('SELECT 1');
  await gate;
  await tx.query('SELECT 2');
  return 'committed';
}).then((v) => v, (e) => 'failed: ' + e.message);
await new Promise((r) => setTimeout(r, 50));
await db.close();
console.log('closed');
release();
console.log('transaction ' + await inFlight);
const after = await db.sql.query('SELECT 3').then(() => 'answered', (e) => 'refused: ' + e.message);
console.log('query after close ' + after);
`;

describe('closing the embedded database with a transaction open', () => {
  it('fails that transaction and anything after it, and the process ends', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCENARIO], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { out += d.toString(); });
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => child.on('exit', (c, s) => resolve([c, s])));
    clearTimeout(timer);
    expect(signal, `the process did not end by itself:\n${out}`).toBeNull();
    expect(code, out).toBe(0);
    expect(out).toContain('closed');
    expect(out).toContain('transaction failed: the embedded database is closed');
    expect(out).toMatch(/query after close refused: /);
  }, 120_000);
});
