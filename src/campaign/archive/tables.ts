/**
 * Which tables a campaign archive holds. Every Prisma model is either ARCHIVED (all its
 * rows of the campaign go into the archive) or EXCLUDED (with the reason); a test fails
 * when the schema has a model in neither list, so a table added later cannot be left out
 * of backups by accident. A model is archived by its `campaignId` column (Campaign by its
 * id); no model uses @@map, so the table has the model's name.
 */
import type { SqlRunner } from '../../db/sql.js';

type Sql = Pick<SqlRunner, 'query'>;

export const ARCHIVED_MODELS = [
  'Campaign', 'Power', 'Player', 'Node', 'Edge', 'Port', 'ShipClass', 'Fleet', 'Ship', 'Mission',
  'Turn', 'OrderSet', 'Event', 'Battle', 'VpEntry', 'Sighting', 'InboundMessage', 'OutgoingMail', 'AuditEntry', 'BattleDesk',
  'Absence', 'StandingOrders', 'Despatch', 'StandIn', 'AssistantGm', 'GazetteIssue', 'Rumour',
] as const;

/** Models that are not part of a campaign's archive, and why. */
export const EXCLUDED_MODELS: Record<string, string> = {
  // A restore must not carry sign-ins over: the browsers sign in again; replacing a campaign
  // deletes its sessions with it (cascade).
  WebSession: 'a signed-in browser on the web pages: meaningless in a backup, and a restore must not sign anyone in',
  Invitation: 'the service\'s count of welcome mails sent to each address in the last day (src/campaign/invitations.ts): a restore must not reset it',
  ObserverSubscription: 'addresses of people outside the campaign who asked for the observers\' digest (src/campaign/subscribeObserver.ts): a restore must never mail them, and they confirmed this service, not a copy of the campaign elsewhere (docs/backups.md)',
  SubscriptionRequest: 'the service\'s count of confirmation links mailed to each address in the last day (src/campaign/subscribeObserver.ts): a restore must not reset it',
  ServiceInstance: 'a running service process and its heartbeat (src/db/instances.ts): of the service, not of any campaign',
  Webhook: 'a webhook URL is a secret that lets anyone post to that channel, and a player\'s own is not the GM\'s to download: after a restore the GM and the players add theirs again (docs/notifications.md)',
  WebhookDelivery: 'the log of webhook posts: a restored campaign must not post its old news again, and its webhooks are not restored either',
};

/**
 * Columns left out of an archive, and why. `Campaign.stateVersion` says which cached copy of
 * the campaign is current (docs/performance.md); it comes from a database sequence so that a
 * number is never reused, and a restored campaign must take a fresh one from the service it
 * lands in, or a process could serve a copy cached before the restore. `boardVersion` (the
 * same without order sets) likewise.
 */
export const UNARCHIVED_COLUMNS: Partial<Record<string, readonly string[]>> = {
  Campaign: ['stateVersion', 'boardVersion'],
};

export type ArchivedModel = (typeof ARCHIVED_MODELS)[number];

/** The column that says which campaign a row belongs to. */
export function scopeColumn(model: string): string {
  return model === 'Campaign' ? 'id' : 'campaignId';
}

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

export interface ForeignKey { table: string; column: string; parent: string; parentColumn: string }

/** The single-column foreign keys between archived tables, read from the database. */
export async function foreignKeys(sql: Sql): Promise<ForeignKey[]> {
  const rows = await sql.query<ForeignKey>(`
    SELECT cl.relname AS "table", a.attname AS "column", pl.relname AS parent, pa.attname AS "parentColumn"
    FROM pg_constraint c
    JOIN pg_class cl ON cl.oid = c.conrelid
    JOIN pg_namespace n ON n.oid = cl.relnamespace
    JOIN pg_class pl ON pl.oid = c.confrelid
    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
    JOIN pg_attribute pa ON pa.attrelid = c.confrelid AND pa.attnum = c.confkey[1]
    WHERE c.contype = 'f' AND n.nspname = current_schema()`);
  const archived = new Set<string>(ARCHIVED_MODELS);
  return rows.filter((r) => archived.has(r.table) && archived.has(r.parent));
}

/** Archived tables, parents before children (the order rows can be inserted in). */
export function insertionOrder(fks: ForeignKey[]): ArchivedModel[] {
  const out: ArchivedModel[] = [];
  const placed = new Set<string>();
  const pending = [...ARCHIVED_MODELS];
  while (pending.length > 0) {
    const i = pending.findIndex((t) => fks.every((fk) => fk.table !== t || fk.parent === t || placed.has(fk.parent)));
    if (i < 0) throw new Error(`the archived tables reference each other in a cycle: ${pending.join(', ')}`);
    const [t] = pending.splice(i, 1);
    out.push(t!);
    placed.add(t!);
  }
  return out;
}

/** The columns of each archived table as the database has them now. */
export async function tableColumns(sql: Sql): Promise<Map<string, Set<string>>> {
  const rows = await sql.query<{ table_name: string; column_name: string }>(
    'SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ANY($1)',
    [[...ARCHIVED_MODELS]],
  );
  const out = new Map<string, Set<string>>();
  for (const r of rows) {
    if (!out.has(r.table_name)) out.set(r.table_name, new Set());
    out.get(r.table_name)!.add(r.column_name);
  }
  return out;
}
