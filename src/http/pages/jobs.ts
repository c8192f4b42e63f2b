/**
 * Long GM actions (resolve, re-run) run as in-process jobs: the POST starts one and
 * redirects to its page, which shows "resolving…" (refreshing itself, no JavaScript
 * needed) until the job is done and then redirects to the result. One job at a time per
 * campaign. Jobs live in memory only: the result itself is in the database, the job just
 * remembers where to send the GM. A restart mid-job loses nothing (the use case is one
 * transaction): the dashboard shows what happened.
 */
import { randomBytes } from 'node:crypto';

export interface Job {
  id: string;
  campaignId: string;
  /** "Resolving turn 3" */
  label: string;
  status: 'running' | 'done' | 'failed';
  startedAt: Date;
  finishedAt: Date | null;
  /** Where the GM goes when it is done. */
  resultUrl: string | null;
  error: { status: number; message: string } | null;
  promise?: Promise<void>;
}

const KEEP = 200;

export class Jobs {
  private readonly jobs = new Map<string, Job>();

  running(campaignId: string): Job | undefined {
    for (const j of this.jobs.values()) if (j.campaignId === campaignId && j.status === 'running') return j;
    return undefined;
  }

  get(campaignId: string, id: string): Job | undefined {
    const j = this.jobs.get(id);
    return j && j.campaignId === campaignId ? j : undefined;
  }

  /**
   * Start `work` now; it returns the result page's URL. A job already running for the
   * campaign is returned instead of starting a second one.
   */
  start(campaignId: string, label: string, work: () => Promise<string>, errorOf: (err: unknown) => { status: number; message: string }): { job: Job; started: boolean } {
    const busy = this.running(campaignId);
    if (busy) return { job: busy, started: false };
    const job: Job = {
      id: randomBytes(9).toString('base64url'), campaignId, label, status: 'running',
      startedAt: new Date(), finishedAt: null, resultUrl: null, error: null,
    };
    this.jobs.set(job.id, job);
    if (this.jobs.size > KEEP) {
      for (const [id, j] of this.jobs) {
        if (j.status !== 'running') { this.jobs.delete(id); break; }
      }
    }
    job.promise = work().then(
      (url) => { job.status = 'done'; job.resultUrl = url; job.finishedAt = new Date(); },
      (err) => { job.status = 'failed'; job.error = errorOf(err); job.finishedAt = new Date(); },
    );
    return { job, started: true };
  }

  /** Wait for a job (tests, and the job page's short wait before answering). */
  async settle(job: Job, ms: number): Promise<void> {
    if (!job.promise) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([job.promise, new Promise((r) => { timer = setTimeout(r, ms); })]);
    clearTimeout(timer);
  }
}
