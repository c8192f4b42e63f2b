/**
 * What this process has loaded of each campaign, kept under the campaign's stateVersion
 * (docs/performance.md): the engine state, and what readers made from it (a power's view,
 * a map picture, the turn status...). An entry is good exactly while the database still
 * holds the same stateVersion for that campaign: triggers give the campaign a new one in
 * the transaction of every change, on whichever instance made it, so a reader that has
 * just read the number from the database is never served anything older than the last
 * committed change.
 *
 * Everything kept is deep-frozen: it is shared by every request, and a caller that tried
 * to change it would throw instead of quietly changing what others are served. The
 * cache is bounded (least recently used campaigns go first) by a rough byte count.
 */

/** About how much memory the cache may hold, counted as JSON text (objects take ~2-3× that). */
const DEFAULT_BUDGET_BYTES = 24 * 1024 * 1024;

export interface CacheEntry<S> {
  readonly campaignId: string;
  readonly version: string;
  /**
   * The campaign's boardVersion read with the state, when known: it changes with every change
   * of what the state holds, but not with an order set (docs/performance.md, "Mail in"). Two
   * versions with one boardVersion share one state.
   */
  readonly board?: string;
  readonly state: S;
  /** Things made from this version of the campaign, by name. */
  readonly made: Map<string, { value: unknown; bytes: number }>;
  /** What the state itself counts (see keep). */
  readonly stateBytes: number;
  /** The state and everything made from it. */
  bytes: number;
}

import { deepFreeze } from '../rules/clone.js';

export { deepFreeze };

export class StateCache<S> {
  private readonly entries = new Map<string, CacheEntry<S>>();
  private total = 0;

  constructor(readonly budgetBytes = DEFAULT_BUDGET_BYTES) {}

  /** The entry for this exact version, or undefined. A hit makes the campaign the most recently used. */
  at(campaignId: string, version: string): CacheEntry<S> | undefined {
    const e = this.entries.get(campaignId);
    if (!e || e.version !== version) return undefined;
    this.entries.delete(campaignId);
    this.entries.set(campaignId, e);
    return e;
  }

  /** The newest version this process has loaded (for the map, which never changes). */
  latest(campaignId: string): CacheEntry<S> | undefined {
    return this.entries.get(campaignId);
  }

  /** Keep a freshly loaded state (frozen here) under its version, replacing any other version of it. */
  keep(campaignId: string, version: string, state: S, bytes: number, board?: string): CacheEntry<S> {
    this.forget(campaignId);
    const e: CacheEntry<S> = { campaignId, version, ...(board !== undefined ? { board } : {}), state: deepFreeze(state), made: new Map(), stateBytes: bytes, bytes };
    this.entries.set(campaignId, e);
    this.total += bytes;
    this.trim();
    return e;
  }

  /**
   * What `make` gives for this version of the campaign, made once and kept (frozen) while the
   * entry lives. When the entry is gone or holds another version, `make` runs and nothing is kept.
   */
  made<T>(campaignId: string, version: string, name: string, make: () => T, bytesOf?: (v: T) => number): T {
    const e = this.entries.get(campaignId);
    if (!e || e.version !== version) return make();
    // Unless told: a text counts its length, anything else a quarter of the state it was made from.
    const size = bytesOf ?? ((v: T) => (typeof v === 'string' ? v.length : Math.round(e.stateBytes / 4)));
    const hit = e.made.get(name);
    if (hit) return hit.value as T;
    const value = make();
    if (value instanceof Promise) {
      // Kept while it runs, so ten requests at once wait for one; dropped if it fails.
      const kept = value.then((v) => deepFreeze(v), (err: unknown) => {
        if (e.made.get(name)?.value === kept) e.made.delete(name);
        throw err;
      });
      e.made.set(name, { value: kept, bytes: 0 });
      void kept.then((v) => this.grow(e, name, kept, size(v as T)), () => undefined);
      return kept as T;
    }
    deepFreeze(value);
    e.made.set(name, { value, bytes: 0 });
    this.grow(e, name, value, size(value));
    return value;
  }

  forget(campaignId: string): void {
    const e = this.entries.get(campaignId);
    if (!e) return;
    this.entries.delete(campaignId);
    this.total -= e.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.total;
  }

  private grow(e: CacheEntry<S>, name: string, value: unknown, bytes: number): void {
    const slot = e.made.get(name);
    if (!slot || slot.value !== value || this.entries.get(e.campaignId) !== e) return;
    slot.bytes = bytes;
    e.bytes += bytes;
    this.total += bytes;
    this.trim();
  }

  /** Drop the least recently used campaigns until the budget holds (the newest always stays). */
  private trim(): void {
    for (const [id] of this.entries) {
      if (this.total <= this.budgetBytes || this.entries.size <= 1) return;
      this.forget(id);
    }
  }
}
