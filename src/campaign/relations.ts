/**
 * The GM changes the relation between two powers on a running campaign: audited, in force
 * from the next turn (kept in settings.relationsNext until the open turn is resolved:
 * src/rules/relations.ts applyRelationsNext), and mailed to every player as news.
 */
import type { Database } from '../db/client.js';
import { loadState, saveState } from '../db/campaignStore.js';
import { enqueueMail } from '../mail/enqueue.js';
import { allRelations, pairKey, relationOf, RELATIONS, type Relation } from '../rules/relations.js';
import { lockStateForWrite } from '../db/stateLock.js';
import { RELATIONS as RELATION_ERRORS, UseCaseError, notFound } from './errors.js';

export interface RelationChange {
  a: string;
  b: string;
  relation: Relation;
  reason?: string;
}

const WORDS: Record<Relation, string> = { war: 'at war', neutral: 'at peace (neutral)', allied: 'allied' };

/** Every pair with its relation now, and any change waiting for the next turn. */
export async function relationsOfCampaign(db: Database, campaignId: string) {
  const state = await loadState(db.prisma, campaignId).catch(() => null);
  if (!state) throw notFound('campaign');
  const next = state.settings.relationsNext ?? {};
  return {
    turn: state.turn,
    relations: allRelations(state).map((r) => ({ ...r, ...(next[pairKey(r.a, r.b)] ? { next: next[pairKey(r.a, r.b)] } : {}) })),
  };
}

export async function changeRelation(db: Database, campaignId: string, input: RelationChange, actor = 'gm') {
  return db.prisma.$transaction(async (tx) => {
    await lockStateForWrite(tx, campaignId); // not while a turn resolves (src/db/stateLock.ts)
    const exists = await tx.campaign.findUnique({ where: { id: campaignId }, select: { name: true, players: { select: { email: true, name: true } } } });
    if (!exists) throw notFound('campaign');
    const state = await loadState(tx, campaignId);
    const problems: { path: string; message: string }[] = [];
    const keys = state.powers.map((p) => p.key);
    for (const k of ['a', 'b'] as const) if (!keys.includes(input[k])) problems.push({ path: k, message: `'${input[k]}' is not a power of this campaign; powers: ${keys.join(', ')}` });
    if (input.a === input.b) problems.push({ path: 'b', message: 'name two different powers' });
    if (!(RELATIONS as readonly string[]).includes(input.relation)) problems.push({ path: 'relation', message: `'${input.relation}' is not a relation; write war, neutral or allied` });
    if (problems.length) throw new UseCaseError('bad_request', RELATION_ERRORS.invalid, problems.map((p) => p.message).join('; '), problems);
    const key = pairKey(input.a, input.b);
    const before = relationOf(state, input.a, input.b);
    state.settings.relationsNext = { ...(state.settings.relationsNext ?? {}), [key]: input.relation };
    await saveState(tx, campaignId, state);
    const name = (k: string) => state.powers.find((p) => p.key === k)?.name ?? k;
    const from = state.turn + 1;
    await tx.auditEntry.create({
      data: {
        campaignId, actor, action: 'relations.changed',
        details: { turn: state.turn, a: input.a, b: input.b, from: before, to: input.relation, fromTurn: from, ...(input.reason ? { reason: input.reason } : {}) },
      },
    });
    // News for every player: relations between powers are public (everyone knows who is at war).
    const news = `${name(input.a)} and ${name(input.b)} are ${WORDS[input.relation]} from turn ${from} (until then: ${WORDS[before]}).`;
    for (const p of exists.players) {
      await enqueueMail(tx, {
        campaignId, to: p.email, subject: `${exists.name}: ${name(input.a)} and ${name(input.b)} are ${WORDS[input.relation]} from turn ${from}`,
        text: `Dear ${p.name},\n\nNews from the GM of ${exists.name}: ${news}\n`,
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
    }
    return { turn: state.turn, fromTurn: from, a: input.a, b: input.b, before, relation: input.relation, news, mailed: exists.players.length };
  }, { timeout: 60_000, maxWait: 30_000 });
}
