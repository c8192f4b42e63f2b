/**
 * Create a campaign from a scenario (the built-in one by name, or an uploaded one):
 * validate it whole, open turn 1 (missions rolled: SPEC §4 step 1) and store it all in
 * one transaction. Returns the GM token once; only its hash is kept.
 */
import { notOneLine } from '../rules/oneLine.js';
import { randomBytes } from 'node:crypto';
import type { Database } from '../db/client.js';
import { insertCampaign } from '../db/campaignStore.js';
import { Prisma } from '../generated/prisma/client.js';
import { seededDice } from '../rules/dice.js';
import { openTurn } from '../rules/openTurn.js';
import { builtInScenario } from '../scenario/builtin.js';
import { scenarioToState } from '../scenario/toState.js';
import { validateScenario } from '../scenario/validate.js';
import { CAMPAIGN, SCENARIO, UseCaseError } from './errors.js';
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
    throw new UseCaseError('bad_request', SCENARIO.unknown, `there is no built-in scenario '${String(input.scenario)}'; send one of the built-in names or a whole scenario object`);
  }
  const badName = input.name === undefined ? undefined : notOneLine(input.name);
  if (badName) throw new UseCaseError('bad_request', CAMPAIGN.nameControl, `name ${badName}`, [{ path: 'name', message: badName }]);
  const checked = validateScenario(raw);
  if (!checked.ok) {
    throw new UseCaseError('bad_request', SCENARIO.invalid, `the scenario has ${checked.problems.length} problem(s); nothing was created`, checked.problems);
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
  const baseSlug = slugify(input.slug ?? start.name);
  let slug = await freeSlug(db, baseSlug);
  if (input.slug && slug !== baseSlug) throw slugTaken(baseSlug);
  // The look-up above is only a courtesy: another request (or another instance on the same
  // database) may take the short name between it and the insert. The unique index decides:
  // its violation is a 409 for a short name the GM chose, or the next free suffix for one
  // derived from the name (each round of a race has one winner, hence the generous bound).
  for (let attempt = 1; ; attempt++) {
    try {
      const id = await insertWithTurn(db, { opened, checked, slug, gmToken, seed, openingSeed, demo: input.demo ?? false, gmEmail: input.gmEmail ?? null });
      return { id, slug, name: opened.state.name, gmToken, turn: opened.state.turn };
    } catch (err) {
      if (!isSlugTaken(err)) throw err;
      if (input.slug || attempt >= 50) throw slugTaken(slug);
      slug = await freeSlug(db, baseSlug);
    }
  }
}

/** `base`, or `base-2`, `base-3`... whichever is free now. */
async function freeSlug(db: Database, base: string): Promise<string> {
  const taken = new Set((await db.prisma.campaign.findMany({ where: { slug: { startsWith: base } }, select: { slug: true } })).map((t) => t.slug));
  let slug = base;
  for (let i = 2; taken.has(slug); i++) slug = `${base}-${i}`;
  return slug;
}

const slugTaken = (slug: string) =>
  new UseCaseError('conflict', CAMPAIGN.slugTaken, `a campaign called '${slug}' already exists; choose another short name (slug)`);

/** A unique violation on Campaign.slug (P2002; the adapters name the index or the field). */
function isSlugTaken(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002' && JSON.stringify(err.meta ?? {}).includes('slug');
}

type Opened = Extract<ReturnType<typeof openTurn>, { ok: true }>;
type Checked = Extract<ReturnType<typeof validateScenario>, { ok: true }>;

async function insertWithTurn(db: Database, a: {
  opened: Opened; checked: Checked; slug: string; gmToken: string; seed: string; openingSeed: string; demo: boolean; gmEmail: string | null;
}): Promise<string> {
  return db.prisma.$transaction(async (tx) => {
    const campaignId = await insertCampaign(tx, a.opened.state, {
      slug: a.slug, gmTokenHash: sha256(a.gmToken), scenario: a.checked.scenario, demo: a.demo, gmEmail: a.gmEmail,
    });
    await tx.turn.create({
      data: { campaignId, number: a.opened.state.turn, openingSeed: a.openingSeed, openingEvents: a.opened.events as object[], seed: a.seed, seedHash: sha256(a.seed) },
    });
    await tx.auditEntry.create({ data: { campaignId, actor: 'gm', action: 'campaign.created', details: { scenario: a.checked.scenario.name, seedHash: sha256(a.seed) } } });
    return campaignId;
    // A whole scenario is many rows: the 5 s default is short for a busy server.
  }, { timeout: 60_000, maxWait: 30_000 });
}
