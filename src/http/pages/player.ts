/**
 * The player's pages: the power's view on the map (with fleets, damage, supplies, the
 * mission and what is known of the enemy), the orders form (Check runs the checker and
 * stores nothing; Send stores the set, source 'web') and the past turn reports.
 *
 * Everything shown comes from viewFor (readCampaign.powerView) and from the event log cut
 * to the power (turnLog with the player as reader): the server cuts the view.
 */
import { standingOrdersSentence } from '../../words/absence.js';
import { openingTitle } from '../../words/events.js';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { powerView, readCampaign, viewOf, type CampaignRead } from '../../campaign/readCampaign.js';
import { checkOrders, checkWarnings, type OrdersCheck } from '../../campaign/submitOrders.js';
import { turnLog } from '../../campaign/turnLog.js';
import { currentOrderSet, sentOrderSet } from '../../campaign/read/orderSets.js';
import { turnHeading, turnReportList } from '../../campaign/read/turns.js';
import { despatchesDeliveredWith } from '../../campaign/despatches.js';
import { publishedIssueOf } from '../../campaign/gazette.js';
import { gazetteTitle } from '../../words/gazette.js';
import { sendOrders } from '../../campaign/sendOrders.js';
import { despatchFrom, despatchNote, despatchReportHead, listOfPowers } from '../../words/despatches.js';
import { missionText, ordersCheckSummary, quotedNamesExample } from '../../words/index.js';
import { FLEETS_NOT_SHOWN, mapFromView, renderMapSvg, safeColor } from '../../map/svg.js';
import { turnFromEvents } from '../../map/turnLayer.js';
import { ownPlotted } from '../../map/plotted.js';
import type { PowerOrders } from '../../rules/orders.js';
import type { PowerView } from '../../rules/view.js';
import { field, forbidden, layoutData, PageError, pageContext, redirect, sendPage, type PageContext, type PageDeps } from './context.js';
import { sessionActor } from './session.js';
import { keptFragment } from './fragments.js';
import { enemyRows, fleetRows, nodeNamer, openingGroups, orderStatus, playerEventGroups } from './present.js';
import { wholeNumber } from '../schemas.js';
import { tooLargeReason } from '../../orders/index.js';

type Ref = { Params: { ref: string } };

