/** The assistant GMs of a campaign, for the GM's page and the API (docs/gm-guide.md); never their tokens. */
import type { Database } from '../db/client.js';

export interface AssistantView { id: string; email: string; role: string; addedAt: string }

export async function readAssistants(db: Database, campaignId: string): Promise<AssistantView[]> {
  const rows = await db.prisma.assistantGm.findMany({ where: { campaignId }, orderBy: { createdAt: 'asc' }, select: { id: true, email: true, role: true, createdAt: true } });
  return rows.map((r) => ({ id: r.id, email: r.email, role: r.role, addedAt: r.createdAt.toISOString() }));
}
