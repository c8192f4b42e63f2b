/**
 * Page data made from the engine's values: fleets with their ships' damage and supplies,
 * order status words, event logs grouped by phase with their dice, a dice script read
 * from a text field. Pure functions; the pages' handlers fetch, these shape.
 */
import { eventWithDice, groupByPhase, rollRows, type EventGroup, type RollRow } from '../../words/events.js';
import { safeColor } from '../../map/svg.js';
import type { GameEvent } from '../../rules/events.js';
import type { Fleet, ShipClass } from '../../rules/state.js';
import type { PowerView, SeenFleet } from '../../rules/view.js';
import { HTTP_STATUS, UseCaseError } from '../../campaign/errors.js';
import { sha256 } from '../../campaign/secrets.js';
import { field, PageError } from './context.js';

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

export interface ShipRow {
  name: string;
  cls: string;
  hull: string;
  rigging: string;
  guns: string;
  crew: string;
  supplies: string;
  damaged: boolean;
  outOfSupplies: boolean;
}

export interface FleetRow {
  id: string;
  name: string;
  power: string;
  powerName: string;
  color: string;
  where: string;
  at: string;
  inHarbor: boolean;
  stance: string;
  onMission: boolean;
  convoy: string | null;
  ships: ShipRow[];
}

const STANCE_WORDS: Record<string, string> = { engage: 'engage', avoid: 'avoid', 'engage-if-stronger': 'engage if stronger' };

/** Boxes left / capacity for each ship afloat (the class gives the capacity). */
export function shipRows(fleet: Fleet, classes: readonly ShipClass[]): ShipRow[] {
  const byKey = new Map(classes.map((c) => [c.key, c]));
  return fleet.ships.filter((s) => s.status === 'afloat').map((s) => {
    const c = byKey.get(s.classKey);
    const cap = {
      hull: c?.hull ?? s.hull, rigging: c ? sum(c.rigging) : sum(s.rigging), guns: c?.guns ?? s.guns,
      carronades: c?.carronades ?? s.carronades, crew: c ? sum(c.crewSections) : sum(s.crew),
    };
    const left = { hull: s.hull, rigging: sum(s.rigging), guns: s.guns, carronades: s.carronades, crew: sum(s.crew) };
    const damaged = left.hull < cap.hull || left.rigging < cap.rigging || left.guns < cap.guns || left.crew < cap.crew || left.carronades < cap.carronades;
    return {
      name: s.name,
      cls: c?.name ?? s.classKey,
      hull: `${left.hull}/${cap.hull}`,
      rigging: `${left.rigging}/${cap.rigging}`,
      guns: `${left.guns}/${cap.guns}${cap.carronades > 0 ? ` + ${left.carronades}/${cap.carronades} carr.` : ''}`,
      crew: `${left.crew}/${cap.crew}`,
      supplies: `${s.supplies} ${s.supplies === 1 ? 'month' : 'months'}`,
      damaged,
      outOfSupplies: s.supplies <= 0,
    };
  });
}

export function fleetRows(fleets: readonly Fleet[], ctx: {
  classes: readonly ShipClass[];
  nodeName: (id: string) => string;
  powers: readonly { key: string; name: string; color: string }[];
}): FleetRow[] {
  const powers = new Map(ctx.powers.map((p) => [p.key, p]));
  return fleets.filter((f) => f.ships.some((s) => s.status === 'afloat')).map((f) => ({
    id: f.id,
    name: f.name,
    power: f.power,
    powerName: powers.get(f.power)?.name ?? f.power,
    color: safeColor(powers.get(f.power)?.color),
    at: f.at,
    where: `${ctx.nodeName(f.at)}${f.inHarbor ? ' (in harbor)' : ' (at sea)'}`,
    inHarbor: f.inHarbor,
    stance: STANCE_WORDS[f.stance] ?? f.stance,
    onMission: f.onMission,
    convoy: f.convoy ? `escorting a convoy from ${ctx.nodeName(f.convoy.from)} to ${ctx.nodeName(f.convoy.to)}${f.convoy.pickedUp ? '' : ' (not yet picked up)'}` : null,
    ships: shipRows(f, ctx.classes),
  }));
}

export function nodeNamer(nodes: readonly { id: string; name: string }[]): (id: string | null | undefined) => string {
  const byId = new Map(nodes.map((n) => [n.id, n.name]));
  return (id) => (id ? byId.get(id) ?? id : '');
}

