/**
 * After a turn, every player is mailed their report — cut to what their power can see —
 * queued in the same transaction that stores the turn, so a turn is never resolved
 * without its reports, nor are reports sent for a turn that rolled back. What is queued is
 * what each mail is drawn from (the cut view, not the whole state); the mail worker draws
 * the text, HTML and map before sending (src/mail/deferred.ts, docs/writes.md).
 */
import { despatchFrom } from '../words/despatches.js';
import type { Tx } from '../db/campaignStore.js';
import { monthOf } from '../rules/common.js';
import type { GameEvent } from '../rules/events.js';
import type { CampaignState } from '../rules/state.js';
import { eventsFor, viewFor } from '../rules/view.js';
import { battlePackage, canReceivePackage, packageForPower } from '../export/index.js';
import { withoutMap } from '../mail/campaignMap.js';
import { NOT_DRAWN_TEXT, turnMailTag, type DeferredReport, type MapLess } from '../mail/deferred.js';
import { enqueueMails, replyToOrders, type MailToSend } from '../mail/enqueue.js';
import { campaignUrl } from '../words/ordersHelp.js';
import { deadlineSentence } from '../words/battleDesk.js';
import { gmReportSubject, turnReportSubject, type GmReportInput, type TurnReportInput } from '../mail/render/index.js';
import type { DiceUsed } from './seeds.js';

export interface TurnMailInput {
  campaignId: string;
  /** The state after the turn. */
  state: CampaignState;
  /** The turn resolved and all its events. */
  turn: number;
  events: readonly GameEvent[];
  /**
   * The first `count` of `events` are stored in the Event table under this turn row and
   * run (storeEvents, same transaction): the queued mail names them instead of carrying a
   * copy (megabytes on a big map), and the mail worker reads them back to draw the report.
   */
  stored?: { turnId: string; run: number; count: number };
  rerun: boolean;
  /** Which resolution of the turn this is (Turn.reruns: 0 first, 1 after the first re-run...). */
  run?: number;
  /** For the GM's report: powers whose fleets held, and the dice used. */
  missingOrders?: string[];
  /** Powers whose fleets followed their absent player's standing orders: marked in their reports and the GM's. */
  standingOrders?: string[];
  dice?: DiceUsed;
  /** Despatches delivered with this report (waitingDespatches.ts). */
  despatches?: readonly ReportDespatch[];
  /** The turn's Gazette (publishGazette.ts): it heads every report of the turn, the GM's too. */
  gazette?: ReportGazette | null;
}

/** The Gazette as a report carries it: public, the same for every reader. */
export interface ReportGazette { turn: number; text: string; format: string }

/** A despatch as the resolve delivers it with the report; `interceptedBy`: taken at sea, it goes to that power alone. */
export interface ReportDespatch { id: string; sender: string | null; recipients: string[]; grey: boolean; text: string; interceptedBy?: string | null }

/**
 * Queue one report per player, and the full report to the GM's address if set; returns
 * how many. Each report's map is a PNG drawn later from the player's own view.
 */
export async function queueTurnReports(tx: Tx, input: TurnMailInput): Promise<number> {
  const players = await tx.player.findMany({
    where: { campaignId: input.campaignId }, include: { power: { select: { key: true, position: true } } }, orderBy: { power: { position: 'asc' } },
  });
  const campaign = await tx.campaign.findUniqueOrThrow({ where: { id: input.campaignId }, select: { slug: true, gmEmail: true, resultDeadlineDays: true, battleFallback: true } });
  const nextTurn = await tx.turn.findUnique({ where: { campaignId_number: { campaignId: input.campaignId, number: input.state.turn } }, select: { number: true, deadline: true, status: true } });
  const issue = input.gazette === undefined
    ? await tx.gazetteIssue.findFirst({ where: { campaignId: input.campaignId, turn: input.turn, publishedAt: { not: null } }, select: { turn: true, text: true, format: true } })
    : input.gazette;
  return enqueueMails(tx, turnReportMails({ ...input, gazette: issue }, {
    players: players.map((p) => ({ email: p.email, timeZone: p.timeZone, power: p.power.key, mailReports: p.mailReports })), campaign, nextTurn,
  }));
}

