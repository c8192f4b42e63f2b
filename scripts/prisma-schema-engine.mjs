#!/usr/bin/env node
// Stand-in for Prisma's native schema engine binary (see docs/migrations.md).
//
// Why: at its first migrate command the Prisma CLI downloads a native `schema-engine`
// binary from Prisma's binary host, which locked-down networks cannot reach
// (prisma/orm #17482, #21960, #5105). prisma.config.ts points PRISMA_SCHEMA_ENGINE_BINARY
// at this file instead. The CLI spawns it exactly as it would spawn the binary:
//
//   prisma-schema-engine.mjs [--datamodels <schema file>]... [--datasource <json>]
//                            [--enabled-preview-features a,b] [--extension-types <json>]
//   prisma-schema-engine.mjs --version
//
// and talks JSON-RPC 2.0 to it, one JSON object per line, over stdin/stdout. We answer
// each request by calling the same method on Prisma's own WebAssembly build of the
// schema engine (@prisma/schema-engine-wasm, pinned exactly in package.json; its API is
// internal to Prisma and changes without notice), which reaches PostgreSQL through a
// driver adapter (@prisma/adapter-pg on `pg`) that we build here. Every place where we
// had to work around something is marked "WORKAROUND" below, with the reason.
//
// Only PostgreSQL is supported (the only provider this project uses).
//
// Debugging: set PRISMA_SCHEMA_ENGINE_TRACE=/some/file to log every RPC request,
// response and SQL statement to that file (stdout and stderr belong to the CLI).

import { appendFileSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';

// The @prisma/schema-engine-wasm version this stand-in was written and verified against.
const TESTED_WASM_VERSION = '8.1.0-2.59be4fda12412a79eeb9c2ae727b6aa723593323';

const TRACE_FILE = process.env.PRISMA_SCHEMA_ENGINE_TRACE;
function trace(...parts) {
  if (!TRACE_FILE) return;
  const line = parts.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join(' ');
  appendFileSync(TRACE_FILE, `${new Date().toISOString()} [${process.pid}] ${line}\n`);
}

// ---------------------------------------------------------------------------------------
// Command line.

function parseArgs(argv) {
  const args = { datamodels: [], datasource: undefined, version: false, previewFeatures: [], cliCommand: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`missing value after ${a}`);
      return v;
    };
    switch (a) {
      case '--version':
      case '-V':
        args.version = true;
        break;
      case '--datamodels':
      case '-d': // the native engine's short form; older CLIs passed --datamodel / -d
      case '--datamodel':
        args.datamodels.push(value());
        break;
      case '--datasource':
        args.datasource = JSON.parse(value());
        break;
      case '--enabled-preview-features':
        args.previewFeatures = value().split(',').filter(Boolean);
        break;
      case '--extension-types':
        value(); // Postgres extension types (a Prisma Postgres feature); nothing to do here.
        break;
      case 'cli':
        // `--datasource <json> cli <command>`: the one-shot commands the CLI runs before
        // `migrate dev` / `db push` (see runCliCommand).
        args.cliCommand = value();
        break;
      default:
        // Unknown flags are ignored rather than fatal, so a newer CLI that adds one
        // still works; they are logged for whoever debugs it.
        trace('ignoring argument', a);
    }
  }
  return args;
}

// ---------------------------------------------------------------------------------------
// Loading the WebAssembly engine.

// WORKAROUND: the package's entry (schema_engine.js) does `import * as wasm from
// "./schema_engine_bg.wasm"`, which Node 20 only allows behind
// --experimental-wasm-modules. So we import the JS glue (schema_engine_bg.js, exported as
// "@prisma/schema-engine-wasm/schema_engine_bg") and instantiate the .wasm beside it
// ourselves, exactly as the entry module would.
async function loadWasmEngine() {
  const glueUrl = import.meta.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
  const dir = path.dirname(fileURLToPath(glueUrl));
  const pkgVersion = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
  const glue = await import(glueUrl);
  const module = new WebAssembly.Module(readFileSync(path.join(dir, 'schema_engine_bg.wasm')));
  const instance = new WebAssembly.Instance(module, { './schema_engine_bg.js': glue });
  glue.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start();
  return { glue, pkgVersion };
}