/** Enemy fleets seen now, and older sightings with their age, as the player knows them. */
export function enemyRows(view: PowerView) {
  const nodeName = nodeNamer(view.nodes);
  const powerName = new Map(view.powers.map((p) => [p.key, p.name]));
  const seenIds = new Set(view.enemyFleets.map((f) => f.id));
  const seen = view.enemyFleets.map((f: SeenFleet) => ({
    name: f.name,
    powerName: powerName.get(f.power) ?? f.power,
    where: `${nodeName(f.at)}${f.inHarbor ? ' (in harbor)' : ''}`,
    how: f.how === 'in-port' ? 'sharing a port space with us' : 'sighted last turn',
    ships: f.ships.map((s) => s.name).join(', '),
    count: f.ships.length,
  }));
  const lastKnown = view.sightings.filter((s) => !seenIds.has(s.fleetId)).map((s) => {
    const age = Math.max(0, view.turn - s.turn);
    return {
      name: s.fleetName,
      powerName: powerName.get(s.power) ?? s.power,
      where: nodeName(s.node),
      turn: s.turn,
      age: age === 1 ? '1 turn ago' : `${age} turns ago`,
      ships: s.ships.map((x) => x.name).join(', '),
    };
  }).sort((a, b) => b.turn - a.turn);
  return { seen, lastKnown };
}

export type OrderStatusWord = 'none' | 'has errors' | 'ready';

export function orderStatus(set: { ready: boolean } | null | undefined): OrderStatusWord {
  return !set ? 'none' : set.ready ? 'ready' : 'has errors';
}

/** The GM's log: every event with its roll spelt out. */
export function gmEventGroups(events: readonly GameEvent[]): EventGroup[] {
  return groupByPhase(events, eventWithDice);
}

/** The rolls made as the campaign opened (turn 1): one untitled group. */
export function openingGroups(events: readonly GameEvent[], gm: boolean): EventGroup[] {
  const groups = gm ? gmEventGroups(events) : groupByPhase(events);
  const lines = groups.flatMap((g) => g.lines);
  return lines.length ? [{ title: '', phase: 0, lines }] : [];
}

export function playerEventGroups(events: readonly GameEvent[]): EventGroup[] {
  return groupByPhase(events);
}

/** The dice audit: every event with a roll (purpose, die, modifier, total, result). */
export function diceAudit(events: readonly GameEvent[]): RollRow[] {
  return rollRows(events);
}

/**
 * A dice script typed by the GM: d6 results separated by spaces, commas or new lines.
 * Empty → undefined (use the seed). Anything but 1-6 is refused, naming the entry.
 */
export function parseDiceScript(text: string): number[] | undefined {
  const tokens = text.split(/[\s,;]+/).filter((t) => t.length > 0);
  if (tokens.length === 0) return undefined;
  const bad = tokens.map((t, i) => ({ t, i })).filter(({ t }) => !/^[1-6]$/.test(t));
  if (bad.length > 0) {
    const list = bad.slice(0, 5).map(({ t, i }) => `entry ${i + 1} ('${t.slice(0, 12)}')`).join(', ');
    throw new PageError(400, 'Bad dice', `Scripted dice must be d6 results, 1 to 6, separated by spaces or commas: ${list}${bad.length > 5 ? ` and ${bad.length - 5} more` : ''} ${bad.length === 1 ? 'is' : 'are'} not.`);
  }
  return tokens.map(Number);
}

export function errorOf(err: unknown): { status: number; message: string } {
  if (err instanceof UseCaseError) return { status: HTTP_STATUS[err.kind], message: err.message };
  if (err instanceof PageError) return { status: err.status, message: err.message };
  return { status: 500, message: 'Something went wrong on our side; the GM can find it in the service log.' };
}

/** The dice the GM chose on a form: a seed, a script of d6 results, or neither (the turn's own seed). */
export function diceChoice(body: unknown): { seed?: string; dice?: number[]; seedText: string; diceText: string } {
  const seedText = field(body, 'seed').trim();
  const diceText = field(body, 'dice');
  const dice = parseDiceScript(diceText);
  if (dice && seedText) throw new PageError(400, 'Seed or dice', 'Give either a seed or scripted dice, not both.');
  if (seedText.length > 200) throw new PageError(400, 'Seed too long', 'A seed is at most 200 characters.');
  return { ...(seedText ? { seed: seedText } : {}), ...(dice ? { dice } : {}), seedText, diceText };
}

/**
 * The turn a GM form means (hidden field expectedTurn): it keeps a second click, or a
 * resolve from another window or instance, from resolving the next turn too.
 */
export function expectedTurnField(body: unknown): number {
  const n = Number(field(body, 'expectedTurn'));
  if (!Number.isInteger(n) || n < 1) {
    throw new PageError(400, 'Which turn?', 'The form did not say which turn to resolve (expectedTurn). Reload the page and try again.');
  }
  return n;
}

export function diceWords(d: { seed?: string; dice?: number[] }, seedHash: string | null): string {
  if (d.dice) return `scripted dice (${d.dice.length} ${d.dice.length === 1 ? 'result' : 'results'}): ${d.dice.join(' ')}; the published seed hash will not check them`;
  if (d.seed) {
    return seedHash && sha256(d.seed) === seedHash
      ? `the turn's own seed, typed in (it matches the published hash ${seedHash})`
      : `seeded dice, seed "${d.seed}", given by the GM; the published seed hash will not check them`;
  }
  return `the turn's own seed (hash ${seedHash ?? 'unknown'}; revealed once the turn is resolved)`;
}
