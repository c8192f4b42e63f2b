/** A turn's event log, cut to the reader (SPEC §5, §6): the GM sees all of it. */
import type { Database } from '../db/client.js';
import type { GameEvent } from '../rules/events.js';
import { eventsFor, type Reader } from '../rules/view.js';
import { notFound } from './errors.js';
import { seedSourceOf, type SeedSource } from './seeds.js';

export interface TurnLog {
  turn: number;
  status: 'open' | 'resolved';
  /** Which resolution this is (0 the first; more after a roll-back and re-run). */
  run: number;
  resolvedAt: string | null;
  /** Revealed once the turn is resolved; before that only its hash is shown. */
  seed: string | null;
  /** The hash published before the turn (of the turn's own seed). */
  seedHash: string | null;
  /**
   * Once resolved, where the dice came from: `published` (the seed above is the one whose
   * hash was published: sha256(seed) = seedHash), `gm` (a seed given by the GM: the hash
   * does not check it) or `script` (the GM's real dice, diceScript). Null while open.
   */
  seedSource: SeedSource | null;
  diceScript: number[];
  /** The rolls made when the turn opened (its missions): at creation for turn 1, by the previous turn's resolution after. */
  openingEvents: GameEvent[];
  events: GameEvent[];
  /**
   * Powers whose fleets followed their absent player's standing orders in this turn
   * (docs/absences.md): every one for the GM; for a player, only their own, if it did.
   */
  standingOrders: string[];
}

export async function turnLog(db: Database, campaignId: string, number: number, reader: Reader): Promise<TurnLog> {
  const turn = await db.prisma.turn.findUnique({ where: { campaignId_number: { campaignId, number } } });
  if (!turn) throw notFound(`turn ${number}`);
  const rows = await db.prisma.event.findMany({ where: { turnId: turn.id, run: turn.reruns }, orderBy: { seq: 'asc' }, select: { data: true } });
  const resolved = turn.status === 'resolved';
  return {
    turn: turn.number, status: turn.status, run: turn.reruns, resolvedAt: turn.resolvedAt?.toISOString() ?? null,
    seed: resolved ? turn.seed : null, seedHash: turn.seedHash, seedSource: seedSourceOf(turn), diceScript: turn.diceScript,
    openingEvents: eventsFor((turn.openingEvents ?? []) as unknown as GameEvent[], reader),
    events: eventsFor(rows.map((r) => r.data as unknown as GameEvent), reader),
    standingOrders: reader.role === 'gm' ? turn.standingOrders : turn.standingOrders.filter((p) => p === reader.power),
  };
}
