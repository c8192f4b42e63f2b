/**
 * The audit log in sentences: "GM moved Jamaica Squadron to Kingston: reason …". Each action
 * written by src/campaign has its sentence; an action this file does not know yet still reads
 * as words (its name and what changed), never as JSON.
 */
import { formatDeadline } from './time.js';

export interface AuditRowIn { actor: string; action: string; details: unknown }

/** Names for keys: powers, nodes (ports and sea areas), fleets; the GM's time zone for times. */
export interface AuditNames {
  power?: (key: string) => string | undefined;
  node?: (id: string) => string | undefined;
  timeZone?: string;
}

type D = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const list = (xs: readonly string[]): string => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);

/** Who did it, in words: the GM, the scheduler (and why), a player by mail, a power. */
export function actorWords(actor: string): string {
  if (actor === 'gm') return 'GM';
  // A stand-in acts under their own name (docs/absences.md); an assistant GM likewise (docs/gm-guide.md).
  const standIn = /^standin:[^:]+:(.+)$/.exec(actor);
  if (standIn) return `stand-in ${standIn[1]}`;
  if (actor.startsWith('assistant:')) return `assistant GM ${actor.slice('assistant:'.length)}`;
  if (actor.startsWith('scheduler')) return 'The scheduler';
  if (actor.startsWith('mail:')) return actor.slice(5);
  if (actor === 'api') return 'GM (API)';
  if (actor === 'web') return 'GM (web)';
  return actor;
}

function dice(d: unknown): string {
  const o = (d ?? {}) as D;
  if (Array.isArray(o.script)) return `dice rolled by the GM (${o.script.length})`;
  if (o.source === 'gm') return 'a seed given by the GM';
  if (str(o.seed)) return 'the published seed';
  return 'seeded dice';
}