/** What the turn's mails are made from, besides the turn itself (the resolve reads it with its state: resolveRead.ts). */
export interface TurnMailContext {
  /**
   * In the powers' order. `mailReports: 'notice'`: the player chose a short notice with a
   * link instead of the whole report by mail (their settings page).
   */
  players: { email: string; timeZone: string; power: string; mailReports?: string }[];
  campaign: { slug: string; gmEmail: string | null; resultDeadlineDays?: number; battleFallback?: string };
  /** The turn that has opened, as stored. */
  nextTurn: { number: number; deadline: Date | null; status: string } | null;
}

/** The turn's mails (queueTurnReports, or the resolve's one statement: resolveWrite.ts). */
export function turnReportMails(input: TurnMailInput, { players, campaign, nextTurn }: TurnMailContext): MailToSend[] {
  const ordersAddress = process.env.ORDERS_ADDRESS ?? null;
  const webUrl = campaignUrl(process.env.PUBLIC_URL, campaign.slug, 'map');
  const date = monthOf(input.state, input.turn);
  const next = (timeZone: string) => (nextTurn && nextTurn.status === 'open' && !input.state.winner
    ? { campaignSlug: campaign.slug, turn: nextTurn.number, deadline: nextTurn.deadline, timeZone, ordersAddress, webUrl }
    : null);
  // A reply to the report goes to the orders inbox, when mail orders are read.
  const headers = { 'Auto-Submitted': 'auto-generated', ...replyToOrders() };

  // Every mail of the turn in one statement: reports, battle packages, the GM's report. Each
  // is queued with what it is drawn from (the reader's cut view and events); the mail worker
  // draws it before sending (src/mail/deferred.ts), outside this transaction.
  const inline = input.stored ? input.events.slice(input.stored.count) : input.events;
  const storedRef = input.stored ? { storedEvents: { ...input.stored } } : {};
  const tag = { __turnMail: turnMailTag(input.turn, input.run ?? (input.rerun ? 1 : 0)) };
  // The map (nodes, lanes, ship classes: the same for every reader, never changed in play)
  // is not queued with each report: the worker reads it from the campaign (src/mail/campaignMap.ts).
  const mapRef = { campaignMap: { campaignId: input.campaignId } };
  const mails: MailToSend[] = players.map((player) => {
    const power = player.power;
    const view = viewFor(input.state, power);
    const report: DeferredReport<MapLess<TurnReportInput, 'view'>> = {
      campaignName: input.state.name, turn: input.turn, date, power,
      view: withoutMap(view), events: eventsFor(inline, { role: 'player', power }), ...storedRef, ...mapRef,
      rerun: input.rerun, vpTable: input.state.vpTable, next: next(player.timeZone),
      ...(input.standingOrders?.includes(power) ? { standingOrders: true } : {}),
      ...despatchesFor(input, power),
      ...(input.gazette ? { gazette: input.gazette } : {}),
    };
    const subject = turnReportSubject({ ...report, view });
    if (player.mailReports === 'notice') return reportNotice(input, campaign.slug, player.email, subject, { ...headers, ...tag });
    return {
      campaignId: input.campaignId, to: player.email, subject, text: NOT_DRAWN_TEXT,
      headers: { ...headers, ...tag }, render: { kind: 'turn-report', input: report },
    };
  });
  mails.push(...battlePackageMails(input, players, campaign).map((m) => ({ ...m, headers: { ...m.headers, ...tag } })));
  if (campaign.gmEmail) {
    const report: DeferredReport<MapLess<GmReportInput, 'state'>> = {
      campaignName: input.state.name, turn: input.turn, date, state: withoutMap(input.state),
      events: [...inline], ...storedRef, ...mapRef, rerun: input.rerun, missingOrders: input.missingOrders ?? [], standingOrders: input.standingOrders ?? [], dice: input.dice ?? null,
      ...(input.gazette ? { gazette: input.gazette } : {}),
    };
    mails.push({
      campaignId: input.campaignId, to: campaign.gmEmail, subject: gmReportSubject(report), text: NOT_DRAWN_TEXT,
      headers: { 'Auto-Submitted': 'auto-generated', ...tag }, render: { kind: 'gm-report', input: report },
    });
  }
  return mails;
}