// WORKAROUND: when the Rust code panics, its panic hook calls
// `global.PRISMA_WASM_PANIC_REGISTRY.set_message(msg)`. Without this object the hook
// itself throws and the JS side only sees "RuntimeError: unreachable", with no message.
globalThis.PRISMA_WASM_PANIC_REGISTRY = {
  message: '',
  set_message(value) {
    this.message = `RuntimeError: ${value}`;
  },
  get() {
    return this.message;
  },
};

// ---------------------------------------------------------------------------------------
// The driver adapter the WebAssembly engine talks to PostgreSQL through.

// driver-adapter-utils is resolved from adapter-pg's own location, so it is the copy
// adapter-pg was published with even if npm does not hoist it.
const requireFromAdapter = createRequire(createRequire(import.meta.url).resolve('@prisma/adapter-pg'));
const { bindMigrationAwareSqlAdapterFactory } = requireFromAdapter('@prisma/driver-adapter-utils');

const PG_CHAR_OID = 18; // PostgreSQL's internal one-byte "char" type
const PG_TEXT_OID = 25;
const COLUMN_TYPE_CHARACTER = 6; // ColumnTypeEnum.Character in @prisma/driver-adapter-utils
// WORKAROUND: adapter-pg cannot map some of PostgreSQL's internal catalog types and fails
// the whole query with "Unsupported column type char" (UnsupportedNativeDataType). The
// engine's introspection queries return such columns: pg_constraint.contype is "char"
// (OID 18). The engine reads that column as a character (the native engine gets a Rust
// `char` from its own driver): reported as text it panics ("Getting constraint_type ...
// as char failed", as soon as the database has a CHECK constraint). So "char" columns
// are reported as Character. `pg` already hands their values over as one-letter strings.
// A few other catalog types, which the engine reads as strings if at all, are reported
// as text (`pg` returns their text form as is).
const STRING_CATALOG_OIDS = new Set([
  22, // int2vector (pg_index.indkey), text form "1 2"
  24, // regproc
  30, // oidvector
  194, // pg_node_tree
  2205, // regclass
  2206, // regtype
  4089, // regnamespace
]);

function patchQueryable(queryable) {
  const performIO = queryable.performIO.bind(queryable);
  const queryRaw = queryable.queryRaw.bind(queryable);
  // queryRaw(query) calls this.performIO(query) with the same query object: performIO
  // notes which columns were "char" and lets adapter-pg map them as text, then queryRaw
  // turns those columns into Character.
  const charColumns = new WeakMap();
  queryable.performIO = async (query) => {
    trace('sql', query.sql, query.args);
    const result = await performIO(query);
    const chars = [];
    result.fields.forEach((field, i) => {
      if (field.dataTypeID === PG_CHAR_OID) {
        chars.push(i);
        field.dataTypeID = PG_TEXT_OID;
      } else if (STRING_CATALOG_OIDS.has(field.dataTypeID)) {
        field.dataTypeID = PG_TEXT_OID;
      }
    });
    if (chars.length > 0) charColumns.set(query, chars);
    return result;
  };
  queryable.queryRaw = async (query) => {
    const result = await queryRaw(query);
    for (const i of charColumns.get(query) ?? []) result.columnTypes[i] = COLUMN_TYPE_CHARACTER;
    return result;
  };
  return queryable;
}

// WORKAROUND: adapter-pg's executeScript() splits the script on every ";" and sends the
// pieces one by one. A migration whose comments or string literals contain ";" (ours do)
// breaks into invalid statements, and a failing migration would be left half applied. We
// send the whole script as one simple-protocol query instead, as the native engine does:
// PostgreSQL then runs it as one implicit transaction (all or nothing).
function patchExecuteScript(adapter, pool) {
  adapter.executeScript = async (script) => {
    trace('script', script);
    try {
      await pool.query(script);
    } catch (error) {
      adapter.onError(error); // converts to the DriverAdapterError the engine understands
    }
  };
}

