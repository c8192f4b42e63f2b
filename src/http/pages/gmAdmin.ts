/**
 * The GM's administration pages: the open turn's deadline (set, extend, clear; grace,
 * auto-resolve, early resolve), GM overrides (move a fleet, change a port's owner, add
 * reinforcements), roll back (and re-run) the last turn, and the
 * audit log. Each action is the use case the API calls too (src/campaign/deadline.ts,
 * overrides.ts, rollback.ts); each is written to the audit log there.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { resolveBattleWithTable } from '../../campaign/battles.js';
import { clearDeadline, MAX_GRACE_MINUTES, setDeadline, setEarlyResolve } from '../../campaign/deadline.js';
import { auditInWords } from '../../campaign/auditText.js';
import { UseCaseError } from '../../campaign/errors.js';
import { changePortOwner, moveFleet, reinforce } from '../../campaign/overrides.js';
import { campaignState } from '../../campaign/readCampaign.js';
import { resolveOpenTurn } from '../../campaign/resolveTurn.js';
import { rollbackLastTurn } from '../../campaign/rollback.js';
import { auditLog, turnStatus } from '../../campaign/turnStatus.js';
import { CREW_QUALITIES, STANCES, type CrewQuality, type Stance } from '../../rules/terms.js';
import { field, layoutData, PageError, pageContext, redirect, sendPage, type PageContext, type PageDeps, gmActor } from './context.js';
import { diceChoice, errorOf, parseDiceScript } from './present.js';
import { wallClockToUtc } from '../../campaign/schedule.js';

type Ref = { Params: { ref: string } };

const DONE: Record<string, string> = {
  deadline: 'The deadline is set.',
  'deadline-cleared': 'The deadline is removed (and with it auto-resolve).',
  early: 'The early-resolve policy is saved.',
  moved: 'The fleet was moved.',
  port: 'The port changed hands.',
  reinforced: 'The reinforcements were added.',
};

/**
 * A date and time from the form: "2026-03-01T18:00" is read on the GM's own clock (their time
 * zone, UTC unless they set one: deadlines are in the reader's zone everywhere); ISO 8601
 * with a zone or offset is taken as written.
 */
export function parseDeadline(text: string, timeZone = 'UTC'): Date {
  const t = text.trim().replace(' ', 'T');
  if (!t) throw new PageError(400, 'No deadline', `Give the deadline's date and time (${timeZone}), or hours to extend by.`);
  const wall = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2})?$/.exec(t);
  const d = wall ? wallClockToUtc(+wall[1]!, +wall[2]!, +wall[3]!, +wall[4]!, +wall[5]!, timeZone) : new Date(t);
  if (Number.isNaN(d.getTime())) throw new PageError(400, 'Bad deadline', `'${text.slice(0, 40)}' is not a date and time; write it as 2026-03-01T18:00 (${timeZone}).`);
  return d;
}

/** An instant as the form's value on the GM's own clock: "2026-03-01T13:00". */
export function deadlineFormValue(iso: string, timeZone = 'UTC'): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }).formatToParts(new Date(iso));
  const n = (t: string) => parts.find((p) => p.type === t)!.value;
  return `${n('year')}-${n('month')}-${n('day')}T${n('hour')}:${n('minute')}`;
}

/** Reinforcement ships, one a line: "Name, class[, crew quality][, supplies]". */
export function parseShips(text: string, classKeys: readonly string[]): { name: string; class: string; crewQuality?: CrewQuality; supplies?: number }[] {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length > 0);
  if (lines.length === 0) throw new PageError(400, 'No ships', 'List the new ships, one a line: name, class (e.g. "HMS Ajax, sol-74").');
  return lines.map((line, i) => {
    const [name, cls, ...rest] = line.split(',').map((x) => x.trim());
    if (!name || !cls) throw new PageError(400, 'Bad ship line', `Ship line ${i + 1} ('${line.slice(0, 40)}') needs a name and a class, separated by a comma. Classes: ${classKeys.join(', ')}.`);
    const ship: { name: string; class: string; crewQuality?: CrewQuality; supplies?: number } = { name, class: cls };
    for (const r of rest) {
      if (/^\d+$/.test(r)) ship.supplies = Number(r);
      else if ((CREW_QUALITIES as readonly string[]).includes(r.toLowerCase())) ship.crewQuality = r.toLowerCase() as CrewQuality;
      else if (r) throw new PageError(400, 'Bad ship line', `Ship line ${i + 1}: '${r.slice(0, 20)}' is neither a crew quality (${CREW_QUALITIES.join(', ')}) nor months of supplies.`);
    }
    return ship;
  });
}

