/**
 * Relations between powers (rules II: "A player may only move ships into a port of a friendly
 * or neutral power"). For each pair of powers: `war`, `neutral` or `allied`. Defaults: `war`
 * between playable powers, `neutral` with a non-playable one. A scenario may set pairs
 * (`relations`), and the GM may change one on a running campaign; both are kept in
 * `settings.relations` (src/campaign/relations.ts), keyed by the pair in key order.
 */
import type { PowerKey } from './terms.js';
import type { CampaignState } from './state.js';

export const RELATIONS = ['war', 'neutral', 'allied'] as const;
export type Relation = (typeof RELATIONS)[number];

/** The key of a pair, the same whichever way round: `british|french`. */
export function pairKey(a: PowerKey, b: PowerKey): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}

type Powers = { powers: readonly Pick<CampaignState['powers'][number], 'key' | 'playable'>[]; settings?: { relations?: Record<string, Relation> } };

/** The relation between two different powers (a power is not at war with itself: `allied`). */
export function relationOf(state: Powers, a: PowerKey, b: PowerKey): Relation {
  if (a === b) return 'allied';
  const set = state.settings?.relations?.[pairKey(a, b)];
  if (set) return set;
  const playable = (p: PowerKey) => state.powers.find((x) => x.key === p)?.playable === true;
  return playable(a) && playable(b) ? 'war' : 'neutral';
}

export function atWar(state: Powers, a: PowerKey, b: PowerKey): boolean {
  return relationOf(state, a, b) === 'war';
}

/** Every pair of powers with its relation, powers in scenario order: for the GM's page and the API. */
export function allRelations(state: Powers): { a: PowerKey; b: PowerKey; relation: Relation }[] {
  const out: { a: PowerKey; b: PowerKey; relation: Relation }[] = [];
  state.powers.forEach((p, i) => state.powers.slice(i + 1).forEach((q) => out.push({ a: p.key, b: q.key, relation: relationOf(state, p.key, q.key) })));
  return out;
}

/** The GM's changes of relations during a turn take effect once it is resolved, from the next turn. */
export function applyRelationsNext(state: CampaignState): void {
  const next = state.settings.relationsNext;
  if (!next) return;
  state.settings.relations = { ...(state.settings.relations ?? {}), ...next };
  delete state.settings.relationsNext;
}
