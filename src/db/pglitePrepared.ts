/**
 * Named statements on the embedded database, prepared once and then run as ONE protocol
 * message (Bind, Describe, Execute, Sync). PGlite's own `query()` sends Parse, Describe,
 * Bind, Describe, Execute and Sync as six calls into its WebAssembly and parses and
 * analyses the text every time: about 1 ms a statement, where a prepared one takes a tenth
 * of that (docs/performance.md, "Mail in"). The server gets the same from `pg`'s named
 * statements (sql.ts), so a name means the same thing on both databases.
 *
 * Locking is `query()`'s: no statement runs inside another's transaction. The statement's
 * plan is the server's to keep or re-make (a migration invalidates it); a statement the
 * server no longer knows, or whose result changed shape, is prepared again once.
 */
import { parse as pgliteParse, protocol, type PGlite } from '@electric-sql/pglite';

interface Prepared { text: string; paramTypes: number[] }

const { serialize } = protocol;

function joined(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

export function preparedStatements(db: PGlite) {
  const known = new Map<string, Prepared>();

  async function prepare(name: string, text: string): Promise<Prepared> {
    const { messages } = await db.execProtocol(joined([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]), { syncToFs: false });
    const prepared = { text, paramTypes: pgliteParse.parseDescribeStatementResults(messages) };
    known.set(name, prepared);
    return prepared;
  }

  async function run<T>(name: string, text: string, params: unknown[]): Promise<T[]> {
    let st = known.get(name);
    if (st && st.text !== text) throw new Error(`statement '${name}' was prepared with another text: one text per name`);
    st ??= await prepare(name, text);
    const values = params.map((v, i) => {
      if (v === null || v === undefined) return null;
      const serializer = db.serializers[st!.paramTypes[i]!];
      return serializer ? serializer(v) : String(v);
    });
    const { messages } = await db.execProtocol(
      joined([serialize.bind({ statement: name, values: values as string[] }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]),
      { syncToFs: false },
    );
    return (pgliteParse.parseResults(messages, db.parsers)[0]?.rows ?? []) as T[];
  }

  return {
    /** Run the statement `name` (prepared at its first use), as `query()` would run `text`. */
    query<T>(name: string, text: string, params: unknown[]): Promise<T[]> {
      return db._runExclusiveTransaction(() => db.runExclusive(async () => {
        try {
          return await run<T>(name, text, params);
        } catch (err) {
          // 26000: no such prepared statement; 0A000: "cached plan must not change result type".
          const code = (err as { code?: string }).code;
          if (code !== '26000' && code !== '0A000') throw err;
          known.delete(name);
          await db.execProtocol(joined([serialize.close({ type: 'S', name }), serialize.sync()]), { syncToFs: false, throwOnError: false });
          return await run<T>(name, text, params);
        } finally {
          // As query() does outside a transaction: what was written reaches the data directory.
          await db.syncToFs();
        }
      }));
    },
  };
}