function patchAdapter(adapter, pool) {
  patchQueryable(adapter);
  patchExecuteScript(adapter, pool);
  const startTransaction = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (...a) => {
    trace('startTransaction', a);
    return patchQueryable(await startTransaction(...a));
  };
  return adapter;
}

/** Splits a postgres URL into pg settings plus the Prisma-only `schema` parameter. */
function pgConfig(url) {
  const u = new URL(url);
  const schema = u.searchParams.get('schema') ?? undefined;
  // Prisma-only parameters that `pg` does not know; `schema` becomes the search_path.
  for (const p of ['schema', 'connection_limit', 'pool_timeout', 'pgbouncer', 'statement_cache_size', 'socket_timeout', 'connect_timeout']) {
    u.searchParams.delete(p);
  }
  // WORKAROUND: with no user in the URL, `pg` falls back to $PGUSER, then $USER, and fails
  // ("no PostgreSQL user name specified in startup packet") when neither is set, as in
  // some containers and CI. psql/libpq fall back to the operating-system user; so do we.
  if (!u.username && !process.env.PGUSER && !process.env.USER) u.username = encodeURIComponent(os.userInfo().username);
  // WORKAROUND: one connection per pool, i.e. one database session, as the native engine
  // has. The engine takes a session-level advisory lock (pg_advisory_lock(72707369)) to
  // keep two migrate commands apart; with several pooled sessions a second lock call could
  // land on another session of this same process and wait forever for the first (`migrate
  // dev` takes it twice). The session is kept while idle too (idleTimeoutMillis: 0), so
  // the lock is not dropped while the CLI waits at a prompt.
  const config = { connectionString: u.toString(), max: 1, idleTimeoutMillis: 0 };
  if (schema) config.options = `-c search_path="${schema.replace(/"/g, '""')}"`;
  return { config, schema };
}

function withDatabase(url, database) {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}

function quoteIdent(name) {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * A SqlMigrationAwareDriverAdapterFactory (the interface the engine expects) for a
 * PostgreSQL URL, with our fixes applied.
 */
class StandInPgFactory {
  provider = 'postgres';
  adapterName = '@prisma/adapter-pg';

  constructor(url, shadowDatabaseUrl) {
    this.url = url;
    this.shadowDatabaseUrl = shadowDatabaseUrl;
    this.open = new Set();
  }

  async connectTo(url, onDispose) {
    const { config, schema } = pgConfig(url);
    const pool = new pg.Pool(config);
    pool.on('error', (e) => trace('idle client error', String(e)));
    const factory = new PrismaPg(pool, { schema, disposeExternalPool: true });
    const adapter = patchAdapter(await factory.connect(), pool);
    const dispose = adapter.dispose.bind(adapter);
    let disposed = false;
    adapter.dispose = async () => {
      if (disposed) return;
      disposed = true;
      this.open.delete(adapter);
      await dispose();
      if (onDispose) await onDispose();
    };
    this.open.add(adapter);
    return adapter;
  }

  async connect() {
    return this.connectTo(this.url);
  }

  // WORKAROUND: adapter-pg's connectToShadowDb() creates a scratch database but then
  // connects to the *main* database (it passes { ...config, database } to pg.Pool, and
  // pg lets the connectionString's own database win), so the engine would replay the
  // migrations into, and "reset", the real database. We create the shadow database
  // ourselves, connect to it by URL, and drop it when the engine lets go of it (or at
  // exit, see shutdown()).
  async connectToShadowDb() {
    if (this.shadowDatabaseUrl) {
      // A shadow database named in prisma.config.ts (datasource.shadowDatabaseUrl): used
      // as is, emptied first as the native engine does.
      const adapter = await this.connectTo(this.shadowDatabaseUrl);
      const schema = pgConfig(this.shadowDatabaseUrl).schema ?? 'public';
      await adapter.executeScript(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE; CREATE SCHEMA ${quoteIdent(schema)};`);
      return adapter;
    }
    const name = `prisma_migrate_shadow_db_${randomUUID()}`;
    const admin = new pg.Client(pgConfig(this.url).config);
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${quoteIdent(name)}`);
    } catch (error) {
      // The native engine's P3014 wording.
      throw new Error(
        'Prisma Migrate could not create the shadow database. Please make sure the database user has permission to create databases, ' +
          'or set datasource.shadowDatabaseUrl in prisma.config.ts. Read more about the shadow database (and workarounds) at ' +
          `https://pris.ly/d/migrate-shadow\n\nOriginal error: ${error.message}`,
      );
    } finally {
      await admin.end();
    }
    trace('created shadow database', name);
    const drop = async () => {
      const c = new pg.Client(pgConfig(this.url).config);
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
        trace('dropped shadow database', name);
      } finally {
        await c.end();
      }
    };
    this.shadowDrops ??= new Map();
    this.shadowDrops.set(name, drop);
    return this.connectTo(withDatabase(this.url, name), async () => {
      this.shadowDrops.delete(name);
      await drop();
    });
  }

  async close() {
    for (const adapter of [...this.open]) await adapter.dispose().catch((e) => trace('dispose failed', String(e)));
    for (const drop of [...(this.shadowDrops?.values() ?? [])]) await drop().catch((e) => trace('drop failed', String(e)));
  }
}