/**
 * The despatches the report carries to this power, in words: the sender of a grey one left
 * out. One taken at sea goes to its taker, marked intercepted, and to none of its recipients.
 */
function despatchesFor(input: TurnMailInput, power: string): { despatches?: { from: string; to: string[]; text: string; intercepted?: boolean }[] } {
  const mine = (input.despatches ?? []).filter((d) => (d.interceptedBy ? d.interceptedBy === power : d.recipients.includes(power)));
  if (mine.length === 0) return {};
  const name = new Map(input.state.powers.map((p) => [p.key, p.name]));
  return {
    despatches: mine.map((d) => ({
      from: despatchFrom(d.sender === null ? { gm: true } : d.grey ? null : { power: name.get(d.sender) ?? d.sender }),
      to: d.recipients.map((k) => name.get(k) ?? k), text: d.text, ...(d.interceptedBy ? { intercepted: true } : {}),
    })),
  };
}

/** The short mail a player who chose "only a notice" gets instead of the report: where to read it. */
function reportNotice(input: TurnMailInput, slug: string, to: string, subject: string, headers: Record<string, string>): MailToSend {
  const link = campaignUrl(process.env.PUBLIC_URL, slug, `reports/${input.turn}`);
  return {
    campaignId: input.campaignId, to, subject, headers,
    text: `${input.rerun ? 'RE-RUN. ' : ''}Your report for turn ${input.turn} of ${input.state.name} is ready${link ? `: ${link}` : ' on the campaign\'s pages (Reports)'}.\n\n`
      + 'You chose to be mailed only this notice; your settings page can have the whole report mailed again.\n',
  };
}

/**
 * Each battle fought this turn goes to the players who fight it: the package as Wooden
 * Ships & Iron Men ship logs (HTML) and as JSON, so the table can be set up. A
 * re-run's battle mails say RE-RUN. Each (battle, run, power) is mailed once: the
 * queue's dedupe key skips a second one, whoever queues it (enqueueMails).
 */
function battlePackageMails(input: TurnMailInput, players: { email: string; power: string; timeZone: string }[], campaign: TurnMailContext['campaign']): MailToSend[] {
  const mails: MailToSend[] = [];
  // The battle desk's deadline as it stands when the battle is joined (now): the campaign's days (battleDesk.ts).
  const due = new Date(Date.now() + (campaign.resultDeadlineDays ?? 14) * 86_400_000);
  const fallback = campaign.battleFallback === 'gm' ? 'gm' : 'abstract';
  const page = (key: string) => campaignUrl(process.env.PUBLIC_URL, campaign.slug, `battles/${encodeURIComponent(key)}`);
  for (const battle of input.state.battles.filter((b) => b.turn === input.turn && b.status === 'pending')) {
    const pkg = battlePackage(input.state, battle.id);
    const run = input.run ?? (input.rerun ? 1 : 0);
    const rerun = input.rerun ? ' (RE-RUN: this battle replaces the one in your earlier mail)' : '';
    for (const player of players.filter((p) => canReceivePackage(battle, p.power))) {
      const theirs = packageForPower(pkg, player.power)!; // their side whole, the enemy as seen across the water
      mails.push({
        campaignId: input.campaignId, to: player.email,
        subject: `${input.rerun ? 'RE-RUN: ' : ''}${input.state.name}: battle at ${pkg.location.name}, turn ${input.turn}`,
        text: `${input.rerun ? `RE-RUN. Turn ${input.turn} was resolved again after the GM rolled it back; the battle of the earlier run is void.\n\n` : ''}`
          + `A battle was fought at ${pkg.location.name} in turn ${input.turn}${rerun}. The setup sheet (table diagram, wind, starting range, nightfall), the ship logs for the table and the whole package (JSON) are attached. `
          + `\n${deadlineSentence(due, fallback, player.timeZone)} Agree a table date with the other side and enter the result on the battle's page${page(battle.id) ? `: ${page(battle.id)}` : ''}.\n`,
        render: { kind: 'battle-package', input: { pkg: theirs, formats: ['setup-html', 'wsim-html', 'json'] } },
        headers: { 'Auto-Submitted': 'auto-generated' },
        dedupeKey: `battle:${input.campaignId}:${battle.id}:run${run}:${player.power}`,
      });
    }
  }
  return mails;
}
