/**
 * Create a campaign from a scenario (the built-in one by name, or an uploaded one):
 * validate it whole, open turn 1 (missions rolled: SPEC §4 step 1) and store it all in
 * one transaction. Returns the GM token once; only its hash is kept.
 */
import { randomBytes } from 'node:crypto';
import type { Database } from '../db/client.js';
import { insertCampaign } from '../db/campaignStore.js';
import { seededDice } from '../rules/dice.js';
import { openTurn } from '../rules/openTurn.js';
import { builtInScenario } from '../scenario/builtin.js';
import { scenarioToState } from '../scenario/toState.js';
import { validateScenario } from '../scenario/validate.js';
import { UseCaseError } from './errors.js';
import { newGmToken, sha256 } from './secrets.js';

export interface CreateCampaignInput {
  /** A built-in scenario's name ("caribbean") or a whole scenario object (SPEC §2). */
  scenario: string | unknown;
  name?: string;
  slug?: string;
  /** Seed for the opening rolls; random when absent. */
  seed?: string;
  demo?: boolean;
  /** The GM's address for the full turn reports (optional). */
  gmEmail?: string;
}

export interface CreatedCampaign {
  id: string;
  slug: string;
  name: string;
  gmToken: string;
  turn: number;
}

export function slugify(text: string): string {
  return text.toLowerCase().normalize('NFKD').replace(/[^\w\s-]/g, '').trim().replace(/[\s_]+/g, '-').replace(/-+/g, '-').slice(0, 48) || 'campaign';
}

export async function createCampaign(db: Database, input: CreateCampaignInput): Promise<CreatedCampaign> {
  const raw = typeof input.scenario === 'string' ? builtInScenario(input.scenario) : input.scenario;
  if (raw === undefined) {
    throw new UseCaseError('bad_request', 'scenario/unknown', `there is no built-in scenario '${String(input.scenario)}'; send one of the built-in names or a whole scenario object`);
  }
  const checked = validateScenario(raw);
  if (!checked.ok) {
    throw new UseCaseError('bad_request', 'scenario/invalid', `the scenario has ${checked.problems.length} problem(s); nothing was created`, checked.problems);
  }
  const start = scenarioToState(checked.scenario);
  if (input.name) start.name = input.name;
  const seed = input.seed ?? randomBytes(12).toString('base64url');
  // The opening rolls get their own seed: the turn's seed stays secret until the turn is
  // resolved (only its hash is shown), so the opening seed is a one-way hash of it.
  const openingSeed = sha256(`opening:${seed}`).slice(0, 24);
  const opened = openTurn(start, seededDice(openingSeed));
  if (!opened.ok) throw new Error(`internal: opening turn 1 failed: ${opened.error.message}`);
  const gmToken = newGmToken();
  const { prisma } = db;
  const baseSlug = slugify(input.slug ?? start.name);
  const taken = await prisma.campaign.findMany({ where: { slug: { startsWith: baseSlug } }, select: { slug: true } });
  if (input.slug && taken.some((t) => t.slug === baseSlug)) {
    throw new UseCaseError('conflict', 'campaign/slug_taken', `a campaign called '${baseSlug}' already exists; choose another slug`);
  }
  let slug = baseSlug;
  for (let i = 2; taken.some((t) => t.slug === slug); i++) slug = `${baseSlug}-${i}`;
  const id = await prisma.$transaction(async (tx) => {
    const campaignId = await insertCampaign(tx, opened.state, {
      slug, gmTokenHash: sha256(gmToken), scenario: checked.scenario, demo: input.demo ?? false, gmEmail: input.gmEmail ?? null,
    });
    await tx.turn.create({
      data: { campaignId, number: opened.state.turn, openingSeed, openingEvents: opened.events as object[], seed, seedHash: sha256(seed) },
    });
    await tx.auditEntry.create({ data: { campaignId, actor: 'gm', action: 'campaign.created', details: { scenario: checked.scenario.name, seedHash: sha256(seed) } } });
    return campaignId;
    // Inserting a whole scenario takes seconds on a loaded machine: Prisma's default 5 s was too short.
  }, { timeout: 60_000, maxWait: 30_000 });
  return { id, slug, name: opened.state.name, gmToken, turn: opened.state.turn };
}