// ---------------------------------------------------------------------------------------
// JSON-RPC.

function send(message) {
  const line = JSON.stringify(message);
  trace('->', line.length > 4000 ? `${line.slice(0, 4000)}...` : line);
  process.stdout.write(`${line}\n`);
}

let nextOutgoingId = 1_000_000_000; // ids of our own requests to the CLI (print)

/** A user-facing error in the shape the CLI reads (`error.data.message`, `error_code`). */
function rpcError(id, { message, errorCode, meta, isPanic = false, backtrace }) {
  const data = { is_panic: isPanic, message, backtrace };
  if (errorCode) data.error_code = errorCode;
  if (meta) data.meta = meta;
  if (isPanic) data.error = { message };
  return { jsonrpc: '2.0', id, error: { code: 4466, message: 'An error happened. Check the data field for details.', data } };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const { glue, pkgVersion } = await loadWasmEngine();

  if (args.version) {
    // The CLI shows this in `prisma version` ("Schema Engine : ...").
    process.stdout.write(`schema-engine-cli ${glue.version()} (@prisma/schema-engine-wasm ${pkgVersion})\n`);
    return;
  }
  if (args.cliCommand) {
    process.exitCode = await runCliCommand(args.cliCommand, args.datasource?.url ?? process.env.DATABASE_URL);
    return;
  }
  if (pkgVersion !== TESTED_WASM_VERSION) {
    // Its API is internal to Prisma; a different version may not match this stand-in.
    logToCli('WARN', `@prisma/schema-engine-wasm is ${pkgVersion}, this stand-in was verified with ${TESTED_WASM_VERSION}`);
  }

  const datasource = args.datasource ?? {};
  const url = datasource.url ?? process.env.DATABASE_URL;
  const datamodels = args.datamodels.map((p) => [p, readFileSync(p, 'utf8')]);

  let engine;
  let poisoned;
  const errorRegistry = { current: undefined };

  async function getEngine() {
    if (engine) return engine;
    if (!url) throw Object.assign(new Error('No database URL: set datasource.url in prisma.config.ts (DATABASE_URL).'), { errorCode: 'P1012' });
    if (!/^postgres(ql)?:\/\//.test(url)) {
      throw new Error(`This schema engine stand-in only supports PostgreSQL URLs, got "${url.split(':')[0]}:..."`);
    }
    const factory = new StandInPgFactory(url, datasource.shadowDatabaseUrl);
    running.factory = factory;
    const bound = bindMigrationAwareSqlAdapterFactory(factory);
    errorRegistry.current = bound.errorRegistry;
    engine = running.engine = await glue.SchemaEngine.new(
      { datamodels: datamodels.length > 0 ? datamodels : undefined },
      // The engine's tracing logs: forwarded to stderr, where the CLI reads JSON log lines
      // (it keeps ERROR ones for its messages when the engine dies).
      (log) => forwardLog(log),
      bound,
    );
    return engine;
  }

  // Turns whatever the engine threw into a JSON-RPC error.
  function toRpcError(id, error) {
    if (error && error.name === 'RuntimeError') {
      poisoned = globalThis.PRISMA_WASM_PANIC_REGISTRY.get() || String(error.message);
      return rpcError(id, { message: poisoned, isPanic: true, backtrace: error.stack });
    }
    if (error && typeof error === 'object') {
      const code = error.code ?? error.errorCode ?? error.error_code;
      const message = withRegisteredErrors(errorRegistry.current, typeof error.message === 'string' ? error.message : JSON.stringify(error));
      return rpcError(id, { message, errorCode: typeof code === 'string' ? code : undefined, meta: error.meta });
    }
    return rpcError(id, { message: String(error) });
  }

  const handlers = {
    // The native engine creates the database named in the URL (`migrate dev` on a
    // database that does not exist yet); the Wasm engine has no such method.
    async createDatabase() {
      return { databaseName: await createDatabase(url) };
    },
    // The CLI's name for the Wasm engine's `version`.
    async getDatabaseVersion(params) {
      return (await getEngine()).version(params ?? null);
    },
    async diff(params) {
      const result = await (await getEngine()).diff(params);
      // WORKAROUND: the Wasm engine returns the diff in `stdout`; the native one sends it
      // to the CLI as a "print" request, and that is the only way the CLI prints it (and
      // captures it for --output). So we forward it as a print request.
      if (result.stdout) {
        // The native engine prints the script with a trailing newline; the CLI adds one.
        send({ jsonrpc: '2.0', id: nextOutgoingId++, method: 'print', params: { content: result.stdout.replace(/\n$/, '') } });
      }
      return { exitCode: result.exitCode };
    },
  };

  // WORKAROUND: the Wasm engine's evaluateDataLoss and createMigration cannot make a
  // shadow database themselves ("PostgreSQL shadow DB must be provided through an external
  // factory"): they only reuse the schema of the migration history that an earlier
  // diagnosis cached, keyed by the list of migrations the diagnosis saw applied. When
  // `migrate dev` starts on a database that is behind (a new or freshly reset database),
  // it diagnoses, applies the pending migrations, and then asks for the data-loss
  // evaluation with a history that was never cached, and fails. We then run the
  // diagnosis again (it builds the schema on a shadow database we provide, and caches it)
  // and retry once.
  async function withHistorySchema(params, call) {
    const e = await getEngine();
    try {
      return await call(e);
    } catch (error) {
      if (!/shadow DB must be provided through an external factory/.test(String(error?.message ?? error))) throw error;
      trace('warming the migration schema cache, then retrying');
      await e.diagnoseMigrationHistory({ migrationsList: params.migrationsList, optInToShadowDatabase: true, filters: params.filters });
      return await call(e);
    }
  }
  handlers.evaluateDataLoss = (params) => withHistorySchema(params, (e) => e.evaluateDataLoss(params));
  handlers.createMigration = (params) => withHistorySchema(params, (e) => e.createMigration(params));

  const methods = new Set([
    'applyMigrations', 'createMigration', 'dbExecute', 'debugPanic', 'devDiagnostic', 'diagnoseMigrationHistory',
    'ensureConnectionValidity', 'evaluateDataLoss', 'introspect', 'introspectSql', 'markMigrationApplied',
    'markMigrationRolledBack', 'reset', 'schemaPush', 'version',
  ]);

  async function handle(request) {
    const { id, method, params } = request;
    running.requestId = id;
    if (poisoned) return rpcError(id, { message: `The schema engine panicked earlier: ${poisoned}`, isPanic: true });
    try {
      let result;
      if (handlers[method]) {
        result = await handlers[method](params);
      } else if (methods.has(method)) {
        const e = await getEngine();
        // Called as a method (not detached): the wasm-bindgen glue needs `this`.
        result = await e[method](params);
      } else {
        return { jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } };
      }
      // The Wasm engine returns undefined for "no output" methods; JSON-RPC needs a result.
      return { jsonrpc: '2.0', id, result: result === undefined ? {} : result };
    } catch (error) {
      trace('error', String(error?.stack ?? error), error);
      return toRpcError(id, error);
    }
  }

  // Requests are handled one at a time, in order: the engine is a single mutable object
  // (wasm-bindgen refuses re-entrant calls on it) and the native engine is sequential too.
  let queue = Promise.resolve();
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on('line', (line) => {
    if (!line.trim()) return;
    trace('<-', line.length > 4000 ? `${line.slice(0, 4000)}...` : line);
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      return;
    }
    // Answers to our own print requests: nothing to do.
    if (message.method === undefined) return;
    queue = queue.then(async () => send(await handle(message)));
  });

  // The CLI closes our stdin when it is done with us: release connections, drop any
  // shadow database left behind, and exit 0 (the CLI treats other codes as a crash).
  await new Promise((resolve) => rl.on('close', resolve));
  await queue;
  await shutdown();
}

