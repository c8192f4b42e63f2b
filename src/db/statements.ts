/**
 * Several writes in ONE SQL statement (the resolve's): each write is a `Part` with its own
 * $1, $2... and parameters; `runSteps` sends each step (a list of parts) as one statement
 * `WITH p0 AS (…), p1 AS (…) SELECT …`, renumbering the placeholders. A round trip costs
 * more than most of these writes, so a turn is stored in one or a few.
 *
 * PostgreSQL runs every data-modifying WITH part exactly once, all on the same snapshot:
 * parts of one step cannot see one another's rows. So a step may only hold parts that
 * touch different rows and do not need another part's effect (a row inserted, a name
 * freed); a part that does starts the next step. The steps run in order, in the caller's
 * transaction.
 */
import type { Tx } from './campaignStore.js';

/**
 * What runs the statements: a Prisma transaction (viaPrisma), or the raw driver's
 * (`db.sql.transaction`, src/db/sql.ts), which the resolve uses: Prisma's handling of a
 * large text parameter costs several ms (a turn's mail is ~250 KB of JSON).
 */
export interface Runner {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** A Prisma transaction as a Runner. */
export function viaPrisma(tx: Tx): Runner {
  return { query: <T>(sql: string, params: unknown[] = []) => tx.$queryRawUnsafe<T[]>(sql, ...params) };
}

export interface Part {
  /** SQL of one INSERT, UPDATE or DELETE, with $1… for its own `params` (never inside a string literal). */
  sql: string;
  params: unknown[];
  /** Name under which the number of rows it wrote is returned (the part then needs `RETURNING 1`). */
  count?: string;
}

/** Run each step as one statement, in order; returns the counted parts' row counts. */
export async function runSteps(tx: Runner, steps: readonly (readonly Part[])[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const step of steps) {
    if (step.length === 0) continue;
    const params: unknown[] = [];
    const withs: string[] = [];
    const selects: string[] = [];
    step.forEach((part, i) => {
      const base = params.length;
      withs.push(`p${i} AS (${part.sql.replace(/\$(\d+)/g, (_m, n: string) => `$${base + Number(n)}`)})`);
      params.push(...part.params);
      if (part.count) selects.push(`(SELECT count(*) FROM p${i})::int AS "${part.count}"`);
    });
    const sql = `WITH ${withs.join(',\n')}\nSELECT ${selects.length ? selects.join(', ') : '1 AS done'}`;
    const rows = await tx.query<Record<string, number>>(sql, params);
    for (const part of step) if (part.count) counts[part.count] = Number(rows[0]![part.count]);
  }
  return counts;
}
