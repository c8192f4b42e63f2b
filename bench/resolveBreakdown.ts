/**
 * Where one Caribbean resolve's time goes (not a test): the steps of resolveOpenTurn
 * (src/campaign/resolveTurn.ts) done one by one in the same transaction, each timed: the
 * locks, the read, the rules, the reports' inputs (turnReportMails), the JSON of the
 * write's parameters (with their bytes), the write statement(s), COMMIT. The state is kept
 * (read before, as a page would), as in the bench's first figure.
 * Usage: tsx bench/resolveBreakdown.ts embedded|server   (BENCH_RUNS=n, default 7: median)
 */
import { createCampaign } from '../src/campaign/createCampaign.js';
import { setPlayer } from '../src/campaign/players.js';
import { readForResolve } from '../src/campaign/resolveRead.js';
import { storeTurn } from '../src/campaign/resolveWrite.js';
import { submitOrders } from '../src/campaign/submitOrders.js';
import { turnReportMails } from '../src/campaign/turnMail.js';
import { pickOrders } from '../src/campaign/turnOrders.js';
import { freshSeed } from '../src/campaign/seeds.js';
import { loadState } from '../src/db/campaignStore.js';
import { migrate } from '../src/db/migrate.js';
import { lockStateForWriteRaw } from '../src/db/stateLock.js';
import { mailsPart } from '../src/mail/enqueue.js';
import { seededDice } from '../src/rules/dice.js';
import { resolveTurn as runRules } from '../src/rules/resolve.js';
import { openCounted } from './countedDb.js';
import { databaseCpuMs, machineLine } from './machine.js';
import { scratchDatabase } from './scratchDb.js';

