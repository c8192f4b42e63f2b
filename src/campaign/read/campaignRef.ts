/** A campaign as a URL or a session names it: its id, slug and name. */
import type { Database } from '../../db/client.js';

export interface CampaignRef {
  id: string;
  slug: string;
  name: string;
}

/** The campaign whose slug or id is `ref`, or null. */
export function campaignByRef(db: Database, ref: string): Promise<CampaignRef | null> {
  return db.prisma.campaign.findFirst({ where: { OR: [{ slug: ref }, { id: ref }] }, select: { id: true, slug: true, name: true } });
}

/** The campaign with this id, or null (gone since the session was made). */
export function campaignById(db: Database, id: string): Promise<CampaignRef | null> {
  return db.prisma.campaign.findUnique({ where: { id }, select: { id: true, slug: true, name: true } });
}
