/**
 * The GM's turn pages: the dashboard (full map, every fleet, orders status per power,
 * deadline, victory points, the open turn's seed hash), PREVIEW (a dry run: the whole
 * event log with its dice and each power's cut of it, nothing stored), RESOLVE (one
 * transaction, run as a job whose page says "resolving…" until it is done), and the turn
 * history with the event log, the dice audit and every earlier run of a re-run turn.
 */
import { standingOrdersMark } from '../../words/absence.js';
import { sentByWords } from '../../words/audit.js';
import { gmAbsenceData } from './gmAbsences.js';
import type { FastifyPluginAsync } from 'fastify';
import { auditInWords, auditInWordsWith, auditNamesOf } from '../../campaign/auditText.js';
import { publishedIssueOf } from '../../campaign/gazette.js';
import { gazetteTitle } from '../../words/gazette.js';
import { UseCaseError } from '../../campaign/errors.js';
import { campaignState, readCampaign } from '../../campaign/readCampaign.js';
import { resolveOpenTurn, type ResolveOutcome } from '../../campaign/resolveTurn.js';
import { confirmEarlyResolve } from './resolveConfirm.js';
import { rollbackOffer, turnHistory } from '../../campaign/rollback.js';
import { diceSentence, seedSourceOf } from '../../campaign/seeds.js';
import { turnLog } from '../../campaign/turnLog.js';
import { auditLog, turnStatus } from '../../campaign/turnStatus.js';
import { missionText } from '../../words/missions.js';
import { FLEETS_NOT_SHOWN, mapFromState, renderMapSvg, safeColor, type MapPlottedInput } from '../../map/svg.js';
import { turnFromEvents } from '../../map/turnLayer.js';
import { plottedOrders } from '../../campaign/plottedOrders.js';
import type { CampaignState } from '../../rules/state.js';
import { eventsFor } from '../../rules/view.js';
import { keptFragment } from './fragments.js';
import { field, layoutData, PageError, pageContext, redirect, sendPage, type PageContext, type PageDeps, gmActor } from './context.js';
import { diceAudit, diceChoice, diceWords, errorOf, expectedTurnField, fleetRows, gmEventGroups, nodeNamer, openingGroups, playerEventGroups } from './present.js';
import { wholeNumber } from '../schemas.js';
import { formats as packageLinks } from './gmBattles.js';
import { gmBattleDesks } from '../../campaign/read/desks.js';
import { turnHistoryList } from '../../campaign/read/turns.js';
import { turnRecord } from '../../campaign/read/turnRecord.js';
import { deskData } from './battleDesk.js';
import { mailProgressData } from './mailProgress.js';

type Ref = { Params: { ref: string } };

const STATUS_WORDS = { none: 'none', has_errors: 'has errors', ready: 'ready' } as const;

