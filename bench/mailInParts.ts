/**
 * Benchmark (not a test; mail in): the CPU each part of an order mail's handling costs, in
 * this process and in the PostgreSQL backends, one mail at a time and without SMTP, so that
 * the figures hold still on a noisy machine where bench/mailIn.ts's throughput ratio moves
 * by ±0.05 from run to run. Each part is run N times (default 300) after 20 to warm up,
 * twice; the second pass is the warm one:
 *   - the sender look-up (identifySender: one statement);
 *   - storing (the seal: parse, mask, leak check, look-up; and the insert);
 *   - receiving whole, as the SMTP listener does (stored already claimed, then the check, the
 *     answer and the orders-outcome statement);
 *   - the answers' way out without SMTP (claim and mail-sent; the transport answers at once).
 * A part's own cost is its line less the one above it.
 * Usage: tsx bench/mailInParts.ts   (server only: PostgreSQL backends are read from /proc; N=…)
 */
import { createCampaign } from '../src/campaign/createCampaign.js';
import { setPlayer } from '../src/campaign/players.js';
import { openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';
import { identifySender } from '../src/campaign/inbox/identifySender.js';
import { receiveInbound, storeInbound } from '../src/inbound/index.js';
import type { MailTransport } from '../src/mail/transport.js';
import { sendDueMail } from '../src/mail/worker.js';
import { databaseCpuMs, machineLine } from './machine.js';
import { orderMail } from './mailInWorld.js';
import { scratchDatabase } from './scratchDb.js';

const N = Number(process.env.N ?? 300);
const WARM = 20;
const SLUG = 'parts-1805';
const PASSWORD = 'hearts-of-oak';
const FROM = 'bench@example.org'; // orderMail's From
const nullTransport: MailTransport = { kind: 'smtp', from: 'orders@steady.example', description: 'answers at once', send: async () => ({ messageId: '', response: '' }), close() {} };

console.log(machineLine());
const scratch = scratchDatabase('server', 'parts');
const db = await openDatabase(await scratch.target());
const pgMs = () => databaseCpuMs(db.sql);
const nodeMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const line = (name: string, n: number, pg: number, node: number, wall: number) =>
  console.log(`  ${name.padEnd(44)} PostgreSQL ${(pg / n).toFixed(2)} ms, this process ${(node / n).toFixed(2)} ms, wall ${(wall / n).toFixed(2)} ms per mail`);

try {
  await migrate(db.sql);
  const c = await createCampaign(db, { scenario: 'caribbean', slug: SLUG, seed: 'parts' });
  await setPlayer(db, c.id, 'british', { name: 'Bench', email: FROM, password: PASSWORD });
  await sendDueMail(db, nullTransport); // the welcome mail, out of the way
  let k = 0;
  const measure = async (name: string, fn: () => Promise<unknown>) => {
    for (let i = 0; i < WARM; i++) await fn();
    const [p0, n0, t0] = [await pgMs(), nodeMs(), performance.now()];
    for (let i = 0; i < N; i++) await fn();
    const [wall, node, pg] = [performance.now() - t0, nodeMs() - n0, (await pgMs()) - p0];
    line(name, N, pg, node, wall);
  };
  const header = { campaign: SLUG, power: 'british', password: PASSWORD };
  for (const pass of ['first pass', 'second pass (warm)']) {
    console.log(`${pass}, ${N} mails each:`);
    await measure('the sender look-up', () => identifySender(db, header, FROM));
    await measure('stored (seal with look-up, insert)', () => storeInbound(db, orderMail(SLUG, PASSWORD, k++, 'p', process.pid), 'smtp', { claim: true }));
    await measure('received (stored, checked, answered, outcome)', () => receiveInbound(db, orderMail(SLUG, PASSWORD, k++, 'p', process.pid), 'smtp', { ratePerHour: 1e6, claim: true }));
    const queued = await db.prisma.outgoingMail.count({ where: { status: 'queued' } });
    const [p0, n0, t0] = [await pgMs(), nodeMs(), performance.now()];
    await sendDueMail(db, nullTransport, { releaseAbandoned: false, maxPerPass: 10_000 });
    line('answers out, no SMTP (claim, mail-sent)', queued, (await pgMs()) - p0, nodeMs() - n0, performance.now() - t0);
  }
} finally {
  await db.close();
  await scratch.drop();
}