const routes: FastifyPluginAsync<{ pages: PageDeps }> = async (app, { pages }) => {
  const { db } = pages;

  /** The power whose view is shown: the player's own; the GM may look at any playable one. */
  function readerPower(ctx: PageContext, read: CampaignRead, requested: string | undefined): string {
    if (ctx.session.r === 'player') {
      if (requested && requested !== ctx.session.p) throw forbidden('A player may only see their own power\'s view.');
      return ctx.session.p!;
    }
    const powers = read.state.powers.filter((p) => p.playable);
    const key = requested ?? powers[0]?.key;
    if (!key || !powers.some((p) => p.key === key)) throw new PageError(404, 'No such power', `No playable power '${requested ?? ''}' in this campaign.`);
    return key;
  }

  async function openTurnInfo(campaignId: string, number: number) {
    return turnHeading(db, campaignId, number);
  }

  async function currentSet(campaignId: string, turnId: string | undefined, power: string) {
    return currentOrderSet(db, campaignId, turnId, power);
  }

  function standings(view: PowerView) {
    return view.powers.filter((p) => p.playable).map((p) => ({ name: p.name, color: safeColor(p.color), vp: p.vp, me: p.key === view.power }));
  }

  function commonView(view: PowerView) {
    const nodeName = nodeNamer(view.nodes);
    const me = view.powers.find((p) => p.key === view.power);
    return {
      nodeName,
      powerName: me?.name ?? view.power,
      powerColor: safeColor(me?.color),
      fleets: fleetRows(view.fleets, { classes: view.shipClasses, nodeName, powers: view.powers }),
      mission: missionText(view.mission, nodeName),
      standings: standings(view),
      vpGoal: view.vpGoal,
      winner: view.winner ? view.powers.find((p) => p.key === view.winner)?.name ?? view.winner : null,
    };
  }

  app.get<Ref & { Querystring: { power?: string } }>('/c/:ref/map', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref);
    // Read at the version read with the session: while the campaign is unchanged, the view,
    // the open turn, the orders' status and the page's big fragment are all kept (readCampaign.ts).
    const read = await readCampaign(db, ctx.campaign.id, ctx.stateVersion);
    const power = readerPower(ctx, read, req.query.power);
    const view = viewOf(read, power);
    const me = view.powers.find((p) => p.key === view.power);
    const powerName = me?.name ?? view.power;
    const turn = await read.made('open-turn', () => openTurnInfo(ctx.campaign.id, view.turn));
    const set = await read.made(`current-orders:${power}`, () => currentSet(ctx.campaign.id, turn?.id, power));
    // The map, fleets, mission, standings and enemies: kept per version, role and power (fragments.ts).
    const body = await keptFragment(read, ctx, { template: 'player-map-body', power }, () => {
      const common = commonView(view);
      const pending = view.battles.filter((b) => b.status === 'pending');
      return {
        // base: the campaign's path, the same for every reader of it (links to the battle's sheets).
        ...common, base: ctx.base, turn: view.turn, seedHash: turn?.seedHash ?? null, rerun: (turn?.reruns ?? 0) > 0, enemies: enemyRows(view),
        pendingBattles: pending.map((b) => ({
          id: b.id, where: common.nodeName(b.node), turn: b.turn, phase: b.phase,
          sides: b.sides.map((s) => view.powers.find((p) => p.key === s.power)?.name ?? s.power).join(' against '),
        })),
        mapSvg: renderMapSvg(mapFromView(view, { title: `${ctx.campaign.name}: what ${powerName} knows, turn ${view.turn}`, highlight: pending.map((b) => b.node) }), { width: 900 }),
      };
    });
    const gmPowers = ctx.session.r === 'gm' ? view.powers.filter((p) => p.playable).map((p) => ({ key: p.key, name: p.name, on: p.key === power })) : null;
    return sendPage(reply, 'player-map', {
      ...layoutData(ctx, `${powerName} — turn ${view.turn}`, { section: 'map' }),
      body, turn: view.turn, deadline: turn?.deadline ?? null, vpGoal: view.vpGoal,
      winner: view.winner ? view.powers.find((p) => p.key === view.winner)?.name ?? view.winner : null,
      orders: { status: orderStatus(set), receivedAt: set?.receivedAt ?? null, source: set?.source ?? null },
      gmPowers,
    });
  });

  /** Run the checker on a text: the same check the mail replies with, nothing stored. */
  async function check(ctx: PageContext, view: PowerView, text: string) {
    const { state, parsed, errors, preview } = await checkOrders(db, ctx.campaign.id, view.power, text);
    const result: OrdersCheck = {
      orderSetId: '', turn: state.turn, power: view.power, status: errors.length === 0 && parsed.orders !== null ? 'ready' : 'has_errors',
      current: true, errors, warnings: checkWarnings(state, view.power, parsed, preview), lines: parsed.lines, preview,
    };
    return { result, orders: parsed.orders };
  }

  function summaryOf(ctx: PageContext, view: PowerView, result: OrdersCheck) {
    const nodeName = nodeNamer(view.nodes);
    const fleets = new Map(view.fleets.map((f) => [f.id, f.name]));
    const me = view.powers.find((p) => p.key === view.power);
    return ordersCheckSummary(result, {
      campaignName: ctx.campaign.name, powerName: me?.name ?? view.power,
      nodeName: (id) => nodeName(id), fleetName: (id) => fleets.get(id) ?? id,
    });
  }

  interface OrdersPageInput {
    text: string;
    fleet: string;
    checked?: { result: OrdersCheck; orders: PowerOrders | null } | null;
    sent?: { id: string; ready: boolean; current: boolean; receivedAt: Date; result: OrdersCheck; orders: PowerOrders | null } | null;
  }

  async function ordersPage(ctx: PageContext, view: PowerView, input: OrdersPageInput) {
    const common = commonView(view);
    const turn = await openTurnInfo(ctx.campaign.id, view.turn);
    const set = await currentSet(ctx.campaign.id, turn?.id, view.power);
    const shown = input.sent ?? input.checked ?? null;
    // The power's own moves as arrows, phase by phase: those just checked or sent, else the
    // orders stored for the turn (checked again against the state now).
    const drawn = shown ?? (set ? await check(ctx, view, set.rawText) : null);
    const highlight = drawn ? drawn.result.preview.map((p) => p.stopsAt).filter((n): n is string => !!n) : [];
    const svg = renderMapSvg(mapFromView(view, {
      title: `${ctx.campaign.name}: ${common.powerName}, plotting turn ${view.turn}`, highlight,
      plotted: drawn ? ownPlotted(view, drawn.orders, drawn.result.preview) : [],
    }), { width: 900, clickable: true });
    const summary = shown ? summaryOf(ctx, view, shown.result) : null;
    const fleetOptions = view.fleets.filter((f) => f.ships.some((s) => s.status === 'afloat')).map((f) => ({
      id: f.id, name: f.name, at: f.at, atName: common.nodeName(f.at), inHarbor: f.inHarbor, selected: f.id === input.fleet,
    }));
    return {
      ...layoutData(ctx, `Orders for turn ${view.turn} — ${common.powerName}`, { section: 'orders' }), scripts: ['orders.js'],
      ...common, mapSvg: svg, turn: view.turn, turnOpen: turn?.status === 'open', deadline: turn?.deadline ?? null,
      text: input.text, fleetOptions, power: view.power, nameExample: quotedNamesExample(view),
      // Ports whose harbor this power may enter (own, allied, or neutral with the admission roll): a click there plots HARBOR.
      enterable: view.harbors.filter((h) => h.standing !== 'hostile').map((h) => h.node).join(' '),
      current: { status: orderStatus(set), receivedAt: set?.receivedAt ?? null, source: set?.source ?? null },
      summary,
      checkedOnly: !!input.checked,
      sent: input.sent ? { ready: input.sent.ready, current: input.sent.current, receivedAt: input.sent.receivedAt } : null,
    };
  }

  function defaultText(power: string, raw: string | null | undefined): string {
    if (!raw) return `POWER ${power}\n`;
    // A mailed set may carry a (masked) PASSWORD line: the web form needs none.
    return raw.split(/\r?\n/).filter((l) => !/^\s*PASSWORD\b/i.test(l)).join('\n');
  }

  /** The orders page; `sentId`: an order set just sent, shown checked again; `absences`: the blocks carried out with it, by line. */
  async function showOrders(ctx: PageContext, reply: FastifyReply, shown: { sentId?: string; fleet: string; note: string | null; absences?: string[] }) {
    const power = ctx.session.p!;
    const view = await powerView(db, ctx.campaign.id, power);
    const turn = await openTurnInfo(ctx.campaign.id, view.turn);
    const set = await currentSet(ctx.campaign.id, turn?.id, power);
    let sent: OrdersPageInput['sent'] = null;
    if (shown.sentId) {
      const row = await sentOrderSet(db, ctx.campaign.id, power, shown.sentId);
      if (row && row.turn.number === view.turn) {
        const again = await check(ctx, view, row.rawText);
        sent = {
          id: row.id, ready: row.ready, current: row.current, receivedAt: row.receivedAt,
          result: { ...again.result, orderSetId: row.id, status: row.ready ? 'ready' : 'has_errors', current: row.current },
          orders: again.orders,
        };
      }
    }
    return sendPage(reply, 'player-orders', {
      ...(await ordersPage(ctx, view, { text: defaultText(power, set?.rawText), fleet: shown.fleet, sent })),
      despatchNote: shown.note, absenceLines: shown.absences ?? null,
    });
  }

  app.get<Ref & { Querystring: { sent?: string; fleet?: string; despatched?: string; refused?: string } }>('/c/:ref/orders', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'player');
    const note = despatchNote(wholeNumber(req.query.despatched) ?? 0, wholeNumber(req.query.refused) ?? 0);
    return showOrders(ctx, reply, { sentId: req.query.sent, fleet: req.query.fleet ?? '', note });
  });

  app.post<Ref>('/c/:ref/orders', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'player');
    const power = ctx.session.p!;
    const text = field(req.body, 'text');
    const fleet = field(req.body, 'fleet');
    const action = field(req.body, 'action');
    const tooLarge = tooLargeReason(text);
    if (tooLarge) throw new PageError(413, 'Orders too long', `Nothing was sent or stored: ${tooLarge}.`);
    if (action === 'send') {
      const stored = await sendOrders(db, ctx.campaign.id, power, { text, source: 'web', actor: sessionActor(ctx.session) });
      // Despatches beside the orders: how many went, and how many were refused (docs/despatches.md).
      const refused = stored.status === 'blocks_only' ? 0 : (stored.despatches ?? []).filter((l) => /despatch not sent/.test(l)).length;
      const despatched = stored.status === 'blocks_only' ? 0 : (stored.despatches?.length ?? 0) - refused;
      // Absences and standing orders are answered line by line on the page itself (not in the
      // address): shown once, here; the form then holds the stored orders.
      if (stored.absences?.length) {
        return showOrders(ctx, reply, { sentId: stored.orderSetId ?? undefined, fleet, note: despatchNote(despatched, refused), absences: stored.absences });
      }
      const q = new URLSearchParams({ sent: stored.orderSetId! });
      if (despatched + refused > 0) {
        q.set('despatched', String(despatched));
        q.set('refused', String(refused));
      }
      if (fleet) q.set('fleet', fleet);
      return redirect(reply, `${ctx.base}/orders?${q.toString()}`);
    }
    const view = await powerView(db, ctx.campaign.id, power);
    const checked = await check(ctx, view, text);
    const data = await ordersPage(ctx, view, { text, fleet, checked: { result: checked.result, orders: checked.orders } });
    return sendPage(reply, 'player-orders', data);
  });

  app.get<Ref>('/c/:ref/reports', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'player');
    const turns = await turnReportList(db, ctx.campaign.id);
    return sendPage(reply, 'player-reports', {
      ...layoutData(ctx, 'Turn reports', { section: 'reports' }),
      turns: turns.map((t) => ({ ...t, resolved: t.status === 'resolved', rerun: t.reruns > 0 })),
    });
  });

  app.get<Ref & { Params: { n: string } }>('/c/:ref/reports/:n', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'player');
    const n = wholeNumber(req.params.n, 1);
    if (n === undefined) throw new PageError(404, 'No such turn', 'Turns are numbered from 1.');
    const power = ctx.session.p!;
    const log = await turnLog(db, ctx.campaign.id, n, { role: 'player', power });
    const view = await powerView(db, ctx.campaign.id, power);
    const me = view.powers.find((p) => p.key === power);
    // The turn drawn from the power's own cut of the log: its tracks, what it sighted, battles, captures.
    const trackInput = mapFromView(view, {
      title: `${ctx.campaign.name}: turn ${n} as ${me?.name ?? power} saw it`,
      turn: turnFromEvents(log.events, { names: new Map(view.fleets.map((f) => [f.id, f.name])) }),
    });
    const latest = n === view.turn - 1;
    // Despatches that came with this turn's report: the reader's own only (one its ships took at sea, marked intercepted).
    const powerName = (k: string) => view.powers.find((p) => p.key === k)?.name ?? k;
    const despatches = log.status !== 'resolved' ? [] : (await despatchesDeliveredWith(db, ctx.campaign.id, power, n)).map((d) => ({
      head: despatchReportHead({
        from: despatchFrom(d.fromGm ? { gm: true } : d.sender === null ? null : { power: powerName(d.sender) }),
        to: d.recipients.map(powerName), intercepted: d.direction === 'intercepted',
      }), text: d.text,
    }));
    // The turn's Gazette heads the report (docs/gazette.md): public, the same for every reader.
    const issue = await publishedIssueOf(db, ctx.campaign.id, n);
    const mapSvg = log.status === 'resolved'
      ? renderMapSvg(latest ? trackInput : { ...trackInput, fleets: [], enemyFleets: [], sightings: [], note: FLEETS_NOT_SHOWN }, { width: 900 })
      : null;
    return sendPage(reply, 'player-report', {
      ...layoutData(ctx, `Turn ${n} report — ${me?.name ?? power}`, { section: 'reports' }), scripts: ['mapphases.js'], mapSvg,
      turn: log.turn, resolved: log.status === 'resolved', rerun: log.run > 0, run: log.run, resolvedAt: log.resolvedAt,
      seed: log.seed, seedHash: log.seedHash, seedSource: log.seedSource, diceScript: log.diceScript.join(' '),
      gazette: issue ? { ...issue, title: gazetteTitle(n) } : null,
      despatches, opening: openingGroups(log.openingEvents, false), openingTitle: openingTitle(log.turn), groups: playerEventGroups(log.events), nothing: log.events.length === 0,
      standingText: log.standingOrders.length ? standingOrdersSentence(me?.name ?? power, true) : null,
    });
  });
};

export default routes;
