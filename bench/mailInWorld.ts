/**
 * The outside world of bench/mailIn.ts: the players' mail client that sends order mails
 * (nodemailer, pooled connections) and the SMTP server the checker's replies are delivered
 * to (the "sink"). Neither is part of the service, so by default they run in a process of
 * their own (`forkWorld`), and the service's process holds only the service; `localWorld`
 * runs them in the caller's process (the bench's "old-style" figure).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';

export const CLIENTS = 4;

/** What a bench mail carries: orders (bench/mailIn.ts), or one despatch and no orders (bench/despatchesByMail.ts). */
export type MailBody = 'orders' | 'despatch';

const ORDERS = [
  'FLEET Jamaica Squadron: HOLD',
  'FLEET Windward Islands Squadron: LEAVE HARBOR MOVE Atlantic east of Martinique',
  'FLEET Leeward Islands Squadron: REPAIR',
];

/** A despatch of a few lines, as a player writes one; `i` makes each text its own. */
function despatchLines(i: number): string[] {
  return [
    'DESPATCH TO french, american',
    `Sir, His Majesty's squadron will not molest your convoy off Norfolk this month (letter ${i}).`,
    'I have the honour to be, Sir, your most obedient servant.',
    'END DESPATCH',
  ];
}

export function orderMail(slug: string, password: string, i: number, tag: string, pid: number, body: MailBody = 'orders'): Buffer {
  return Buffer.from([
    `Message-ID: <${tag}-${i}-${pid}@bench.example>`,
    'Date: Mon, 3 Feb 2025 15:45:09 +0000',
    'From: Horatio Nelson <bench@example.org>',
    'To: orders@steady.example',
    `Subject: ${body === 'orders' ? 'Orders' : 'Despatch'}, turn 1 (${i})`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=UTF-8',
    '',
    `CAMPAIGN ${slug}`,
    'POWER british',
    `PASSWORD ${password}`,
    ...(body === 'orders' ? ['TURN 1', '', ...ORDERS] : ['', ...despatchLines(i)]),
    '',
    '-- ',
    'Horatio',
    '',
  ].join('\r\n'));
}

/** What to send: `count` mails (order mails unless `body` says) tagged `tag` to the listener at `port`. */
export interface Batch { port: number; slug: string; password: string; tag: string; count: number; pid: number; body?: MailBody }

/** Send the batch over CLIENTS pooled connections; resolves when every one had its 250. */
async function sendAll(b: Batch): Promise<void> {
  const client = nodemailer.createTransport({ host: '127.0.0.1', port: b.port, secure: false, ignoreTLS: true, pool: true, maxConnections: CLIENTS, maxMessages: Infinity });
  let next = 0;
  const lane = async () => {
    while (next < b.count) {
      const i = next++;
      await client.sendMail({ envelope: { from: 'bench@example.org', to: ['orders@steady.example'] }, raw: orderMail(b.slug, b.password, i, b.tag, b.pid, b.body) });
    }
  };
  try { await Promise.all(Array.from({ length: Math.min(CLIENTS, b.count) }, lane)); } finally { client.close(); }
}

/** The sink: an SMTP server that notes, by In-Reply-To, which replies arrived. */
async function startSink(): Promise<{ port: number; arrived: (id: string) => Promise<void>; close: () => Promise<void> }> {
  const seen = new Set<string>();
  const waiting = new Map<string, () => void>();
  const sink = new SMTPServer({
    authOptional: true, disabledCommands: ['AUTH', 'STARTTLS'], logger: false,
    onData(stream, _s, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const inReplyTo = /^In-Reply-To:\s*(<[^>]*>)/im.exec(Buffer.concat(chunks).toString('latin1'))?.[1];
        if (inReplyTo) { seen.add(inReplyTo); waiting.get(inReplyTo)?.(); waiting.delete(inReplyTo); }
        cb();
      });
    },
  });
  await new Promise<void>((r) => sink.listen(0, '127.0.0.1', () => r()));
  return {
    port: (sink.server.address() as { port: number }).port,
    arrived: (id) => (seen.has(id) ? Promise.resolve() : new Promise<void>((r) => waiting.set(id, r))),
    close: () => new Promise<void>((r) => sink.close(() => r())),
  };
}

/** The outside world as the bench drives it. */
export interface World {
  readonly where: 'own process' | 'same process';
  sinkPort: number;
  send(b: Batch): Promise<void>;
  /** Resolves when the replies to these Message-IDs reached the sink. */
  arrived(...ids: string[]): Promise<void>;
  /** CPU (user + system, ms) the world's process has used so far (same process: 0, it cannot be told apart). */
  cpuMs(): Promise<number>;
  close(): Promise<void>;
}

export async function localWorld(): Promise<World> {
  const sink = await startSink();
  return { where: 'same process', sinkPort: sink.port, send: sendAll, arrived: async (...ids) => { await Promise.all(ids.map(sink.arrived)); }, cpuMs: async () => 0, close: sink.close };
}

type Op = { op: 'send'; batch: Batch } | { op: 'arrived'; ids: string[] } | { op: 'cpu' } | { op: 'close' };
type Request = { n: number } & Op;
type Answer = { n: number; ok: true; value?: number } | { n: number; ok: false; error: string };

/** The world in a child process (forked with the same loader: tsx), spoken to over IPC. */
export async function forkWorld(): Promise<World> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--world'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = new Map<number, { resolve: (v: number | undefined) => void; reject: (e: Error) => void }>();
  let n = 0;
  const ready = new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { sinkPort: number }).sinkPort));
    child.once('exit', (code) => reject(new Error(`bench world exited with ${code}`)));
  });
  const sinkPort = await ready;
  child.on('message', (m) => {
    const a = m as Answer;
    const p = pending.get(a.n);
    if (!p) return;
    pending.delete(a.n);
    if (a.ok) p.resolve(a.value); else p.reject(new Error(a.error));
  });
  const ask = (r: Op) => new Promise<number | undefined>((resolve, reject) => {
    const req = { ...r, n: ++n } as Request;
    pending.set(req.n, { resolve, reject });
    child.send(req);
  });
  return {
    where: 'own process', sinkPort,
    send: async (batch) => { await ask({ op: 'send', batch }); },
    arrived: async (...ids) => { await ask({ op: 'arrived', ids }); },
    cpuMs: async () => (await ask({ op: 'cpu' }))!,
    close: async () => {
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      await ask({ op: 'close' });
      await exited;
    },
  };
}

if (process.argv.includes('--world') && process.send) {
  const sink = await startSink();
  const reply = (a: Answer) => process.send!(a);
  process.on('message', (m) => {
    const r = m as Request;
    const done = (p: Promise<number | void>) => p.then((v) => reply({ n: r.n, ok: true, ...(typeof v === 'number' ? { value: v } : {}) }), (err: unknown) => reply({ n: r.n, ok: false, error: String(err) }));
    switch (r.op) {
      case 'send': void done(sendAll(r.batch)); break;
      case 'arrived': void done(Promise.all(r.ids.map(sink.arrived)).then(() => undefined)); break;
      case 'cpu': { const u = process.cpuUsage(); void done(Promise.resolve((u.user + u.system) / 1000)); break; }
      case 'close': void done(sink.close()).then(() => process.disconnect()); break;
    }
  });
  process.send({ sinkPort: sink.port });
}
