/** The audit log as sentences (src/words/audit.ts), with the campaign's names for powers and places. */
import type { Database } from '../db/client.js';
import type { CampaignState } from '../rules/state.js';
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

/** The names from a campaign state already read (no query): the same names auditNames reads. */
export function auditNamesOf(state: Pick<CampaignState, 'powers' | 'nodes'>, timeZone?: string): AuditNames {
  const power = new Map(state.powers.map((p) => [p.key, p.name]));
  const node = new Map(state.nodes.map((n) => [n.id, n.name]));
  return { power: (k) => power.get(k), node: (k) => node.get(k), ...(timeZone ? { timeZone } : {}) };
}

/** Each row with its sentence (`text`), with names already at hand. */
export function auditInWordsWith<T extends AuditRowIn>(names: AuditNames, rows: readonly T[]): (Omit<T, 'details'> & { text: string })[] {
  return rows.map(({ details, ...rest }) => ({ ...rest, text: auditSentence({ actor: rest.actor, action: rest.action, details }, names) }));
}

/** Each row with its sentence (`text`) and without its JSON details. */
export async function auditInWords<T extends AuditRowIn>(db: Database, campaignId: string, rows: readonly T[], timeZone?: string): Promise<(Omit<T, 'details'> & { text: string })[]> {
  if (rows.length === 0) return [];
  return auditInWordsWith(await auditNames(db, campaignId, timeZone), rows);
}
