/**
 * The turn report a player receives (their view only) and the GM's full report.
 * A player's report is built from their PowerView and the events cut to them; as a
 * second lock, events not visible to the power are dropped here too (SPEC §6).
 */
import { standingOrdersMark, standingOrdersSentence } from '../../words/absence.js';
import { mapFromState, mapFromView } from '../../map/svg.js';
import { despatchReportHead } from '../../words/despatches.js';
import { turnFromEvents } from '../../map/turnLayer.js';
import type { GameEvent } from '../../rules/events.js';
import type { CampaignState } from '../../rules/state.js';
import { eventsFor, type PowerView } from '../../rules/view.js';
import type { VpTable } from '../../rules/terms.js';
import { missionText, standings, vpRules } from '../../words/missions.js';
import { ordersHelp, type OrdersHelpInput } from '../../words/ordersHelp.js';
import type { MailAttachment } from '../transport.js';
import { diceSentence, type DiceUsed } from '../../words/dice.js';
import { eventWithDice, groupByPhase, ofTypes, rollRows, SECTION_TYPES } from '../../words/events.js';
import { mapAttachments } from './mapAttachments.js';
import { gazetteHtml, gazetteTitle } from '../../words/gazette.js';

/** The Gazette as a report's template takes it: its heading, its text (the text part) and its safe HTML. */
function gazetteData(g: { turn: number; text: string; format: string } | null | undefined) {
  return g ? { title: gazetteTitle(g.turn), text: g.text, html: gazetteHtml(g.text, g.format) } : null;
}
import { renderParts } from './templates.js';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  attachments: MailAttachment[];
}

export interface TurnReportInput {
  campaignName: string;
  /** The turn resolved. */
  turn: number;
  /** The campaign date of that turn ("January 1805"). */
  date: string;
  /** The reader's power key. */
  power: string;
  /** The reader's view of the state after the turn (viewFor). */
  view: PowerView;
  /** The turn's events, already cut to the reader (eventsFor). */
  events: GameEvent[];
  /** The turn was resolved again after a roll-back: this report replaces the earlier one. */
  rerun: boolean;
  /** The scoring table, shown under the standings. */
  vpTable?: VpTable | null;
  /**
   * The orders now due: the next turn, its deadline (null: not set yet) in the player's
   * time zone, the CAMPAIGN line's slug, the orders inbox and the web pages. Absent once
   * the campaign is won.
   */
  next?: Omit<OrdersHelpInput, 'power'> | null;
  /** The player was absent and sent no orders: the power's fleets followed its standing orders. */
  standingOrders?: boolean;
  /** Despatches delivered with this report (in words: the sender as this reader may know it). */
  despatches?: { from: string; to: string[]; text: string; intercepted?: boolean }[];
  /** The turn's Gazette: it heads the report (words/gazette.ts draws it safely). */
  gazette?: { turn: number; text: string; format: string } | null;
}

export interface GmReportInput {
  campaignName: string;
  turn: number;
  date: string;
  /** The whole state after the turn. */
  state: CampaignState;
  /** Every event of the turn. */
  events: GameEvent[];
  rerun: boolean;
  /** Powers whose fleets held for want of clean orders. */
  missingOrders?: string[];
  /** Powers whose fleets followed their absent player's standing orders. */
  standingOrders?: string[];
  /** The dice used: the seed (revealed now) or the GM's script. */
  dice?: DiceUsed | null;
  /** The turn's Gazette, as the players read it. */
  gazette?: { turn: number; text: string; format: string } | null;
}

/** A fleet's ships on one line: names, and the months of supplies (once when they all have the same). */
function shipsLine(ships: readonly { name: string; supplies: number }[]): string {
  const months = (n: number) => `${n} ${n === 1 ? 'month' : 'months'} of supplies`;
  const same = ships.every((x) => x.supplies === ships[0]?.supplies);
  if (same && ships.length) return `${ships.map((x) => x.name).join(', ')}; ${months(ships[0]!.supplies)}`;
  return ships.map((x) => `${x.name} (${months(x.supplies)})`).join(', ');
}

/** The phase-by-phase log as plain text: the report's attachment. */
function phaseLogText(title: string, phases: readonly { title: string; lines: string[] }[]): string {
  const body = phases.map((g) => [g.title, ...g.lines.map((l) => `  - ${l}`)].join('\n')).join('\n\n');
  return `${title}: what happened, phase by phase\n\n${body || 'Nothing that your fleets saw or did this turn.'}\n`;
}

function names(nodes: readonly { id: string; name: string }[]): (id: string | null | undefined) => string {
  const byId = new Map(nodes.map((nd) => [nd.id, nd.name]));
  return (id) => (id ? byId.get(id) ?? id : '');
}