// ---------------------------------------------------------------------------------------
// One-shot commands: `--datasource '{"url":...}' cli can-connect-to-database | create-database`.
//
// The CLI runs these as plain processes (stdin left open, never written) before `migrate
// dev`, `migrate reset` and `db push`: the first to check the database, the second to
// create it when the first answered P1003 (database does not exist). Success is exit code
// 0. On failure the CLI reads stderr: it skips the first line, parses every other line as
// JSON, and looks for {"level":"ERROR","target":"schema_engine::logger","fields":
// {"error_code","message"}}. The Wasm engine has no such commands, so they are done here
// with `pg` directly, with the native engine's codes and messages.

async function runCliCommand(command, url) {
  try {
    if (!url) throw Object.assign(new Error('Connection url is empty.'), { errorCode: 'P1012' });
    if (command === 'can-connect-to-database') {
      await withClient(url, (c) => c.query('SELECT 1'));
    } else if (command === 'create-database') {
      await createDatabase(url);
    } else if (command === 'drop-database') {
      const name = databaseName(url);
      await withClient(withDatabase(url, 'postgres'), (c) => c.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
    } else {
      throw new Error(`Unknown schema engine cli command: ${command}`);
    }
    return 0;
  } catch (error) {
    const { errorCode, message } = connectionError(error, url);
    process.stderr.write(`schema engine stand-in: ${command} failed\n`); // the line the CLI skips
    process.stderr.write(`${JSON.stringify({ timestamp: new Date().toISOString(), level: 'ERROR', fields: { message, error_code: errorCode }, target: 'schema_engine::logger' })}\n`);
    return 1;
  }
}

async function withClient(url, fn) {
  const client = new pg.Client(pgConfig(url).config);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function databaseName(url) {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, '')) || 'postgres';
}