const kind = process.argv[2] === 'embedded' ? 'embedded' : 'server';
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const PLAYERS = ['british', 'french', 'american'];
const ORDERS: Record<string, string> = {
  british: 'POWER british\nFLEET "Jamaica Squadron": LEAVE HARBOR MOVE "South of Jamaica"',
  french: 'POWER french\nFLEET "Escadre de la Martinique": HOLD',
  american: 'POWER american\nFLEET "Chesapeake Squadron": LEAVE HARBOR MOVE "Hampton Roads"',
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

console.log(machineLine());
const scratch = scratchDatabase(kind, 'breakdown');
const db = await openCounted(await scratch.target());
const rows: Record<string, number>[] = [];
let bytes: Record<string, number> = {};
let statements = 0;
try {
  await migrate(db.sql);
  for (let i = 0; i < RUNS + 1; i++) {
    const made = await createCampaign(db, { scenario: 'caribbean', seed: 'bench-resolve', slug: `carib-${i}` });
    for (const p of PLAYERS) await setPlayer(db, made.id, p, { name: p, email: `${p}@example.org`, password: `bench-password-${p}` });
    for (const p of PLAYERS) await submitOrders(db, made.id, p, { text: ORDERS[p]!, source: 'api' });
    await loadState(db.prisma, made.id); // kept, as after a page read
    const t: Record<string, number> = {};
    let mark = performance.now();
    const lap = (name: string) => { const now = performance.now(); t[name] = (t[name] ?? 0) + now - mark; mark = now; };
    const backends = () => databaseCpuMs(db.sql);
    const cpu0 = kind === 'server' ? await backends() : 0;
    const js0 = process.cpuUsage();
    const sql0 = db.statements();
    const t0 = performance.now();
    let ended = 0;
    await db.sql.transaction(async (tx) => {
      lap('BEGIN');
      await lockStateForWriteRaw(tx, made.id);
      lap('state lock');
      const [turn] = await tx.query<{ id: string; number: number; reruns: number; seed: string }>(
        'SELECT id, number, status::text AS status, reruns, seed, "seedHash" FROM "Turn" WHERE "campaignId" = $1 AND number = 1 FOR UPDATE', [made.id]);
      lap('turn lock');
      const explainRead = process.env.BENCH_EXPLAIN && i === 1 ? {
        async query<T>(sql: string, params?: unknown[]): Promise<T[]> {
          const plan = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, TIMING) ${sql}`, params);
          console.log('read: ' + plan.map((r) => r['QUERY PLAN']).filter((l) => /Planning|Execution/.test(l)).join('; '));
          mark = performance.now();
          return tx.query<T>(sql, params);
        },
      } : tx;
      const read = (await readForResolve(db.prisma, explainRead, made.id, turn!.id))!;
      lap('read');
      const { orders, missing } = pickOrders(read.sets, read.state.powers.filter((p) => p.playable).map((p) => p.key));
      const result = runRules(read.state, orders, seededDice(turn!.seed));
      if (!result.ok) throw new Error(result.error.message);
      lap('JS: rules');
      const now = new Date();
      const label = { seed: turn!.seed, source: 'published' as const, seedHash: null };
      const next = { ...freshSeed(), openedAt: now, openingEvents: result.opening, deadline: null, graceMinutes: 0, autoResolve: false };
      const mails = turnReportMails({
        campaignId: made.id, state: result.state, turn: 1, events: [...result.events, ...result.opening], rerun: false, run: 0,
        missingOrders: missing, dice: label, stored: { turnId: turn!.id, run: 0, count: result.events.length },
      }, { ...read.mail, nextTurn: { number: result.state.turn, deadline: null, status: 'open' } });
      lap('JS: report inputs');
      if (i === 0) {
        // Bytes of the big parameters (measured apart, not timed).
        const before = JSON.stringify(read.state);
        const mailJson = String(mailsPart(mails)!.params[0]);
        const reports = mails.filter((m) => m.render?.kind === 'turn-report').map((m) => JSON.stringify(m.render!.input));
        const view = (m: typeof mails[number]) => (m.render as unknown as { input: { view: Record<string, unknown> } }).input.view;
        const first = mails.find((m) => m.render?.kind === 'turn-report');
        const mapBytes = first ? JSON.stringify({ nodes: view(first).nodes, edges: view(first).edges, shipClasses: view(first).shipClasses }).length : 0;
        bytes = { stateBefore: before.length, mailRows: mailJson.length, mails: mails.length, reportEach: median(reports.map((r) => r.length)), mapInView: mapBytes };
        mark = performance.now();
      }
      const t1 = performance.now();
      JSON.stringify(read.state);
      t['JS: stringify stateBefore (apart)'] = performance.now() - t1;
      const t2 = performance.now();
      mailsPart(mails);
      t['JS: stringify mail rows (apart)'] = performance.now() - t2;
      mark = performance.now();
      // BENCH_EXPLAIN=1 (first run): EXPLAIN ANALYZE of the write, each WITH part's time.
      const runner = process.env.BENCH_EXPLAIN && i === 1 ? {
        async query<T>(sql: string, params?: unknown[]): Promise<T[]> {
          const plan = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, TIMING) ${sql}`, params);
          console.log(plan.map((r) => r['QUERY PLAN']).join('\n'));
          return [{ claimed: 1 } as T];
        },
      } : {
        async query<T>(sql: string, params?: unknown[]): Promise<T[]> {
          lap('write: JS (plan, parameters)');
          if (i === 1) {
            const sizes = (params ?? []).map((x) => (typeof x === 'string' ? x.length : 0)).filter((n) => n > 1000);
            console.log(`write statement: ${sql.length} chars of SQL, ${(params ?? []).length} parameters, ${(params ?? []).reduce<number>((a, x) => a + (typeof x === 'string' ? x.length : 0), 0)} bytes; the big ones: ${sizes.join(', ')}`);
          }
          const out = await tx.query<T>(sql, params);
          lap('write: statement(s)');
          return out;
        },
      };
      const claimed = await storeTurn(runner, {
        campaignId: made.id, turn: turn!, before: read.state, after: result.state, label, resolvedAt: now, next, clearPendingSettings: false,
        audit: [{ actor: 'gm', action: 'turn.resolved', details: { turn: 1 } }], events: result.events, awards: [], missing, mails,
      });
      if (!claimed) throw new Error('not claimed');
      lap('write: JS (plan, parameters)');
      ended = performance.now();
    });
    t['COMMIT'] = performance.now() - ended;
    t['total'] = performance.now() - t0;
    statements = db.statements() - sql0;
    const js = process.cpuUsage(js0);
    t['CPU: this process (ms)'] = (js.user + js.system) / 1000;
    if (kind === 'server') t['CPU: database backends (ms, 10 ms ticks)'] = (await backends()) - cpu0;
    if (i > 0) rows.push(t); // the first is a warm-up
  }
  console.log(`${kind}: one Caribbean resolve (state kept), median of ${RUNS}, ${statements} statements (COMMIT counted, BEGIN not):`);
  for (const k of Object.keys(rows[0]!)) {
    // CPU ticks are 10 ms: their mean says more than their median.
    const v = k.includes('ticks') ? rows.reduce((a, r) => a + r[k]!, 0) / rows.length : median(rows.map((r) => r[k]!));
    console.log(`  ${k.padEnd(42)} ${v.toFixed(2)}${k.includes('(ms') ? '' : ' ms'}${k.includes('ticks') ? ' (mean)' : ''}`);
  }
  console.log(`  bytes: ${JSON.stringify(bytes)}`);
} finally {
  await db.close();
  await scratch.drop();
}
