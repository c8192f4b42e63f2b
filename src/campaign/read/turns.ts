/** The turns of a campaign as the pages list and head them (src/http/pages). */
import type { Database } from '../../db/client.js';

/** The turn open for orders, if any: its number and deadline (the settings page). */
export function openTurnOf(db: Database, campaignId: string) {
  return db.prisma.turn.findFirst({ where: { campaignId, status: 'open' }, select: { number: true, deadline: true } });
}

/** Turn `number` as the player's orders page heads it, or null. */
export function turnHeading(db: Database, campaignId: string, number: number) {
  return db.prisma.turn.findUnique({
    where: { campaignId_number: { campaignId, number } },
    select: { id: true, number: true, status: true, deadline: true, seedHash: true, reruns: true },
  });
}

/** Every turn, newest first, as the GM's turn history lists it (the seed itself: the page shows it only once resolved). */
export function turnHistoryList(db: Database, campaignId: string) {
  return db.prisma.turn.findMany({
    where: { campaignId }, orderBy: { number: 'desc' },
    select: { number: true, status: true, openedAt: true, resolvedAt: true, reruns: true, seed: true, seedHash: true, seedSource: true, deadline: true, diceScript: true, _count: { select: { events: true } } },
  });
}

/** Every turn, newest first, as the player's reports page lists it (no seed). */
export function turnReportList(db: Database, campaignId: string) {
  return db.prisma.turn.findMany({
    where: { campaignId }, orderBy: { number: 'desc' },
    select: { number: true, status: true, resolvedAt: true, reruns: true, seedHash: true },
  });
}