async function createDatabase(url) {
  const name = databaseName(url);
  await withClient(withDatabase(url, 'postgres'), (c) => c.query(`CREATE DATABASE ${quoteIdent(name)}`));
  return name;
}

/** The native engine's error code and message for a failed connection (P1000-P1012). */
function connectionError(error, url) {
  let host = 'localhost';
  let port = '5432';
  let user = '';
  try {
    const u = new URL(url);
    host = u.hostname || host;
    port = u.port || port;
    user = decodeURIComponent(u.username);
  } catch {
    // keep the defaults
  }
  const at = `${host}:${port}`;
  switch (error?.code) {
    case '3D000':
      return { errorCode: 'P1003', message: `Database \`${databaseName(url)}\` does not exist on the database server at \`${at}\`.` };
    case '28P01':
      return { errorCode: 'P1000', message: `Authentication failed against database server at \`${at}\`, the provided database credentials for \`${user}\` are not valid.\n\nPlease make sure to provide valid database credentials for the database server at \`${at}\`.` };
    case '28000':
      return { errorCode: 'P1010', message: `User \`${user}\` was denied access on the database \`${databaseName(url)}\`` };
    case '42P04':
      return { errorCode: 'P1009', message: `Database \`${databaseName(url)}\` already exists on the database server at \`${at}\`` };
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EHOSTUNREACH':
      return { errorCode: 'P1001', message: `Can't reach database server at \`${at}\`\n\nPlease make sure your database server is running at \`${at}\`.` };
    case 'ETIMEDOUT':
      return { errorCode: 'P1002', message: `The database server at \`${at}\` was reached but timed out.` };
    default:
      return { errorCode: error?.errorCode, message: String(error?.message ?? error) };
  }
}