/** A player's report's subject (known before the report is drawn: the queue shows it). */
export function turnReportSubject(input: Pick<TurnReportInput, 'campaignName' | 'turn' | 'rerun' | 'power' | 'view'>): string {
  const powerName = input.view.powers.find((p) => p.key === input.power)?.name ?? input.power;
  return `[${input.campaignName}] Turn ${input.turn} report${input.rerun ? ' (RE-RUN, replaces the earlier report)' : ''} — ${powerName}`;
}

/** The GM's report's subject. */
export function gmReportSubject(input: Pick<GmReportInput, 'campaignName' | 'turn' | 'rerun'>): string {
  return `[${input.campaignName}] Turn ${input.turn} GM report${input.rerun ? ' (RE-RUN)' : ''}`;
}

export async function renderTurnReport(input: TurnReportInput): Promise<RenderedMail> {
  const { view } = input;
  const events = eventsFor(input.events, { role: 'player', power: input.power });
  const nodeName = names(view.nodes);
  const classes = new Map(view.shipClasses.map((c) => [c.key, c.name]));
  const me = view.powers.find((p) => p.key === input.power);
  const powerName = me?.name ?? input.power;
  const powerNames = new Map(view.powers.map((p) => [p.key, p.name]));
  const battlesThisTurn = view.battles.filter((b) => b.turn === input.turn);

  const fleets = view.fleets.map((f) => ({
    name: f.name,
    where: `${nodeName(f.at)}${f.inHarbor ? ' (in harbor)' : ' (at sea)'}`,
    onMission: f.onMission,
    ships: shipsLine(f.ships.filter((s) => s.status === 'afloat')),
  }));
  const seen = view.enemyFleets.map((f) => ({
    text: `${f.name} (${powerNames.get(f.power) ?? f.power}) at ${nodeName(f.at)}${f.inHarbor ? ', in harbor' : ''}: ${f.ships.length} ${f.ships.length === 1 ? 'ship' : 'ships'} (${f.ships.map((s) => s.name).join(', ')})${f.how === 'in-port' ? ' — sharing a port space with us' : ' — sighted'}`,
  }));
  const seenIds = new Set(view.enemyFleets.map((f) => f.id));
  const lastKnown = view.sightings.filter((s) => !seenIds.has(s.fleetId)).map((s) => ({
    text: `${s.fleetName} (${powerNames.get(s.power) ?? s.power}) last seen at ${nodeName(s.node)} on turn ${s.turn}`,
  }));
  const battles = battlesThisTurn.map((b) => ({
    text: `${b.id}: at ${nodeName(b.node)}, phase ${b.phase}${b.harbor ? ' (harbor attack, with the fort)' : ''}, `
      + `${b.sides.map((s) => powerNames.get(s.power) ?? s.power).join(' against ')} — ${b.status === 'pending' ? 'awaiting the GM\'s result' : `resolved${b.result?.winner ? `: ${powerNames.get(b.result.winner) ?? b.result.winner} won` : ''}`}`,
  }));

  const title = `Turn ${input.turn} report — ${powerName}`;
  // The turn as this power saw it (its cut of the log only): own tracks, sightings, battles, captures.
  const map = await mapAttachments(mapFromView(view, {
    title: `${input.campaignName}: ${powerName} after turn ${input.turn}`,
    highlight: battlesThisTurn.map((b) => b.node),
    turn: turnFromEvents(events, { names: new Map(view.fleets.map((f) => [f.id, f.name])) }),
  }), input.turn, input.power);
  const phases = groupByPhase(events);
  // The phase-by-phase log goes as a text attachment (and stays on the web report): the
  // mail itself says each battle and sighting once, after the summary and the map.
  const log: MailAttachment = {
    filename: `turn-${input.turn}-log.txt`, contentType: 'text/plain; charset=utf-8',
    contentBase64: Buffer.from(phaseLogText(title, phases)).toString('base64'),
  };
  const me2 = standings(view.powers, view.vpGoal, input.power).find((s) => s.me);
  const summary = [
    battles.length ? `${battles.length} ${battles.length === 1 ? 'battle' : 'battles'} this turn.` : 'No battle this turn.',
    seen.length ? `${seen.length} enemy ${seen.length === 1 ? 'fleet' : 'fleets'} in sight now.` : 'No enemy fleet in sight now.',
    ...(me2 ? [`${powerName} has ${me2.vp} of the ${view.vpGoal} victory points needed.`] : []),
  ].join(' ');
  const data = {
    title, campaignName: input.campaignName, turn: input.turn, date: input.date, powerName, summary, logFile: log.filename,
    rerun: input.rerun,
    rerunText: input.rerun ? `Turn ${input.turn} was resolved again after the GM rolled it back: this report REPLACES the one you had for this turn.` : null,
    standingText: input.standingOrders ? standingOrdersSentence(powerName, true) : null,
    seen, lastKnown,
    battles,
    losses: ofTypes(events, ['shipLost']),
    forts: ofTypes(events, SECTION_TYPES.forts),
    // A month at sea with supplies left is said by the fleet's line under "Your fleets now".
    supplies: ofTypes(events.filter((e) => !(e.type === 'supplies' && !e.shipIds && Number(e.supplies ?? 0) > 0)), SECTION_TYPES.supplies),
    missionNow: missionText(view.mission, nodeName),
    missionEvents: ofTypes(events, SECTION_TYPES.mission),
    vpEvents: ofTypes(events, SECTION_TYPES.vp),
    standings: standings(view.powers, view.vpGoal, input.power),
    vpGoal: view.vpGoal,
    vpRules: vpRules(input.vpTable),
    winner: view.winner ? powerNames.get(view.winner) ?? view.winner : null,
    fleets,
    next: input.next && !view.winner ? ordersHelp({ ...input.next, power: input.power }) : null,
    despatches: (input.despatches ?? []).map((d) => ({ head: despatchReportHead(d), text: d.text })),
    gazette: gazetteData(input.gazette),
    mapCid: map.inline.cid,
    mapFile: map.file.filename,
    nothing: events.length === 0,
    noSightings: false,
    noBattles: false,
  };
  data.noSightings = data.seen.length + data.lastKnown.length === 0;
  data.noBattles = data.battles.length === 0;
  const { text, html } = renderParts('turn-report', data);
  return { subject: turnReportSubject(input), text, html, attachments: [map.inline, map.file, log] };
}

