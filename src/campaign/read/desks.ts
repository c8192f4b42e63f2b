/** The battle desks and their settings as the GM's pages read them (src/campaign/battleDesk.ts). */
import type { Database } from '../../db/client.js';
import { battleDesks, deskSettings, type DeskBattle } from '../battleDesk.js';

export function battleDeskSettings(db: Database, campaignId: string) {
  return deskSettings(db.prisma, campaignId);
}

export function gmBattleDesks(db: Database, campaignId: string): Promise<DeskBattle[]> {
  return battleDesks(db.prisma, campaignId, { role: 'gm' });
}