// A JS error thrown inside our adapter (say, `pg` refusing CREATE DATABASE for the shadow
// database) reaches the engine as {kind: "GenericJs", id} and comes back in its message
// as "External error id#<id>"; the original error waits in the adapter's error registry.
function withRegisteredErrors(registry, message) {
  if (!registry) return message;
  return message.replace(/External error id#(\d+)/g, (text, id) => {
    const original = registry.consumeError(Number(id))?.error;
    return original ? String(original.message ?? original) : text;
  });
}

/** Writes a log line to stderr in the native engine's JSON format, which the CLI parses. */
function logToCli(level, message) {
  process.stderr.write(`${JSON.stringify({ timestamp: new Date().toISOString(), level, fields: { message }, target: 'schema_engine_standin' })}\n`);
}

function forwardLog(log) {
  trace('log', log);
  const text = typeof log === 'string' ? log : JSON.stringify(log);
  try {
    JSON.parse(text);
    process.stderr.write(`${text}\n`);
  } catch {
    logToCli('INFO', text);
  }
}

/** What is running, for shutdown() and the panic handler. */
const running = { factory: undefined, engine: undefined, requestId: undefined };

async function shutdown() {
  try {
    running.engine?.free();
  } catch (e) {
    trace('free failed', String(e));
  }
  running.engine = undefined;
  await running.factory?.close();
  running.factory = undefined;
}

// WORKAROUND: a Rust panic inside the engine usually happens in a promise callback
// driven from JS (e.g. while the engine reads a query result), so it surfaces here as an
// uncaught "RuntimeError: unreachable" rather than as a rejected call; the call in flight
// never settles and the engine is unusable. Do what the native engine does on a panic:
// answer the request in flight with a panic error (the CLI shows its panic report), clean
// up, and exit with code 101.
process.on('uncaughtException', (error) => {
  const panic = globalThis.PRISMA_WASM_PANIC_REGISTRY.get();
  trace('uncaught', String(error?.stack ?? error), panic);
  const message = panic || String(error?.stack ?? error);
  if (running.requestId !== undefined) {
    send(rpcError(running.requestId, { message, isPanic: error?.name === 'RuntimeError', backtrace: error?.stack }));
  } else {
    logToCli('ERROR', message);
  }
  const timeout = setTimeout(() => process.exit(101), 5000);
  shutdown().finally(() => {
    clearTimeout(timeout);
    process.exit(101);
  });
});

// Ctrl-C in a terminal signals the whole process group, this process included: still
// drop the shadow database we may have made. If the CLI goes away (stdout closed), stop.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    const timeout = setTimeout(() => process.exit(130), 5000);
    shutdown().finally(() => {
      clearTimeout(timeout);
      process.exit(130);
    });
  });
}
process.stdout.on('error', () => {
  shutdown().finally(() => process.exit(0));
});

// stdout carries the JSON-RPC conversation only: anything a library would print there
// goes to stderr instead (the CLI only logs stderr lines it cannot parse).
console.log = console.info = console.debug = (...parts) => {
  process.stderr.write(`${parts.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join(' ')}\n`);
};

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error) => {
    trace('fatal', String(error?.stack ?? error));
    logToCli('ERROR', String(error?.stack ?? error));
    process.exit(1);
  },
);
