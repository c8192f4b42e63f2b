/**
 * Orders are parsed and checked on worker threads, never on the service's event loop
 * (one 1.8 KB text once left /api/health unanswered for 11 s; a 64 KB worst case still costs
 * ~100 ms of parse and check). docs/performance.md, "Orders checks off the event loop", says
 * why this small pool and not a library.
 *
 * - Size: one thread per core but one (the event loop and, embedded, PGlite keep one), at
 *   least 1, at most 4. Threads start when first needed (or on warm()).
 * - The campaign state reaches a thread once per (campaign, state key: its boardVersion,
 *   which order sets do not change; CampaignRead.stateKey): each thread keeps
 *   the states it was sent (up to KEEP_PER_THREAD campaigns), the pool keeps count of what each
 *   holds and sends a state only to a thread that lacks that version. A check goes, if it
 *   can, to an idle thread that has the state already.
 * - A throw while checking comes back as CheckFailed. A thread that dies (or runs out of its
 *   memory, or runs past TIME_LIMIT_MS and is stopped) fails its one check with CheckFailed
 *   and is replaced by a fresh one on the next check.
 * - Runs from TypeScript (vitest, tsx: the thread loads tsx) and from dist/ (`npm start`:
 *   esbuild compiles checkWorker.ts beside this file).
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { CheckTextInput, TextCheck } from '../orders/check.js';
import type { CampaignState } from '../rules/state.js';
import type { CheckReply, CheckRequest } from './checkProtocol.js';

/** A check that could not be made: the message says so in words a player can act on. */
export class CheckFailed extends Error {
  override name = 'CheckFailed';
}

const KEEP_PER_THREAD = 16;
const TIME_LIMIT_MS = 15_000;
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const SCRIPT = new URL(FROM_SOURCE ? './checkWorker.ts' : './checkWorker.js', import.meta.url);

/** tsx's loader API, for threads run from TypeScript (never needed under `npm start`). */
function tsxApi(): string {
  return import.meta.resolve('tsx/esm/api');
}