const routes: FastifyPluginAsync<{ pages: PageDeps }> = async (app, { pages }) => {
  const { db, jobs } = pages;

  function fullMap(ctx: PageContext, state: CampaignState, plotted: MapPlottedInput[] = []): string {
    return renderMapSvg(mapFromState(state, {
      title: `${ctx.campaign.name}: every fleet, turn ${state.turn}${plotted.length ? ', with the moves plotted so far' : ''} (GM)`,
      highlight: state.battles.filter((b) => b.status === 'pending').map((b) => b.node),
      plotted,
    }), { width: 900 });
  }

  app.get<Ref & { Querystring: { settled?: string } }>('/c/:ref/gm', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    // Read at the version read with the session: while the campaign is unchanged, the turn
    // status and the page's big fragment (map, missions, fleets, audit) are kept (readCampaign.ts).
    const read = await readCampaign(db, ctx.campaign.id, ctx.stateVersion);
    const { state } = read;
    const status = await read.made('turn-status', () => turnStatus(db, ctx.campaign.id));
    const nodeName = nodeNamer(state.nodes);
    const powerName = new Map(state.powers.map((p) => [p.key, p.name]));
    // Kept per version and the GM's time zone (the audit shows times): fragments.ts.
    const body = await keptFragment(read, ctx, { template: 'gm-dashboard-body', power: null, times: true }, async () => {
      const [audit, plotted] = await Promise.all([auditLog(db, ctx.campaign.id, { limit: 8 }), plottedOrders(db, ctx.campaign.id, state)]);
      return {
        base: ctx.base, mapSvg: fullMap(ctx, state, plotted), plottedCount: plotted.length,
        powers: status.powers.map((p) => ({ name: p.name, power: p.power, mission: missionText(state.powers.find((x) => x.key === p.power)?.mission ?? null, nodeName) })),
        fleets: fleetRows(state.fleets, { classes: state.shipClasses, nodeName, powers: state.powers }),
        audit: auditInWordsWith(auditNamesOf(state, ctx.timeZone), audit),
      };
    });
    const running = jobs.running(ctx.campaign.id);
    // The last turn's mail as the worker draws and sends it (not cached: the queue is no campaign state).
    const lastMail = status.turn > 1 ? await mailProgressData(db, ctx, status.turn - 1) : null;
    const settledBattle = req.query.settled ? state.battles.find((b) => b.id === req.query.settled && b.status === 'resolved') : undefined;
    const settled = settledBattle ? {
      id: settledBattle.id, turn: settledBattle.turn,
      winner: settledBattle.result?.winner ? powerName.get(settledBattle.result.winner) ?? settledBattle.result.winner : null,
    } : null;
    // The battle desk: each pending battle's deadline, agreed date, and what is missing.
    const desks = new Map((await gmBattleDesks(db, ctx.campaign.id)).map((d) => [d.key, deskData(d, ctx.timeZone, { power: null })]));
    return sendPage(reply, 'gm-dashboard', {
      ...layoutData(ctx, `GM dashboard — turn ${state.turn}`, { section: 'dashboard' }),
      body,
      turn: status.turn, rerun: status.rerun, run: status.run,
      deadline: status.deadline, closesAt: status.closesAt, graceMinutes: status.graceMinutes, autoResolve: status.autoResolve,
      earlyResolve: status.earlyResolve, everyoneReady: status.everyoneReady, seedHash: status.seedHash,
      winner: status.winner ? powerName.get(status.winner) ?? status.winner : null,
      pendingBattles: state.battles.filter((b) => b.status === 'pending').map((b) => ({
        id: b.id, href: `${ctx.base}/gm/battles/${encodeURIComponent(b.id)}`, where: nodeName(b.node), turn: b.turn, phase: b.phase,
        sides: b.sides.map((s) => powerName.get(s.power) ?? s.power).join(' against '),
        desk: desks.get(b.id) ?? null,
      })),
      powers: status.powers.map((p) => ({ ...p, sentBy: p.sentBy ? sentByWords(p.sentBy) : null, statusWord: STATUS_WORDS[p.status], statusClass: p.status.replace('_', '-') })),
      standings: state.powers.filter((p) => p.playable).map((p) => ({ name: p.name, color: safeColor(p.color), vp: p.vp })),
      vpGoal: state.vpGoal,
      running: running ? { id: running.id, label: running.label } : null,
      lastMail,
      settled,
      // Resolve from here in one click, with the turn's own seed (dice or a seed of the GM's: the
      // preview page). Not while a job runs, once the campaign is won, or while a pending battle
      // holds the turn up (nor once the GM ended it: ctx.over); before the deadline the server asks first (resolveConfirm.ts).
      canResolve: !running && !status.winner && !ctx.over && (state.settings.allowPendingBattles || !state.battles.some((b) => b.status === 'pending')),
      // The dry run, in one click: its page offers "Resolve now" (the preview is the confirmation).
      canPreview: !running && !status.winner && !ctx.over,
      beforeDeadline: status.deadline !== null && new Date(status.deadline).getTime() > Date.now(),
      nextTurn: status.turn + 1,
      ...await gmAbsenceData(db, ctx),
    });
  });

  async function previewPage(ctx: PageContext, extra: object) {
    const [status, state, rollback] = await Promise.all([turnStatus(db, ctx.campaign.id), campaignState(db, ctx.campaign.id), rollbackOffer(db, ctx.campaign.id)]);
    const running = jobs.running(ctx.campaign.id);
    return {
      ...layoutData(ctx, `Preview and resolve turn ${status.turn}`, { section: 'resolve' }),
      turn: status.turn, nextTurn: status.turn + 1, rerun: status.rerun, run: status.run, seedHash: status.seedHash, winner: status.winner,
      lastResolved: status.turn > 1 ? status.turn - 1 : null,
      // Roll-back is offered only when it can be done; otherwise the page says why not.
      rollback: rollback.possible ? { possible: true, overrides: rollback.overridesSince } : { possible: false, reason: rollback.reason },
      powers: status.powers.map((p) => ({ ...p, sentBy: p.sentBy ? sentByWords(p.sentBy) : null, statusWord: STATUS_WORDS[p.status], statusClass: p.status.replace('_', '-') })),
      pendingBattles: status.pendingBattles,
      allowPending: state.settings.allowPendingBattles,
      // Before the deadline the server asks (resolveConfirm.ts): no second, browser-side question.
      beforeDeadline: status.deadline !== null && new Date(status.deadline).getTime() > Date.now(),
      running: running ? { id: running.id, label: running.label } : null,
      seedText: '', diceText: '',
      ...extra,
    };
  }

  app.get<Ref & { Querystring: { rolledBack?: string } }>('/c/:ref/gm/preview', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    const rolledBack = req.query.rolledBack ? Number(req.query.rolledBack) : null;
    return sendPage(reply, 'gm-preview', await previewPage(ctx, { rolledBack: Number.isInteger(rolledBack) ? rolledBack : null }));
  });

  app.post<Ref>('/c/:ref/gm/preview', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    let choice: ReturnType<typeof diceChoice>;
    let expectedTurn: number;
    try {
      expectedTurn = expectedTurnField(req.body);
      choice = diceChoice(req.body);
    } catch (err) {
      const e = errorOf(err);
      return sendPage(reply, 'gm-preview', await previewPage(ctx, { error: e.message, seedText: field(req.body, 'seed'), diceText: field(req.body, 'dice') }), e.status);
    }
    let outcome: ResolveOutcome;
    try {
      outcome = await resolveOpenTurn(db, ctx.campaign.id, { expectedTurn, seed: choice.seed, dice: choice.dice, dryRun: true }, gmActor(ctx));
    } catch (err) {
      if (!(err instanceof UseCaseError)) throw err;
      const e = errorOf(err);
      return sendPage(reply, 'gm-preview', await previewPage(ctx, { error: e.message, seedText: choice.seedText, diceText: choice.diceText }), e.status);
    }
    const state = await campaignState(db, ctx.campaign.id);
    const nodeName = nodeNamer(state.nodes);
    const powerName = new Map(state.powers.map((p) => [p.key, p.name]));
    const status = await turnStatus(db, ctx.campaign.id);
    const preview = {
      turn: outcome.turn, nextTurn: outcome.nextTurn, rerun: outcome.rerun,
      // "Resolve now" from the preview itself, as the dashboard would allow it (no job running, no battle holding the turn up).
      canResolve: !jobs.running(ctx.campaign.id) && !status.winner && !ctx.over
        && (state.settings.allowPendingBattles || !state.battles.some((b) => b.status === 'pending')),
      dice: diceWords(choice, status.seedHash), diceWarning: outcome.diceWarning ?? null,
      missing: outcome.missingOrders.map((k) => powerName.get(k) ?? k),
      winner: outcome.winner ? powerName.get(outcome.winner) ?? outcome.winner : null,
      battles: outcome.battles.map((b) => ({
        id: b.id, where: nodeName(b.node), phase: b.phase, harbor: b.harbor,
        sides: b.sides.map((s) => `${powerName.get(s.power) ?? s.power} (${s.shipIds.length} ${s.shipIds.length === 1 ? 'ship' : 'ships'})`).join(' against '),
      })),
      eventCount: outcome.events.length + outcome.openingEvents.length,
      groups: gmEventGroups([...outcome.events, ...outcome.openingEvents]),
      rolls: diceAudit([...outcome.events, ...outcome.openingEvents]),
      reports: state.powers.filter((p) => p.playable).map((p) => {
        const cut = eventsFor([...outcome.events, ...outcome.openingEvents], { role: 'player', power: p.key });
        return { name: p.name, count: cut.length, groups: playerEventGroups(cut) };
      }),
    };
    return sendPage(reply, 'gm-preview', await previewPage(ctx, { preview, seedText: choice.seedText, diceText: choice.diceText }));
  });

  app.post<Ref>('/c/:ref/gm/resolve', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    const expectedTurn = expectedTurnField(req.body);
    const choice = diceChoice(req.body);
    const status = await turnStatus(db, ctx.campaign.id);
    if (expectedTurn < status.turn) {
      throw new PageError(409, 'Already resolved', `Turn ${expectedTurn} has been resolved already (turn ${status.turn} is open). Nothing was done.`);
    }
    if (expectedTurn > status.turn) throw new PageError(409, 'Not open', `Turn ${expectedTurn} is not open (turn ${status.turn} is). Nothing was done.`);
    const confirm = confirmEarlyResolve(reply, ctx, status, req.body);
    if (confirm) return confirm;
    const { job } = jobs.start(ctx.campaign.id, `Resolving turn ${expectedTurn}`, async () => {
      // A resolve of the same turn started elsewhere meanwhile (another window or instance)
      // makes this one a no-op: alreadyResolved, and the page shows the turn as resolved.
      const outcome = await resolveOpenTurn(db, ctx.campaign.id, { expectedTurn, seed: choice.seed, dice: choice.dice }, gmActor(ctx));
      return `${ctx.base}/gm/turns/${outcome.turn}?resolved=1`;
    }, errorOf);
    return redirect(reply, `${ctx.base}/gm/jobs/${job.id}`);
  });

  app.get<Ref & { Params: { id: string } }>('/c/:ref/gm/jobs/:id', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    const job = jobs.get(ctx.campaign.id, req.params.id);
    if (!job) throw new PageError(404, 'No such job', 'That job is not known (the service may have restarted). The dashboard shows where the turn stands.');
    // Answer at once when the job is quick; otherwise show "resolving…" and refresh.
    await jobs.settle(job, 1500);
    if (job.status === 'done' && job.resultUrl) return redirect(reply, job.resultUrl);
    const seconds = Math.round(((job.finishedAt ?? new Date()).getTime() - job.startedAt.getTime()) / 1000);
    return sendPage(reply, 'gm-job', {
      ...layoutData(ctx, job.status === 'running' ? `${job.label}…` : `${job.label}: failed`, { section: 'resolve' }),
      job: { id: job.id, label: job.label, running: job.status === 'running', failed: job.status === 'failed', error: job.error, seconds, startedAt: job.startedAt },
      refresh: job.status === 'running',
    }, job.status === 'failed' ? job.error?.status ?? 500 : 200);
  });

  app.get<Ref>('/c/:ref/gm/turns', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    const turns = await turnHistoryList(db, ctx.campaign.id);
    return sendPage(reply, 'gm-turns', {
      ...layoutData(ctx, 'Turn history', { section: 'turns' }),
      turns: turns.map((t) => ({
        number: t.number, open: t.status === 'open', openedAt: t.openedAt, resolvedAt: t.resolvedAt, reruns: t.reruns,
        seedHash: t.seedHash, seed: t.status === 'resolved' ? t.seed : null, scripted: seedSourceOf(t) === 'script', givenByGm: seedSourceOf(t) === 'gm',
        deadline: t.deadline, events: t._count.events,
      })),
    });
  });

  app.get<Ref & { Params: { n: string }; Querystring: { resolved?: string } }>('/c/:ref/gm/turns/:n', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    const n = wholeNumber(req.params.n, 1);
    if (n === undefined) throw new PageError(404, 'No such turn', 'Turns are numbered from 1.');
    const [log, history] = await Promise.all([turnLog(db, ctx.campaign.id, n, { role: 'gm' }), turnHistory(db, ctx.campaign.id, n)]);
    const [{ vp, sets }, state] = await Promise.all([turnRecord(db, ctx.campaign.id, n), campaignState(db, ctx.campaign.id)]);
    const open = log.status === 'open';
    // The powers that sent no orders: so far for the open turn; as the resolution recorded them otherwise.
    const powerName = (k: string) => state.powers.find((p) => p.key === k)?.name ?? k;
    const resolution = history.audit.filter((a) => a.action === 'turn.resolved').at(-1)?.details as { missingOrders?: string[]; standingOrders?: string[] } | undefined;
    const noOrders = open
      ? (await turnStatus(db, ctx.campaign.id)).powers.filter((p) => p.status === 'none').map((p) => p.name)
      : (resolution?.missingOrders ?? []).map(powerName);
    // Every fleet's track in the turn (the GM's cut of the log is the whole log).
    const names = new Map(state.fleets.map((f) => [f.id, f.name]));
    const trackInput = mapFromState(state, {
      title: `${ctx.campaign.name}: turn ${n}, every track (GM)`,
      turn: turnFromEvents(log.events, { names, sightings: false }),
    });
    // The fleets stand where this turn left them only if no later turn has been resolved.
    const trackSvg = open ? null : renderMapSvg(n === state.turn - 1 ? trackInput : { ...trackInput, fleets: [], note: FLEETS_NOT_SHOWN }, { width: 900 });
    // This turn's battles, with what the GM does next for a pending one: its package for the
    // table and the result form, straight from the turn just resolved (fewer actions for the GM).
    const nodeName = nodeNamer(state.nodes);
    const battles = state.battles.filter((b) => b.turn === n).map((b) => {
      const href = `${ctx.base}/gm/battles/${encodeURIComponent(b.id)}`;
      return {
        id: b.id, href, resultHref: `${href}/result`, phase: b.phase, where: `${nodeName(b.node)}${b.harbor ? ' (harbor attack)' : ''}`,
        sides: b.sides.map((s) => powerName(s.power)).join(' against '), pending: b.status === 'pending',
        winner: b.result ? (b.result.winner ? powerName(b.result.winner) : 'no winner') : null, formats: packageLinks(ctx.base, b.id),
      };
    });
    async function gazetteOfTurn(t: number) {
      const g = await publishedIssueOf(db, ctx.campaign.id, t);
      return g ? { ...g, title: gazetteTitle(t) } : null;
    }
    return sendPage(reply, 'gm-turn', {
      ...layoutData(ctx, `Turn ${n}${open ? ' (open)' : ''}`, { section: 'turns' }),
      battles, gazette: await gazetteOfTurn(n),
      justResolved: req.query.resolved === '1' && !open, nextTurn: n + 1, currentTurn: state.turn,
      // Its reports on their way, live: "reports sent" without the Mail page.
      mail: open ? null : await mailProgressData(db, ctx, n),
      mapSvg: trackSvg, scripts: ['mapphases.js'],
      turn: n, open, run: log.run, rerun: log.run > 0, resolvedAt: log.resolvedAt, noOrders, knowsNoOrders: open || resolution !== undefined,
      standingOrdersText: resolution?.standingOrders?.length ? standingOrdersMark(resolution.standingOrders.map(powerName)) : null,
      seed: log.seed, seedHash: log.seedHash, seedSource: log.seedSource, diceScript: log.diceScript.join(' '),
      opening: openingGroups(log.openingEvents, true), openingRolls: diceAudit(log.openingEvents),
      groups: gmEventGroups(log.events), rolls: diceAudit(log.events), eventCount: log.events.length,
      earlierRuns: history.runs.filter((r) => !r.current).map((r) => ({ run: r.run, count: r.events.length, dice: r.dice ? diceSentence(r.dice) : null, groups: gmEventGroups(r.events), rolls: diceAudit(r.events) })),
      history: await auditInWords(db, ctx.campaign.id, history.audit, ctx.timeZone),
      vp, standings: state.powers.filter((p) => p.playable).map((p) => ({ name: p.name, color: safeColor(p.color), vp: p.vp })), vpGoal: state.vpGoal,
      orderSets: sets.sort((a, b) => a.power.position - b.power.position).map((s) => ({ power: s.power.name, text: s.rawText, ready: s.ready, source: s.source, receivedAt: s.receivedAt, sentBy: sentByWords(s.actor) })),
    });
  });
};

export default routes;