const routes: FastifyPluginAsync<{ pages: PageDeps }> = async (app, { pages }) => {
  const { db, jobs } = pages;

  async function adminData(ctx: PageContext, extra: object = {}) {
    const [state, status, audit] = await Promise.all([
      campaignState(db, ctx.campaign.id), turnStatus(db, ctx.campaign.id), auditLog(db, ctx.campaign.id, { limit: 50 }),
    ]);
    const powerName = new Map(state.powers.map((p) => [p.key, p.name]));
    const nodeName = new Map(state.nodes.map((n) => [n.id, n.name]));
    return {
      ...layoutData(ctx, `Deadline and overrides — turn ${status.turn}`, { section: 'admin' }),
      turn: status.turn, deadline: status.deadline, graceMinutes: status.graceMinutes, closesAt: status.closesAt,
      autoResolve: status.autoResolve, earlyResolve: status.earlyResolve, maxGrace: MAX_GRACE_MINUTES,
      deadlineValue: status.deadline ? deadlineFormValue(status.deadline, ctx.timeZone) : '', deadlineZone: ctx.timeZone,
      fleets: state.fleets.filter((f) => f.ships.some((s) => s.status === 'afloat')).map((f) => ({
        id: f.id, name: f.name, power: powerName.get(f.power) ?? f.power, where: `${nodeName.get(f.at) ?? f.at}${f.inHarbor ? ' (in harbor)' : ''}`,
      })),
      nodes: state.nodes.map((n) => ({ id: n.id, name: n.name, kind: n.kind })),
      ports: state.ports.map((p) => ({ node: p.node, name: nodeName.get(p.node) ?? p.node, owner: powerName.get(p.owner) ?? p.owner })),
      powers: state.powers.map((p) => ({ key: p.key, name: p.name, playable: p.playable })),
      playable: status.powers.map((p) => ({ key: p.power, name: p.name, player: p.player, missedTurns: p.missedTurns })),
      classes: state.shipClasses.map((c) => ({ key: c.key, name: c.name })),
      stances: STANCES, crewQualities: CREW_QUALITIES,
      audit: await auditInWords(db, ctx.campaign.id, audit, ctx.timeZone),
      ...extra,
    };
  }

  app.get<Ref & { Querystring: { done?: string } }>('/c/:ref/gm/admin', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    return sendPage(reply, 'gm-admin', await adminData(ctx, { done: req.query.done ? DONE[req.query.done] ?? null : null }));
  });

  /** Run an admin action: on a use-case error, show the admin page again with the message. */
  async function act(ctx: PageContext, reply: FastifyReply, done: string, work: () => Promise<unknown>) {
    try {
      await work();
    } catch (err) {
      if (!(err instanceof UseCaseError) && !(err instanceof PageError)) throw err;
      const e = errorOf(err);
      const problems = err instanceof UseCaseError ? err.problems.map((p) => p.message) : [];
      return sendPage(reply, 'gm-admin', await adminData(ctx, { error: e.message, problems }), e.status);
    }
    return redirect(reply, `${ctx.base}/gm/admin?done=${done}`);
  }

  app.post<Ref>('/c/:ref/gm/deadline', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    const b = req.body;
    return act(ctx, reply, 'deadline', async () => {
      const hours = field(b, 'extendHours').trim();
      let deadline: Date;
      if (hours) {
        const h = Number(hours);
        if (!Number.isFinite(h) || h <= 0 || h > 24 * 90) throw new PageError(400, 'Bad extension', 'Extend by a number of hours, more than 0 and at most 2160 (90 days).');
        const status = await turnStatus(db, ctx.campaign.id);
        const from = status.deadline ? Math.max(new Date(status.deadline).getTime(), Date.now()) : Date.now();
        deadline = new Date(from + h * 3_600_000);
      } else {
        deadline = parseDeadline(field(b, 'deadline'), ctx.timeZone);
      }
      const grace = field(b, 'graceMinutes').trim();
      const graceMinutes = grace === '' ? undefined : Number(grace);
      if (graceMinutes !== undefined && !Number.isInteger(graceMinutes)) throw new PageError(400, 'Bad grace period', 'The grace period is a whole number of minutes.');
      const auto = field(b, 'autoResolve');
      await setDeadline(db, ctx.campaign.id, {
        deadline, graceMinutes, autoResolve: auto === '' ? undefined : auto === 'on' || auto === 'yes', reason: field(b, 'reason').trim() || undefined,
      }, gmActor(ctx));
    });
  });

  app.post<Ref>('/c/:ref/gm/deadline/clear', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    return act(ctx, reply, 'deadline-cleared', () => clearDeadline(db, ctx.campaign.id, gmActor(ctx), field(req.body, 'reason').trim() || undefined));
  });

  app.post<Ref>('/c/:ref/gm/early-resolve', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm', 'early-resolve');
    return act(ctx, reply, 'early', () => setEarlyResolve(db, ctx.campaign.id, field(req.body, 'earlyResolve') === 'yes', gmActor(ctx)));
  });

  app.post<Ref>('/c/:ref/gm/overrides/move', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    const b = req.body;
    const harbor = field(b, 'inHarbor');
    return act(ctx, reply, 'moved', () => moveFleet(db, ctx.campaign.id, {
      fleet: field(b, 'fleet'), to: field(b, 'to'),
      ...(harbor === 'yes' ? { inHarbor: true } : harbor === 'no' ? { inHarbor: false } : {}),
      reason: field(b, 'reason').trim() || undefined,
    }, gmActor(ctx)));
  });

  app.post<Ref>('/c/:ref/gm/overrides/port', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    const b = req.body;
    return act(ctx, reply, 'port', () => changePortOwner(db, ctx.campaign.id, { port: field(b, 'port'), owner: field(b, 'owner'), reason: field(b, 'reason').trim() || undefined }, gmActor(ctx)));
  });

  app.post<Ref>('/c/:ref/gm/overrides/reinforce', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    const b = req.body;
    return act(ctx, reply, 'reinforced', async () => {
      const state = await campaignState(db, ctx.campaign.id);
      const harbor = field(b, 'inHarbor');
      const stance = field(b, 'stance');
      await reinforce(db, ctx.campaign.id, {
        power: field(b, 'power'), at: field(b, 'at'), fleetName: field(b, 'fleetName'),
        ships: parseShips(field(b, 'ships'), state.shipClasses.map((c) => c.key)),
        ...(harbor === 'yes' ? { inHarbor: true } : harbor === 'no' ? { inHarbor: false } : {}),
        ...((STANCES as readonly string[]).includes(stance) ? { stance: stance as Stance } : {}),
        reason: field(b, 'reason').trim() || undefined,
      }, gmActor(ctx));
    });
  });

  /** A pending battle settled with the abstract table (optionally with the GM's real dice). */
  app.post<Ref & { Params: { key: string } }>('/c/:ref/gm/battles/:key/abstract', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm', 'battles');
    const dice = parseDiceScript(field(req.body, 'dice'));
    await resolveBattleWithTable(db, ctx.campaign.id, req.params.key, { ...(dice ? { dice } : {}), actor: gmActor(ctx) });
    return redirect(reply, `${ctx.base}/gm?settled=${encodeURIComponent(req.params.key)}`);
  });

  /** Roll back the last resolved turn; optionally resolve it again at once (as a job). */
  app.post<Ref>('/c/:ref/gm/rollback', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    const b = req.body;
    const rerunNow = field(b, 'rerunNow') === 'yes';
    const choice = rerunNow ? diceChoice(b) : null;
    const turnField = Number(field(b, 'turn'));
    const outcome = await rollbackLastTurn(db, ctx.campaign.id, gmActor(ctx), {
      ...(Number.isInteger(turnField) && turnField > 0 ? { turn: turnField } : {}),
      discardOverrides: field(b, 'discardOverrides') === 'yes',
      reason: field(b, 'reason').trim() || undefined,
    });
    if (!choice) return redirect(reply, `${ctx.base}/gm/preview?rolledBack=${outcome.turn}`);
    const { job } = jobs.start(ctx.campaign.id, `Re-running turn ${outcome.turn}`, async () => {
      const r = await resolveOpenTurn(db, ctx.campaign.id, { expectedTurn: outcome.turn, seed: choice.seed, dice: choice.dice }, gmActor(ctx));
      return `${ctx.base}/gm/turns/${r.turn}?resolved=1`;
    }, errorOf);
    return redirect(reply, `${ctx.base}/gm/jobs/${job.id}`);
  });
};

export default routes;
