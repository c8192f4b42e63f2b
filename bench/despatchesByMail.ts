/**
 * Benchmark (not a test; despatches by mail): 1,000 mails, each carrying one DESPATCH block
 * and no orders (to two powers, `instant` delivery), sent by SMTP over loopback to the
 * service's listener and each handled: stored, password checked, the despatch stored with a
 * mail to each recipient, and the checker's confirmation queued in the outbox. Against the
 * bare receiver (smtp-server + mailparser, nothing kept: bench/bareReceiver.ts) fed the same
 * 1,000 mails by the same client in the same run. Goal: handled ≥ 0.3 of bare.
 *
 * The players' mail client and the SMTP sink the worker delivers to run in a process of
 * their own (bench/mailInWorld.ts), as in bench/mailIn.ts; the mail worker runs as in the
 * service (woken by the listener), so the mails it sends meanwhile are part of the cost.
 * Usage: tsx bench/despatchesByMail.ts embedded|server   (N=… mails, default 1000)
 */
import { createCampaign } from '../src/campaign/createCampaign.js';
import { setPlayer } from '../src/campaign/players.js';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { startSmtpListener } from '../src/inbound/smtp.js';
import { makeTransport } from '../src/mail/transport.js';
import { sendDueMail, startMailWorker } from '../src/mail/worker.js';
import { startBareReceiver } from './bareReceiver.js';
import { machineLine, peakRssMb } from './machine.js';
import { CLIENTS, forkWorld, type World } from './mailInWorld.js';
import { scratchDatabase } from './scratchDb.js';

const kind = process.argv[2] === 'server' ? 'server' : 'embedded';
const N = Number(process.env.N ?? 1000);
const WARM_UP = 40;
const GOAL = 0.3;
// --no-worker: the mail worker does not run while the mails are handled (what handling alone costs).
const withWorker = !process.argv.includes('--no-worker');

const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };

/** ms for the world to send `count` mails to the bare receiver (every one parsed). */
async function bareRun(world: World, tag: string, count: number): Promise<number> {
  const server = await startBareReceiver();
  const t0 = performance.now();
  await world.send({ port: server.port, slug: 'bare', password: 'x', tag, count, pid: process.pid, body: 'despatch' });
  const ms = performance.now() - t0;
  await server.close();
  if (server.parsed() !== count) throw new Error(`the bare receiver parsed ${server.parsed()} of ${count}`);
  return ms;
}

console.log(machineLine());
const scratch = scratchDatabase(kind, 'despatch');
const db = await openDatabase(await scratch.target());
let world: World | null = null;
try {
  await migrate(db.sql);
  const c = await createCampaign(db, { scenario: 'caribbean', slug: 'despatch-bench', seed: 'bench' });
  const password = 'hearts-of-oak';
  await setPlayer(db, c.id, 'british', { name: 'Bench', email: 'bench@example.org', password });
  await setPlayer(db, c.id, 'french', { name: 'Other', email: 'other@example.org', password: 'vive-l-empereur' });
  await setPlayer(db, c.id, 'american', { name: 'Third', email: 'third@example.org', password: 'old-ironsides' });
  world = await forkWorld();
  const transport = makeTransport({ SMTP_URL: `smtp://127.0.0.1:${world.sinkPort}?ignoreTLS=true`, DATA_DIR: '/nonexistent' });
  await sendDueMail(db, transport); // the welcome mails, out of the way
  let worker = withWorker ? startMailWorker(db, transport, { intervalSeconds: 60 }) : null;
  const listener = await startSmtpListener(db, { port: 0, ratePerHour: 1_000_000, mailQueued: () => worker?.kick() });

  /** Send `count` despatch mails tagged `tag`; resolves when every one is handled. */
  const handledRun = async (tag: string, count: number) => {
    const t0 = performance.now();
    await world!.send({ port: listener.port, slug: c.slug, password, tag, count, pid: process.pid, body: 'despatch' });
    await listener.idle();
    return performance.now() - t0;
  };
  /** Of the mails tagged `tag`: how many are handled, have their despatch stored, and their confirmation queued. */
  const done = async (tag: string) => {
    const like = `<${tag}-%`;
    const [r] = await db.sql.query<{ handled: number; despatches: number; confirmations: number }>(
      `SELECT (SELECT count(*)::int FROM "InboundMessage" WHERE "messageId" LIKE $1 AND status = 'handled') AS handled,
              (SELECT count(*)::int FROM "Despatch" d JOIN "InboundMessage" m ON m.id = d."inboundId" WHERE m."messageId" LIKE $1) AS despatches,
              (SELECT count(*)::int FROM "OutgoingMail" WHERE headers->>'In-Reply-To' LIKE $1) AS confirmations`,
      [like],
    );
    return r!;
  };
  const drained = async () => {
    worker ??= startMailWorker(db, transport, { intervalSeconds: 60 });
    // Kicked until the queue is empty (a pass stopped at its cap goes on by itself).
    while (await db.prisma.outgoingMail.count({ where: { status: { in: ['queued', 'sending'] } } }) > 0) { worker.kick(); await new Promise((r) => setTimeout(r, 50)); }
  };

  // Warm-up (JIT, connections, the first password check), then one run of each, the bare one first.
  await handledRun('warm', WARM_UP);
  await bareRun(world, 'bare-warm', WARM_UP);
  await drained();
  if (!withWorker) { await worker?.stop(); worker = null; }
  const bareMs = await bareRun(world, 'bare', N);
  const mailsBefore = await db.prisma.outgoingMail.count();
  const c0 = cpuMs();
  const t0 = performance.now();
  const handledMs = await handledRun('d', N);
  const cpu = (cpuMs() - c0) / N;
  const got = await done('d');
  if (got.handled !== N || got.despatches !== N || got.confirmations !== N) {
    throw new Error(`of ${N} despatch mails: ${got.handled} handled, ${got.despatches} despatches stored, ${got.confirmations} confirmations queued`);
  }
  const queued = (await db.prisma.outgoingMail.count()) - mailsBefore;
  await drained();
  const allMs = performance.now() - t0;
  await listener.close();
  await worker?.stop();
  transport.close();

  const bareRate = (N / bareMs) * 1000;
  const handledRate = (N / handledMs) * 1000;
  const ratio = handledRate / bareRate;
  const p = `${kind}:`;
  console.log(`${p} ${N} mails over ${CLIENTS} connections, each one DESPATCH TO french, american and no orders; client and sink in their own process`);
  console.log(`${p} bare smtp-server + mailparser: ${bareRate.toFixed(0)} msg/s (${(bareMs / N).toFixed(1)} ms/msg)`);
  console.log(`${p} despatch mail handled (stored, checked, despatch stored, its mails and the confirmation queued): ${handledRate.toFixed(0)} msg/s (${(handledMs / N).toFixed(1)} ms/msg, CPU of this process ${cpu.toFixed(1)} ms/msg, ${withWorker ? "the mail worker's sends included" : 'no mail worker running'})`);
  console.log(`${p} every mail out (${queued}: the confirmations and each recipient's copy, in the sink): ${(allMs / 1000).toFixed(1)} s; peak RSS ${peakRssMb()} MB`);
  console.log(`${p} 1,000 despatches by mail, handled against the bare receiver of the same run: ratio ${ratio.toFixed(3)} (goal ≥ ${GOAL}: ${ratio >= GOAL ? 'met' : 'NOT met'})`);
} finally {
  await world?.close().catch(() => undefined);
  await db.close();
  await scratch.drop();
}