export function auditSentence(row: AuditRowIn, names: AuditNames = {}): string {
  const d = (row.details && typeof row.details === 'object' ? row.details : {}) as D;
  const who = actorWords(row.actor);
  const power = (k: unknown) => (str(k) ? names.power?.(k as string) ?? (k as string) : 'a power');
  const node = (k: unknown) => (str(k) ? names.node?.(k as string) ?? (k as string) : 'somewhere');
  const when = (v: unknown) => (str(v) ? formatDeadline(v as string, names.timeZone) ?? String(v) : 'none');
  const reason = str(d.reason) ? `: reason “${d.reason as string}”` : '';
  const turn = num(d.turn);
  const onOff = (v: unknown) => (v ? 'on' : 'off');
  const at = (p: unknown) => {
    const o = (p ?? {}) as D;
    return `${node(o.at)}${o.inHarbor === true ? ' (in harbor)' : o.inHarbor === false ? ' (at sea)' : ''}`;
  };
  switch (row.action) {
    case 'campaign.paused':
      return `${who} paused the campaign${reason}; every player was mailed.`;
    case 'campaign.resumed':
      return `${who} resumed the campaign after ${num(d.pausedMinutes) ?? '?'} minutes paused; the deadline of turn ${turn ?? '?'} moved from ${when(d.deadlineBefore)} to ${when(d.deadline)}; every player was mailed.`;
    case 'absence.filed':
      return `${who} filed an absence for ${power(d.power)} from ${str(d.from) ?? '?'} to ${str(d.to) ?? '?'}${str(d.note) ? `: “${d.note as string}”` : ''}.`;
    case 'absence.cancelled':
      return `${who} cancelled ${power(d.power)}'s absence from ${str(d.from) ?? '?'} to ${str(d.to) ?? '?'}.`;
    case 'standing_orders.set':
      return `${who} set standing orders for ${Array.isArray(d.fleets) ? d.fleets.length : '?'} of ${power(d.power)}'s fleets.`;
    case 'standing_orders.cleared':
      return `${who} cleared ${power(d.power)}'s standing orders.`;
    case 'campaign.created':
      return `${who} created the campaign from the scenario “${str(d.scenario) ?? '?'}”.`;
    case 'campaign.gm_email':
      return `${who} set the GM's mail address to ${str(d.email) ?? 'none'}.`;
    case 'campaign.gm_time_zone':
      return `${who} changed the GM's time zone from ${str(d.old) ?? '?'} to ${str(d.new) ?? '?'}.`;
    case 'campaign.early_resolve':
      return `${who} turned early resolve ${onOff(d.new)}: an auto-resolving turn ${d.new ? 'now resolves' : 'no longer resolves'} before its deadline once every power is ready.`;
    case 'player.time_zone':
      return `${who} changed the time zone of ${power(d.power)}'s player from ${str(d.old) ?? '?'} to ${str(d.new) ?? '?'}.`;
    case 'player.added':
      return `${who} gave ${power(d.power)} to ${str(d.name) ?? '?'} <${str(d.email) ?? '?'}>; the welcome mail went out.`;
    case 'player.replaced':
      return `${who} replaced the player of ${power(d.power)}: ${str(d.name) ?? '?'} <${str(d.email) ?? '?'}> plays it now; the welcome mail went out.`;
    case 'turn.resolved': {
      const missing = Array.isArray(d.missingOrders) ? (d.missingOrders as string[]).map(power) : [];
      const run = num(d.run);
      return `${who} resolved turn ${turn ?? '?'}${run ? ` (re-run ${run})` : ''} with ${dice(d.dice)}${num(d.events) !== null ? `, ${num(d.events)} events` : ''}; `
        + `${missing.length ? `no orders from ${list(missing)} (their fleets held)` : 'every power had sent orders'}`
        + `${Array.isArray(d.standingOrders) && d.standingOrders.length ? `; ${list((d.standingOrders as string[]).map(power))} followed standing orders (player absent)` : ''}.`;
    }
    case 'turn.rolled_back': {
      const removed = Array.isArray(d.battlesRemoved) ? d.battlesRemoved as string[] : [];
      return `${who} rolled back turn ${turn ?? '?'}: turn ${num(d.discardedTurn) ?? '?'} and its orders were discarded${removed.length ? `, battles ${list(removed)} removed` : ''}, `
        + `and turn ${turn ?? '?'} is open again as run ${num(d.run) ?? '?'}${reason}.`;
    }
    case 'turn.deadline_set':
    case 'turn.deadline_extended':
    case 'turn.deadline_changed': {
      const n = (d.new ?? {}) as D;
      const o = (d.old ?? {}) as D;
      const verb = row.action === 'turn.deadline_set' ? 'set the deadline of' : row.action === 'turn.deadline_extended' ? 'extended the deadline of' : 'moved the deadline of';
      const was = row.action === 'turn.deadline_set' ? '' : ` (was ${when(o.deadline)})`;
      return `${who} ${verb} turn ${turn ?? '?'} to ${when(n.deadline)}${was}, with ${num(n.graceMinutes) ?? 0} minutes' grace and auto-resolve ${onOff(n.autoResolve)}${reason}.`;
    }
    case 'turn.deadline_cleared':
      return `${who} removed the deadline of turn ${turn ?? '?'} (was ${when(((d.old ?? {}) as D).deadline)}), and with it auto-resolve${reason}.`;
    case 'battle.result_imported':
      return `${who} entered the result of battle ${str(d.battle) ?? '?'} from the table (after-battle repair with ${dice(d.dice)}).`;
    case 'battle.result_corrected':
      return `${who} corrected the result of battle ${str(d.battle) ?? '?'}: the earlier one was undone and the new one applied.`;
    case 'battle.abstract_table':
      return `${who} resolved battle ${str(d.battle) ?? '?'} with the abstract table (${dice(d.dice)}).`;
    case 'battle.result_undone':
      return `${who} took back the result of battle ${str(d.battle) ?? '?'}: it is pending again${reason}.`;
    case 'battle.winner_confirmed':
      return `${who} confirmed ${str(d.winner) ? power(d.winner) : 'no winner'} as the winner of battle ${str(d.battle) ?? '?'} although the losses contradict it${str(d.reason) ? `: reason “${d.reason as string}”` : ''}.`;
    case 'override.fleet_moved':
      return `${who} moved ${str(d.name) ?? 'a fleet'} (${power(d.power)}) from ${at(d.from)} to ${at(d.to)}${reason}.`;
    case 'override.port_owner':
      return `${who} handed ${str(d.name) ?? node(d.port)} from ${power(d.from)} to ${power(d.to)}${reason}.`;
    case 'override.reinforcements': {
      const ships = Array.isArray(d.ships) ? (d.ships as D[]).map((s) => `${str(s.name) ?? '?'}${str(s.classKey) ? ` (${s.classKey as string})` : ''}`) : [];
      return `${who} added ${str(d.name) ?? 'a new fleet'} for ${power(d.power)} at ${at(d)}: ${ships.length ? list(ships) : 'no ships'}${reason}.`;
    }
    case 'campaign.settings': {
      const changes = Array.isArray(d.changes) ? (d.changes as D[]).map((c) => `${settingWords(c.setting)} ${valueWords(c.old)} → ${valueWords(c.new)}`) : [];
      const from = num(d.fromTurn);
      return `${who} changed the rules ${from ? `from turn ${from}` : 'from the next turn'}: ${changes.length ? list(changes) : 'nothing'}${reason}.`;
    }
    case 'campaign.settings_in_force': {
      const set = Object.entries((d.settings ?? {}) as D).map(([k, v]) => `${settingWords(k)} ${valueWords(v)}`);
      return `The GM's rule changes are in force from turn ${turn ?? '?'}: ${set.length ? list(set) : 'none'}.`;
    }
    case 'campaign.deadline_schedule':
      return d.new
        ? `${who} set the deadline schedule: ${str(d.description) ?? 'a schedule'}${reason}.`
        : `${who} removed the deadline schedule: each turn's deadline is set by hand again${reason}.`;
    case 'campaign.gm_token_rotated': {
      const ended = num(d.sessionsEnded) ?? 0;
      return `${who} made a new GM token; the old one stopped working${ended ? ` and ${ended} other GM sign-in${ended === 1 ? '' : 's'} ended` : ''}.`;
    }
    case 'relations.changed': {
      const rel = (v: unknown) => (v === 'war' ? 'at war' : v === 'allied' ? 'allied' : v === 'neutral' ? 'neutral' : String(v));
      return `${who} made ${power(d.a)} and ${power(d.b)} ${rel(d.to)} from turn ${num(d.fromTurn) ?? '?'} (they were ${rel(d.from)})${reason}.`;
    }
    case 'gazette.written':
      return `${who} ${d.cleared ? 'cleared the draft of' : 'wrote'} the Gazette for turn ${turn ?? '?'}${num(d.chars) ? ` (${num(d.chars)} characters)` : ''}.`;
    case 'gazette.published':
      return `${who === 'The scheduler' || row.actor.startsWith('scheduler') ? 'The resolve' : who} published the Gazette for turn ${turn ?? '?'}${d.at === 'resolve' ? ' with the turn\'s reports' : ''}.`;
    case 'rumour.sent': {
      const truth = d.truth === 'true' ? 'true' : d.truth === 'false' ? 'false' : d.truth === 'unknown' ? 'neither true nor false' : null;
      return `${who} sent ${power(d.power)} a rumour in turn ${turn ?? '?'}${truth ? `; noted as ${truth}` : ''}${str(d.basis) ? `; based on “${d.basis as string}”` : ''}.`;
    }
    case 'observer.subscribed':
      return `${str(d.email) ?? 'An address'} confirmed its subscription to the observers' digest (asked ${d.source === 'mail' ? 'by mail' : 'on the observer page'}).`;
    case 'observer.unsubscribed':
      return `${str(d.email) ?? 'An address'} unsubscribed from the observers' digest.`;
    case 'observer.removed':
      return `${who} removed ${str(d.email) ?? 'an address'} from the observers' digest.`;
    case 'mail.resent':
      return `${who} resent the mail “${str(d.subject) ?? '?'}” to ${str(d.to) ?? '?'}: a new copy went into the queue.`;
    default:
      return genericSentence(who, row.action, d);
  }
}

