/** The audit log as sentences (src/words/audit.ts), with the campaign's names for powers and places. */
import type { Database } from '../db/client.js';
import { auditSentence, type AuditNames, type AuditRowIn } from '../words/audit.js';

export async function auditNames(db: Database, campaignId: string, timeZone?: string): Promise<AuditNames> {
  const [powers, nodes] = await Promise.all([
    db.prisma.power.findMany({ where: { campaignId }, select: { key: true, name: true } }),
    db.prisma.node.findMany({ where: { campaignId }, select: { key: true, name: true } }),
  ]);
  const power = new Map(powers.map((p) => [p.key, p.name]));
  const node = new Map(nodes.map((n) => [n.key, n.name]));
  return { power: (k) => power.get(k), node: (k) => node.get(k), ...(timeZone ? { timeZone } : {}) };
}

/** Each row with its sentence (`text`) and without its JSON details. */
export async function auditInWords<T extends AuditRowIn>(db: Database, campaignId: string, rows: readonly T[], timeZone?: string): Promise<(Omit<T, 'details'> & { text: string })[]> {
  if (rows.length === 0) return [];
  const names = await auditNames(db, campaignId, timeZone);
  return rows.map(({ details, ...rest }) => ({ ...rest, text: auditSentence({ actor: rest.actor, action: rest.action, details }, names) }));
}
