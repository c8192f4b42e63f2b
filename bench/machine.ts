/** One line about the machine a benchmark ran on: every benchmark prints it. */
import { readFileSync } from 'node:fs';
import os from 'node:os';

export function machineLine(): string {
  const cpus = os.cpus();
  return `machine: ${cpus[0]?.model ?? 'unknown cpu'} x${cpus.length}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${os.platform()} ${os.release()}, node ${process.version}`;
}

export function peakRssMb(): number {
  // maxRSS is in kilobytes.
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

/**
 * CPU used so far (ms, in 10 ms ticks) by every PostgreSQL backend of the current database,
 * read from /proc: only a server on this machine; a backend not found there counts 0.
 */
export async function databaseCpuMs(sql: { query<T>(text: string, params?: unknown[]): Promise<T[]> }): Promise<number> {
  const rows = await sql.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()');
  let ms = 0;
  for (const { pid } of rows) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
      ms += (Number(f[11]) + Number(f[12])) * 10; // utime, stime (fields 14, 15)
    } catch { /* gone, or not on this machine */ }
  }
  return ms;
}
