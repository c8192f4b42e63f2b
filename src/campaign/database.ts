/**
 * What the adapters (src/http, src/inbound) know of the database: the handle they were given
 * at start-up and pass on to use cases, whether an error was the database not answering in
 * time (a 503 rather than a 500), and whether it answers at all (/api/health). They never
 * query it themselves: every read and write is a use case or read function of src/campaign
 * (docs/architecture.md).
 */
export type { Database } from '../db/client.js';
export { DATABASE_TIMEOUT_MESSAGE, isDatabaseTimeout } from '../db/dbTimeout.js';
export { databaseHealth } from '../db/probe.js';