export async function renderGmReport(input: GmReportInput): Promise<RenderedMail> {
  const { state } = input;
  const nodeName = names(state.nodes);
  const powerNames = new Map(state.powers.map((p) => [p.key, p.name]));
  const battlesThisTurn = state.battles.filter((b) => b.turn === input.turn);
  const map = await mapAttachments(mapFromState(state, {
    title: `${input.campaignName}: every fleet after turn ${input.turn} (GM)`,
    highlight: battlesThisTurn.map((b) => b.node),
    turn: turnFromEvents(input.events, { names: new Map(state.fleets.map((f) => [f.id, f.name])), sightings: false }),
  }), input.turn, 'gm');
  const data = {
    title: `Turn ${input.turn} — GM report`,
    gazette: gazetteData(input.gazette),
    campaignName: input.campaignName, turn: input.turn, date: input.date,
    rerun: input.rerun,
    rerunText: input.rerun ? `Turn ${input.turn} was resolved again after a roll-back: this report replaces the earlier one.` : null,
    diceText: input.dice ? diceSentence(input.dice) : null,
    missing: (input.missingOrders ?? []).map((k) => powerNames.get(k) ?? k),
    standingText: input.standingOrders?.length ? standingOrdersMark(input.standingOrders.map((k) => powerNames.get(k) ?? k)) : null,
    phases: groupByPhase(input.events, eventWithDice),
    rolls: rollRows(input.events),
    battles: battlesThisTurn.map((b) => ({
      text: `${b.id}: at ${nodeName(b.node)}, phase ${b.phase}${b.harbor ? ' (harbor attack, with the fort)' : ''}, `
        + `${b.sides.map((s) => `${powerNames.get(s.power) ?? s.power} (${s.shipIds.length} ${s.shipIds.length === 1 ? 'ship' : 'ships'}${s.attacker ? ', attacking' : ''})`).join(' against ')} — ${b.status}`,
    })),
    missions: state.powers.filter((p) => p.playable).map((p) => ({ name: p.name, text: missionText(p.mission, nodeName) })),
    standings: standings(state.powers, state.vpGoal, null),
    vpGoal: state.vpGoal,
    vpRules: vpRules(state.vpTable),
    winner: state.winner ? powerNames.get(state.winner) ?? state.winner : null,
    fleets: state.fleets.filter((f) => f.ships.some((s) => s.status === 'afloat')).map((f) => ({
      name: f.name, power: powerNames.get(f.power) ?? f.power,
      where: `${nodeName(f.at)}${f.inHarbor ? ' (in harbor)' : ' (at sea)'}`,
      ships: f.ships.filter((s) => s.status === 'afloat').length,
    })),
    mapCid: map.inline.cid,
    mapFile: map.file.filename,
  };
  const { text, html } = renderParts('gm-report', data);
  return { subject: gmReportSubject(input), text, html, attachments: [map.inline, map.file] };
}
