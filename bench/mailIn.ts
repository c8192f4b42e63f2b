/**
 * Benchmark (not a test; mail in): order mails sent by SMTP over loopback to the service's
 * listener and fully handled (stored, parsed, password checked, orders checked and stored,
 * the checker's reply queued), beside a bare receiver (an smtp-server that only runs
 * mailparser on each message) fed by the same client.
 *
 * The sending mail client and the SMTP sink the replies are delivered to are the outside
 * world, not the service: they run in a process of their own (bench/mailInWorld.ts), for
 * the bare receiver's rounds and the service's alike, so this process holds only the
 * receiver under test. Run in this process instead, they give the figure still printed
 * ("old style, client and sink in the same process") for comparison.
 *
 * Also a floor between the two: the bare receiver plus ONE durable INSERT of the raw message
 * before each 250, the least a receiver that keeps what it accepts must do; the line says
 * how far below the bare receiver that floor is, and where fully handled mail is against it.
 *
 * Prints messages/second of both and the ratio (goal ≥ 0.5), ms per message, how busy the
 * machine was in each (all CPUs, every process) and the service's event loop, CPU per
 * message of this process (every thread: the check thread, GC and the mail worker's
 * sends included), of the scratch database's PostgreSQL backends (server), and of the
 * world's process, time in garbage collection, SQL statements per handled message (server:
 * every statement sent on the pool's connections, BEGIN/COMMIT included), and how long the
 * checker's reply takes to reach the sink once the order mail is handled, with the mail
 * worker polling only every 60 s (goal < 1 s: the listener wakes the worker), sent once
 * the earlier rounds' replies are out.
 * Usage: tsx bench/mailIn.ts embedded|server [--no-old] [--rounds N]
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { PerformanceObserver, monitorEventLoopDelay, performance as perf } from 'node:perf_hooks';
import pg from 'pg';
import { createCampaign } from '../src/campaign/createCampaign.js';
import { setPlayer } from '../src/campaign/players.js';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { startSmtpListener } from '../src/inbound/smtp.js';
import { makeTransport, type MailTransport } from '../src/mail/transport.js';
import { sendDueMail, startMailWorker } from '../src/mail/worker.js';
import { startBareReceiver } from './bareReceiver.js';
import { machineLine, peakRssMb } from './machine.js';
import { CLIENTS, forkWorld, localWorld, type World } from './mailInWorld.js';
import { scratchDatabase } from './scratchDb.js';

const kind = process.argv[2] === 'server' ? 'server' : 'embedded';
const withOld = !process.argv.includes('--no-old');
const roundsArg = process.argv.indexOf('--rounds');
const ROUNDS = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 3;
const MESSAGES = 60;

// Every statement the pg driver sends (Prisma's adapter and our raw SQL both go through it).
let statements = 0;
// MAILIN_SQL_KINDS=1: also count them by their first words (printed per handled round).
const kinds = process.env.MAILIN_SQL_KINDS ? new Map<string, number>() : null;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
  statements++;
  if (kinds) {
    const a = args[0] as string | { text?: string; name?: string };
    const key = (typeof a === 'string' ? a : (a?.name ?? a?.text ?? '?')).replace(/\s+/g, ' ').trim().slice(0, 60);
    kinds.set(key, (kinds.get(key) ?? 0) + 1);
  }
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

// Time in garbage collection (perf_hooks 'gc' entries: pauses of the main thread).
let gcMs = 0;
let gcCount = 0;
new PerformanceObserver((list) => { for (const e of list.getEntries()) { gcMs += e.duration; gcCount++; } }).observe({ entryTypes: ['gc'] });

const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };

/**
 * How busy the whole machine was over a stretch (every process: this one, PostgreSQL, the outside
 * world), in % of all its CPUs, from /proc/stat (Linux; NaN elsewhere). It tells a receiver that
 * waits (on round trips, on its turn on a CPU) from one that is out of CPU.
 */
function machineBusy(): () => number {
  const read = () => {
    try { return readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number); } catch { return null; }
  };
  const s0 = read();
  return () => {
    const s1 = read();
    if (!s0 || !s1) return NaN;
    const d = s1.map((v, i) => v - s0[i]!);
    const total = d.reduce((a, b) => a + b, 0);
    return total > 0 ? (100 * (total - d[3]! - (d[4] ?? 0))) / total : NaN; // idle and iowait are not busy
  };
}

/**
 * The bare receiver: smtp-server + mailparser, nothing kept. With `store`, the floor of a
 * receiver that keeps what it accepts: the same, plus ONE durable INSERT of the raw message
 * (its own transaction, committed before the 250) into a scratch table, as any receiver
 * that answers 250 only for a stored message must do (docs/performance.md, "Mail in").
 */