export function defaultPoolSize(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

interface Task {
  campaignId: string;
  version: string;
  state: CampaignState;
  input: CheckTextInput;
  resolve: (c: TextCheck) => void;
  reject: (e: Error) => void;
  resent?: boolean;
}

interface Thread {
  worker: Worker;
  /** campaignId → the state key (boardVersion) this thread keeps, least recently used first. */
  held: Map<string, string>;
  busy: { task: Task; id: number; timer?: NodeJS.Timeout } | null;
  /** The thread has loaded its code: the time limit counts from then, not from its start. */
  ready: boolean;
  gone: boolean;
}

export interface PoolOptions { size?: number; timeLimitMs?: number }

export class CheckPool {
  readonly size: number;
  private readonly timeLimitMs: number;
  private threads: Thread[] = [];
  private queue: Task[] = [];
  private nextId = 1;
  /** How many times a campaign state was sent to a thread (for tests and the bench). */
  statesSent = 0;

  constructor(options: PoolOptions = {}) {
    this.size = options.size ?? defaultPoolSize();
    this.timeLimitMs = options.timeLimitMs ?? TIME_LIMIT_MS;
  }

  /** Checks `input` against `state`, the campaign's state at `version`, on a worker thread. */
  check(campaignId: string, version: string, state: CampaignState, input: CheckTextInput): Promise<TextCheck> {
    return new Promise((resolve, reject) => {
      this.queue.push({ campaignId, version, state, input, resolve, reject });
      this.pump();
    });
  }

  /** Starts every thread now, so that the first checks do not wait for one to load. */
  warm(): void {
    while (this.threads.length < this.size) this.spawn();
  }

  /** How many threads are running (for tests and the docs' figures). */
  get threadCount(): number {
    return this.threads.length;
  }

  async close(): Promise<void> {
    const threads = this.threads;
    this.threads = [];
    for (const t of threads) {
      t.gone = true;
      if (t.busy) { clearTimeout(t.busy.timer); t.busy.task.reject(new CheckFailed('the service is shutting down; nothing was stored: send the orders again in a moment')); }
    }
    for (const t of this.queue.splice(0)) t.reject(new CheckFailed('the service is shutting down; nothing was stored: send the orders again in a moment'));
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let idle = this.threads.filter((t) => !t.busy);
      if (idle.length === 0 && this.threads.length < this.size) idle = [this.spawn()];
      if (idle.length === 0) return;
      const task = this.queue.shift()!;
      this.run(idle.find((t) => t.held.get(task.campaignId) === task.version) ?? idle[0]!, task);
    }
  }

  private spawn(): Thread {
    // From TypeScript, the thread first loads tsx's hooks (`--import tsx` in execArgv does not
    // reach a worker's entry on Node 20), then the worker's source.
    const entry = FROM_SOURCE
      ? new URL(`data:text/javascript,${encodeURIComponent(`const { register } = await import(${JSON.stringify(tsxApi())}); register(); await import(${JSON.stringify(SCRIPT.href)});`)}`)
      : SCRIPT;
    const worker = new Worker(entry, {
      name: 'orders-check',
      // A runaway text cannot take the service's memory with it: the thread stops and is replaced.
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    worker.unref();
    const thread: Thread = { worker, held: new Map(), busy: null, ready: false, gone: false };
    worker.on('message', (reply: CheckReply | 'ready') => {
      if (reply !== 'ready') this.answered(thread, reply);
      else {
        thread.ready = true;
        if (thread.busy) this.startClock(thread);
      }
    });
    worker.on('error', (err) => this.lost(thread, `the orders checker stopped (${err.message})`));
    worker.on('messageerror', (err) => this.lost(thread, `the orders checker's answer could not be read (${err.message})`));
    worker.on('exit', (code) => this.lost(thread, `the orders checker stopped (exit code ${code})`));
    this.threads.push(thread);
    return thread;
  }

  private run(thread: Thread, task: Task): void {
    const req: CheckRequest = { id: this.nextId++, campaignId: task.campaignId, version: task.version, input: task.input };
    const has = thread.held.get(task.campaignId) === task.version;
    thread.held.delete(task.campaignId);
    thread.held.set(task.campaignId, task.version);
    if (!has) {
      req.state = task.state;
      this.statesSent++;
      const drop: string[] = [];
      for (const id of thread.held.keys()) {
        if (thread.held.size - drop.length <= KEEP_PER_THREAD) break;
        drop.push(id);
      }
      for (const id of drop) thread.held.delete(id);
      if (drop.length > 0) req.drop = drop;
    }
    thread.busy = { task, id: req.id };
    if (thread.ready) this.startClock(thread);
    thread.worker.ref();
    thread.worker.postMessage(req);
  }

  private startClock(thread: Thread): void {
    const limit = this.timeLimitMs >= 1000 ? `${Math.round(this.timeLimitMs / 1000)} s` : `${this.timeLimitMs} ms`;
    thread.busy!.timer = setTimeout(() => this.lost(thread, `the orders checker took longer than ${limit} on this text and was stopped`), this.timeLimitMs);
  }

  private answered(thread: Thread, reply: CheckReply): void {
    const busy = thread.busy;
    if (!busy || busy.id !== reply.id) return;
    clearTimeout(busy.timer);
    thread.busy = null;
    thread.worker.unref();
    const { task } = busy;
    if (reply.ok) task.resolve(reply.check);
    else if (reply.needState && !task.resent) {
      // The thread lacks the state after all (it cannot, unless counts went wrong): send it.
      thread.held.delete(task.campaignId);
      task.resent = true;
      this.run(thread, task);
      return;
    } else task.reject(new CheckFailed(`the orders checker failed on this text (${reply.needState ? 'no campaign state' : reply.message})`));
    this.pump();
  }

  /** The thread is gone: its check fails, and the next check starts a fresh thread. */
  private lost(thread: Thread, why: string): void {
    if (thread.gone) return;
    thread.gone = true;
    this.threads = this.threads.filter((t) => t !== thread);
    void thread.worker.terminate();
    if (thread.busy) {
      clearTimeout(thread.busy.timer);
      thread.busy.task.reject(new CheckFailed(why));
      thread.busy = null;
    }
    this.pump();
  }
}

let shared: CheckPool | undefined;

/** The process's one pool of orders-check threads. */
export function ordersCheckPool(): CheckPool {
  shared ??= new CheckPool();
  return shared;
}