/** A rule setting's name in words (src/campaign/settings.ts lists them). */
function settingWords(name: unknown): string {
  const words: Record<string, string> = {
    allowPendingBattles: 'turns go on with battles pending', autoResolveBattles: 'battles settled by the abstract table',
    crewInNeutralHarbor: 'crew raised in neutral harbors', fortLossesScore: 'fort losses score VP',
    maxFleetsMoved: 'fleets moved per turn', fullSupplies: 'full supplies',
  };
  return typeof name === 'string' ? words[name] ?? name : '?';
}

const valueWords = (v: unknown): string => (v === true ? 'on' : v === false ? 'off' : v === null || v === undefined ? 'none' : String(v));

/** An action without its own sentence: its name in words and what changed, "old → new". */
function genericSentence(who: string, action: string, d: D): string {
  const what = action.replace(/[._]/g, ' ');
  const value = (v: unknown): string => (v === null || v === undefined ? 'none' : typeof v === 'object' ? (Array.isArray(v) ? v.map(value).join(', ') : Object.entries(v as D).map(([k, x]) => `${k} ${value(x)}`).join(', ')) : String(v));
  const parts = Object.entries(d).filter(([k]) => k !== 'reason' && !k.startsWith('state')).slice(0, 8).map(([k, v]) => {
    if (v && typeof v === 'object' && !Array.isArray(v) && 'old' in (v as D) && 'new' in (v as D)) return `${k}: ${value((v as D).old)} → ${value((v as D).new)}`;
    return `${k}: ${value(v)}`;
  });
  const reason = str(d.reason) ? `: reason “${d.reason as string}”` : '';
  if ('old' in d && 'new' in d) return `${who}: ${what} from ${value(d.old)} to ${value(d.new)}${reason}.`;
  return `${who}: ${what}${parts.length ? ` (${parts.join('; ').slice(0, 400)})` : ''}${reason}.`;
}

/** Who sent an order set, for the GM (docs/absences.md): the player, a stand-in, the GM or an assistant; sets from before this was kept say so. */
export function sentByWords(actor: string | null): string {
  if (!actor) return 'sender not recorded';
  if (actor.startsWith('mail:')) return `the player, by mail from ${actor.slice(5)}`;
  if (actor.startsWith('player:')) return 'the player';
  return actorWords(actor);
}