async function bare(world: World, store?: (raw: Buffer) => Promise<unknown>): Promise<number> {
  const server = await startBareReceiver(store);
  const c0 = cpuMs();
  const busy = machineBusy();
  const t0 = performance.now();
  await world.send({ port: server.port, slug: 'bare', password: 'x', tag: store ? 'floor' : 'bare', count: MESSAGES, pid: process.pid });
  const ms = performance.now() - t0;
  if (!store) bareCpu.push((cpuMs() - c0) / MESSAGES);
  (store ? floorBusy : bareBusy).push(busy());
  await server.close();
  if (server.parsed() !== MESSAGES) throw new Error(`bare receiver parsed ${server.parsed()} of ${MESSAGES}`);
  return ms;
}
const bareCpu: number[] = [];
const bareBusy: number[] = [];
const floorBusy: number[] = [];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const f1 = (x: number) => x.toFixed(1);

console.log(machineLine());
const scratch = scratchDatabase(kind, 'mailin');
const db = await openDatabase(await scratch.target());
const worlds: World[] = [];
try {
  await migrate(db.sql);
  // The floor receiver's table (bare + one durable INSERT): a scratch table of the scratch database.
  await db.sql.query('CREATE TABLE bench_floor (id bigserial PRIMARY KEY, raw bytea NOT NULL)');
  const storeRaw = (raw: Buffer) => db.sql.query('INSERT INTO bench_floor (raw) VALUES ($1)', [raw], 'bench-floor');
  const c = await createCampaign(db, { scenario: 'caribbean', slug: 'bench-1805', seed: 'bench' });
  const password = 'hearts-of-oak';
  await setPlayer(db, c.id, 'british', { name: 'Bench', email: 'bench@example.org', password });
  await setPlayer(db, c.id, 'french', { name: 'Other', email: 'other@example.org', password: 'vive-l-empereur' });

  const own = await forkWorld();
  worlds.push(own);
  const local = withOld ? await localWorld() : null;
  if (local) worlds.push(local);
  // The worker's transport sends to the sink of whichever world a round runs with.
  const transports = new Map(worlds.map((w) => [w, makeTransport({ SMTP_URL: `smtp://127.0.0.1:${w.sinkPort}?ignoreTLS=true`, DATA_DIR: '/nonexistent' })]));
  let current = transports.get(own)!;
  const transport: MailTransport = { kind: 'smtp', from: current.from, description: 'bench sink', send: (m) => current.send(m), close: () => { for (const t of transports.values()) t.close(); } };
  await sendDueMail(db, transport); // the welcome mails, out of the way

  const worker = startMailWorker(db, transport, { intervalSeconds: 60 });
  const listener = await startSmtpListener(db, { port: 0, ratePerHour: 100_000, mailQueued: () => worker.kick() });
  const drained = async () => {
    while (await db.prisma.outgoingMail.count({ where: { status: { in: ['queued', 'sending'] } } }) > 0) await new Promise((r) => setTimeout(r, 50));
  };

  // PostgreSQL CPU: the scratch database's backends, read from /proc (same machine).
  const pgTicks = async (): Promise<Map<number, number>> => {
    const out = new Map<number, number>();
    if (kind !== 'server') return out;
    const rows = await db.sql.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()');
    for (const { pid } of rows) {
      try {
        const f = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
        out.set(pid, Number(f[11]) + Number(f[12])); // utime, stime (fields 14, 15)
      } catch { /* gone, or not on this machine */ }
    }
    return out;
  };
  const pgMsSince = (before: Map<number, number>, after: Map<number, number>) => {
    let ticks = 0;
    for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0);
    return ticks * 10; // CLK_TCK 100
  };

  // MAILIN_THREADS=1: CPU of each of this process's threads over a handled round, by name (/proc/self/task); =tid: each thread apart.
  const threads = (): Map<string, number> => {
    const out = new Map<string, number>();
    if (!process.env.MAILIN_THREADS) return out;
    for (const tid of readdirSync('/proc/self/task')) {
      try {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        const name = tid === String(process.pid) ? 'main' : (/\((.*)\)/.exec(stat)?.[1] ?? '?');
        const f = stat.replace(/^.*\) /, '').split(' ');
        out.set(`${name}#${tid}`, Number(f[11]) + Number(f[12]));
      } catch { /* ended */ }
    }
    return out;
  };
  let round = 0;
  interface Handled { busy: number; loopP50: number; loopP99: number; elu: number; ms: number; sql: number; cpu: number; pg: number; world: number; gc: number; gcs: number; cpuAll: number; pgAll: number; msAll: number }
  const handledRound = async (world: World): Promise<Handled> => {
    const tag = `r${round++}`;
    const before = statements;
    const th0 = threads();
    const [c0, g0, n0, w0, p0] = [cpuMs(), gcMs, gcCount, await world.cpuMs(), await pgTicks()];
    // The main event loop over the round: how late its timers ran (ms) and how busy it was.
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    const elu0 = perf.eventLoopUtilization();
    const busy = machineBusy();
    const t0 = performance.now();
    await world.send({ port: listener.port, slug: c.slug, password, tag, count: MESSAGES, pid: process.pid });
    await listener.idle();
    const ms = performance.now() - t0;
    const machine = busy();
    loop.disable();
    const elu = perf.eventLoopUtilization(elu0).utilization;
    const sql = statements - before;
    const th1 = threads();
    if (th1.size) {
      const by = new Map<string, number>();
      for (const [k, v] of th1) { const name = process.env.MAILIN_THREADS === 'tid' ? k : k.replace(/#\d+$/, ''); by.set(name, (by.get(name) ?? 0) + (v - (th0.get(k) ?? 0)) * 10 / MESSAGES); }
      console.log(`round ${tag} CPU ms/mail by thread:`, [...by].filter(([, v]) => v > 0).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', '));
    }
    if (kinds) { console.log(`round ${tag}:`, [...kinds].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${v} × ${k}`).join('\n  ')); kinds.clear(); }
    const [c1, g1, n1, w1, p1] = [cpuMs(), gcMs, gcCount, await world.cpuMs(), await pgTicks()];
    const done = await db.prisma.inboundMessage.count({ where: { messageId: { startsWith: `<${tag}-` }, status: 'handled' } });
    if (done !== MESSAGES) throw new Error(`${done} of ${MESSAGES} handled in round ${tag}`);
    // And until every reply is in the sink: the service's whole work for these mails.
    await world.arrived(...Array.from({ length: MESSAGES }, (_, i) => `<${tag}-${i}-${process.pid}@bench.example>`));
    const msAll = performance.now() - t0;
    const [c2, p2] = [cpuMs(), await pgTicks()];
    return { busy: machine, loopP50: loop.percentile(50) / 1e6, loopP99: loop.percentile(99) / 1e6, elu, cpuAll: (c2 - c0) / MESSAGES, pgAll: pgMsSince(p0, p2) / MESSAGES, msAll: msAll / MESSAGES, ms, sql: sql / MESSAGES, cpu: (c1 - c0) / MESSAGES, pg: pgMsSince(p0, p1) / MESSAGES, world: (w1 - w0) / MESSAGES, gc: (g1 - g0) / MESSAGES, gcs: (n1 - n0) / MESSAGES };
  };

  const runMode = async (world: World, drain: boolean) => {
    current = transports.get(world)!;
    if (drain) await drained();
    // Warm-up (JIT, connections, first scrypt), then ROUNDS of each, medians.
    await handledRound(world);
    await bare(world);
    if (drain) await bare(world, storeRaw);
    bareCpu.length = 0;
    bareBusy.length = 0;
    floorBusy.length = 0;
    const bareMs: number[] = [];
    const floorMs: number[] = [];
    const full: Handled[] = [];
    // MAILIN_PROFILE=<file>: a CPU profile of this process over the handled rounds (own-process mode).
    const profile = process.env.MAILIN_PROFILE && drain ? new Session() : null;
    if (profile) { profile.connect(); await profile.post('Profiler.enable'); await profile.post('Profiler.setSamplingInterval', { interval: 200 }); }
    for (let k = 0; k < ROUNDS; k++) {
      // Each round starts with the earlier round's replies sent (own-process mode): the bare
      // receiver's rounds do not share the CPU with the service's mail worker.
      if (drain) await drained();
      bareMs.push(await bare(world));
      if (drain) floorMs.push(await bare(world, storeRaw));
      if (drain) await drained();
      if (profile) await profile.post('Profiler.start');
      full.push(await handledRound(world));
      if (profile) { const { profile: prof } = await profile.post('Profiler.stop'); writeFileSync(`${process.env.MAILIN_PROFILE}.${k}.cpuprofile`, JSON.stringify(prof)); }
    }
    const m = (pick: (h: Handled) => number) => median(full.map(pick));
    const bareRate = (MESSAGES / median(bareMs)) * 1000;
    const fullRate = (MESSAGES / m((h) => h.ms)) * 1000;
    const floorRate = floorMs.length ? (MESSAGES / median(floorMs)) * 1000 : NaN;
    return { bareRate, fullRate, floorRate, bareMs: median(bareMs) / MESSAGES, bareCpu: median(bareCpu), bareBusy: median(bareBusy), floorBusy: floorBusy.length ? median(floorBusy) : NaN, m };
  };

  const fresh = await runMode(own, true);
  const p = `${kind}:`;
  console.log(`${p} mail client and reply sink in their own process (the outside world); this process holds only the receiver`);
  console.log(`${p} bare smtp-server + mailparser: ${fresh.bareRate.toFixed(0)} msg/s (${f1(fresh.bareMs)} ms/msg, CPU ${f1(fresh.bareCpu)} ms/msg), ${MESSAGES} mails over ${CLIENTS} connections, median of ${ROUNDS}`);
  console.log(`${p} order mail fully handled (stored, parsed, checked, reply queued): ${fresh.fullRate.toFixed(0)} msg/s (${f1(fresh.m((h) => h.ms) / MESSAGES)} ms/msg)`);
  const ratio = fresh.fullRate / fresh.bareRate;
  console.log(`${p} ratio ${ratio.toFixed(3)} (goal ≥ 0.5: ${ratio >= 0.5 ? 'met' : 'NOT met'})`);
  console.log(`${p} floor: bare + one durable INSERT of the raw message before the 250: ${fresh.floorRate.toFixed(0)} msg/s, ${(fresh.floorRate / fresh.bareRate).toFixed(3)} of bare; fully handled is ${(fresh.fullRate / fresh.floorRate).toFixed(3)} of the floor`);
  console.log(`${p} CPU per handled mail: service process ${f1(fresh.m((h) => h.cpu))} ms (GC pauses ${f1(fresh.m((h) => h.gc))} ms, ${fresh.m((h) => h.gcs * MESSAGES).toFixed(0)} a round), ${kind === 'server' ? `PostgreSQL backends ${f1(fresh.m((h) => h.pg))} ms, ` : ''}outside world ${f1(fresh.m((h) => h.world))} ms`);
  console.log(`${p} the machine (all its CPUs, every process) was busy: bare ${fresh.bareBusy.toFixed(0)}%, floor ${fresh.floorBusy.toFixed(0)}%, fully handled ${fresh.m((h) => h.busy).toFixed(0)}%; over the handled rounds this process's event loop was busy ${fresh.m((h) => h.elu).toFixed(2)} of the time and its timers ran late by ${f1(fresh.m((h) => h.loopP50))} ms (p50), ${f1(fresh.m((h) => h.loopP99))} ms (p99) at 1 ms resolution`);
  console.log(`${p} until every reply is in the sink: ${f1(fresh.m((h) => h.msAll))} ms/msg, CPU per mail: service process ${f1(fresh.m((h) => h.cpuAll))} ms${kind === 'server' ? `, PostgreSQL backends ${f1(fresh.m((h) => h.pgAll))} ms` : ''}`);
  console.log(kind === 'server'
    ? `${p} SQL statements per handled message: ${f1(fresh.m((h) => h.sql))} (mail worker included: it sends the replies meanwhile)`
    : `${p} SQL statements: counted on the server run only`);

  if (local) {
    const old = await runMode(local, false);
    console.log(`${p} old style, client and sink in the same process as the receiver (no drain between rounds): bare ${old.bareRate.toFixed(0)} msg/s, handled ${old.fullRate.toFixed(0)} msg/s, ratio ${(old.fullRate / old.bareRate).toFixed(3)}; CPU per handled mail ${f1(old.m((h) => h.cpu))} ms (client and sink included)`);
    current = transports.get(own)!;
  }

  // One order mail, and the time until its reply reaches the sink (worker polls every 60 s).
  // Each is sent once the replies of the rounds above have all gone out: the figure is one
  // order mail's answer, not the time to drain a queue.
  const waits: number[] = [];
  for (let k = 0; k < 5; k++) {
    await drained();
    const tag = `w${k}`;
    const id = `<${tag}-0-${process.pid}@bench.example>`;
    const t0 = performance.now();
    await own.send({ port: listener.port, slug: c.slug, password, tag, count: 1, pid: process.pid });
    await Promise.race([own.arrived(id), new Promise((r) => setTimeout(r, 70_000))]);
    waits.push(performance.now() - t0);
  }
  const sorted = [...waits].sort((a, b) => a - b);
  console.log(`${p} checker reply in the SMTP sink after an order mail, nothing else queued (worker polls every 60 s): median ${sorted[2]!.toFixed(0)} ms, slowest ${sorted[4]!.toFixed(0)} ms of 5 (goal < 1,000 ms: ${sorted[4]! < 1000 ? 'met' : 'NOT met'})`);
  await listener.close();
  await worker.stop();
  transport.close();
  console.log(`${p} peak RSS ${peakRssMb()} MB`);
} finally {
  for (const w of worlds) await w.close().catch(() => undefined);
  await db.close();
  await scratch.drop();
}
