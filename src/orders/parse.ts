/**
 * The orders language (SPEC §3; docs/orders-language.md): an email body or web form text
 * → the orders the engine takes, with every problem a player can act on, line by line.
 * Nothing is thrown; the parse never stops at the first error.
 *
 * What is checked here needs only names and the map: names, routes (adjacency from where
 * the fleet stands), HARBOR at a port, conflicting orders for one fleet, the three-fleet
 * limit, FORM, the header. What needs more of the state (hostile harbors, patrols, convoys,
 * repairs, forts) is src/rules/validateOrders.ts, run on the orders this returns.
 */
import { ORDERS } from './errors.js';
import type { NodeId, Stance } from '../rules/terms.js';
import type { CrewOrder, FleetOrders, FormOrder, PowerOrders } from '../rules/orders.js';
import type { CampaignState, Fleet, PowerState } from '../rules/state.js';
import { mapIndex } from '../rules/map.js';
import { TOO_MANY_FLEETS } from '../rules/validateOrders.js';
import { blockLineNumbers, findBlocks, type Block } from './blocks.js';
import { maskPassword, readLines, stripBullet, type SourceLine } from './clean.js';
import { lex, rawOf, toPieces, type Piece, type Token } from './lex.js';
import { readableText, UNREADABLE } from './limits.js';
import { looksLikeFleetId, normalise, type NameEntry } from './names.js';
import { readSequence, type SequenceItem } from './sequence.js';
import { fleetTables, nodeTable, powerTable, type FleetTables, type ShipAt } from './tables.js';

export type Severity = 'error' | 'warning';

export interface OrderMessage {
  /** 1-based line of the message; 0 for the message as a whole (a missing POWER line). */
  line: number;
  code: string;
  /** What a player reads after "line N: " (see formatMessage). */
  message: string;
  severity: Severity;
}

/** `block`: a line of a block beside the orders (a despatch, standing orders …: src/orders/blocks.ts). */
export type LineStatus = 'order' | 'header' | 'ignored' | 'error' | 'quoted' | 'after-end' | 'block';

export interface EchoLine {
  line: number;
  /** The line as read (a PASSWORD line reads `PASSWORD ****`). */
  text: string;
  status: LineStatus;
}

export interface ParsedOrders {
  /** The header lines as written. */
  header: { campaign?: string; power?: string; password?: string; turn?: number };
  /** Null only when the power is unknown (no usable POWER line and none given by the caller). */
  orders: PowerOrders | null;
  errors: OrderMessage[];
  warnings: OrderMessage[];
  /** Every non-blank line, in order. */
  lines: EchoLine[];
  /** The blocks beside the orders; none of their lines is read as an order. */
  blocks: Block[];
  /** Lines read as orders (FLEET, FORM, MISSION), with or without errors. */
  orderLines: number;
}

export interface ParseOptions {
  /** The power the sender is known to play (by address or login); POWER must agree. */
  power?: string;
  /**
   * The route the orders came by names the power already (the web form, the API): with
   * `power` given, no POWER line is needed. A mail still needs one.
   */
  powerLineOptional?: boolean;
  /** The campaign the orders were sent to; CAMPAIGN, if given, must name it. */
  campaign?: { id: string; slug: string };
}

/** `line 5: 'SAIL' is not an order; ...` — a message as a player reads it. */
export function formatMessage(m: Pick<OrderMessage, 'line' | 'message'>): string {
  return m.line > 0 ? `line ${m.line}: ${m.message}` : m.message;
}

export const FLEET_ORDERS_LIST = 'MOVE, LEAVE HARBOR, HOLD, REPAIR, STANCE, DROP SLOW, MISSION, REDUCE FORT, ATTACK HARBOR';

const KEYWORDS = new Set(['campaign', 'power', 'password', 'turn', 'fleet', 'form', 'mission', 'crew', 'end']);
const HEADER_KEYWORDS = new Set(['campaign', 'power', 'password', 'turn']);
const VERB_STARTS = new Set(['move', 'leave', 'hold', 'repair', 'stance', 'drop', 'mission', 'reduce', 'attack']);
const ROUTE_FILLERS = new Set(['to', 'then', 'via', 'and']);
const SHIP_FILLERS = new Set(['and']);
const HARBOR_TAIL_FILLERS = new Set(['and', 'then', 'enter', 'into', 'in', 'the']);
const STANCE_WORDS: Record<string, Stance> = {
  engage: 'engage', avoid: 'avoid', 'engage if stronger': 'engage-if-stronger',
};
export const STANCE_TEXT: Record<Stance, string> = {
  engage: 'ENGAGE', avoid: 'AVOID', 'engage-if-stronger': 'ENGAGE IF STRONGER',
};

/** The place a fleet stands (a fleet formed in this message stands where its ships are). */
interface FleetRef {
  id: string;
  name: string;
  at: NodeId | null;
  inHarbor: boolean;
  /** Set for a FORM of this message that failed: orders for it are refused. */
  failedForm?: number;
}

interface Line {
  src: SourceLine;
  text: string;
  status: LineStatus;
  keyword?: string;
  tokens: Token[];
  /** Pieces after the keyword. */
  body: Piece[];
}

/** A fleet order as written, before it meets the fleet. */
type FleetOrder =
  | { kind: 'move'; leave: boolean; routeGiven: boolean; route: Piece[] }
  | { kind: 'hold' | 'repair' | 'dropSlow' | 'mission' | 'reduceFort' | 'attackHarbor' }
  | { kind: 'stance'; stance: Stance };

interface Acc {
  ref: FleetRef;
  orders: FleetOrders;
  firstLine: number;
  leaveLine?: number;
  routeLine?: number;
  holdLine?: number;
  repairLine?: number;
  stanceLine?: number;
  fortLine?: number;
  /** First line that asked this fleet to move (even if the line had errors): the three-fleet count. */
  moveAsked?: number;
}

const ORDER_NAMES: Record<string, string> = {
  hold: 'HOLD', repair: 'REPAIR', dropSlow: 'DROP SLOW', mission: 'MISSION', reduceFort: 'REDUCE FORT', attackHarbor: 'ATTACK HARBOR',
};

const quote = (s: string) => `'${s}'`;

/** Does `pieces` start with these words (unquoted)? Returns how many pieces they take, or 0. */
function startsWith(pieces: readonly Piece[], ...ws: string[]): number {
  if (pieces.length < ws.length) return 0;
  return ws.every((w, k) => pieces[k]!.kind === 'word' && (pieces[k] as { norm: string }).norm === w) ? ws.length : 0;
}

function skipSeps(pieces: readonly Piece[], from = 0): number {
  let i = from;
  while (i < pieces.length && pieces[i]!.kind === 'sep') i++;
  return i;
}

function trimSeps(pieces: readonly Piece[]): Piece[] {
  let a = 0;
  let b = pieces.length;
  while (a < b && pieces[a]!.kind === 'sep') a++;
  while (b > a && pieces[b - 1]!.kind === 'sep') b--;
  return pieces.slice(a, b);
}

/** A name written as one unit: a lone quoted name, or the words as written. */
function nameOf(pieces: readonly Piece[], line: string): string {
  const p = trimSeps(pieces);
  if (p.length === 1 && p[0]!.kind === 'quoted') return p[0]!.raw;
  return rawOf(p, line);
}

/** The rest of a header line, as written: after the keyword and an optional colon; quotes stripped. */
function headerValue(l: Line): string {
  const first = l.tokens[0]!;
  let rest = l.text.slice(first.end).trim();
  if (rest.startsWith(':')) rest = rest.slice(1).trim();
  const m = /^["“](.*)["”]$/.exec(rest);
  return m ? m[1]! : rest;
}

function snippet(text: string): string {
  const t = text.trim();
  return t.length > 60 ? `${t.slice(0, 57)}...` : t;
}

function memo<V>(f: (key: string) => V): (key: string) => V {
  const seen = new Map<string, V>();
  return (key) => {
    if (seen.has(key)) return seen.get(key)!;
    const v = f(key);
    seen.set(key, v);
    return v;
  };
}

class Parser {
  readonly lines: Line[] = [];
  blocks: Block[] = [];
  /** FLEET, FORM and MISSION lines read, well formed or not. */
  orderLines = 0;
  readonly errors: OrderMessage[] = [];
  readonly warnings: OrderMessage[] = [];
  readonly header: ParsedOrders['header'] = {};
  readonly map;
  readonly nodes;
  power: PowerState | null = null;
  tables: FleetTables | null = null;
  readonly formed = new Map<string, FleetRef>();
  readonly forms: FormOrder[] = [];
  readonly acc = new Map<string, Acc>();
  missionTarget?: { node: NodeId; line: number };
  missionNone?: { line: number };
  readonly crew: CrewOrder[] = [];
  longestFleet?: number;

  /** Each name looked up once a message: a message that repeats a near miss costs no more than one. */
  readonly nodeLookup = memo((n: string) => this.nodes.lookup(n));
  readonly nodeNearest = memo((n: string) => this.nodes.nearest(n));

  constructor(readonly state: CampaignState, readonly opts: ParseOptions) {
    this.map = mapIndex(state);
    this.nodes = nodeTable(state);
  }

  error(line: Line | number, code: string, message: string): void {
    const l = typeof line === 'number' ? undefined : line;
    const n = typeof line === 'number' ? line : line.src.line;
    this.errors.push({ line: n, code, message, severity: 'error' });
    if (l && l.status !== 'quoted' && l.status !== 'after-end') l.status = 'error';
  }

  warn(line: Line | number, code: string, message: string): void {
    const n = typeof line === 'number' ? line : line.src.line;
    this.warnings.push({ line: n, code, message, severity: 'warning' });
  }

  nodeName(id: NodeId): string {
    return this.map.node(id)?.name ?? id;
  }

  isPort(id: NodeId): boolean {
    return this.map.port(id) !== undefined || this.map.node(id)?.kind === 'port';
  }

  run(text: string): ParsedOrders {
    this.read(text);
    const kw = (k: string) => this.lines.filter((l) => l.keyword === k);
    for (const l of this.lines) if (l.keyword && HEADER_KEYWORDS.has(l.keyword)) this.headerLine(l);
    this.settlePower(kw('power'));
    if (this.power) this.tables = fleetTables(this.state, this.power.key);
    for (const l of kw('form')) this.formLine(l);
    for (const l of this.lines) {
      if (l.keyword === 'fleet') this.fleetLine(l);
      else if (l.keyword === 'mission') this.missionLine(l);
      else if (l.keyword === 'crew') this.crewLine(l);
    }
    this.limitMoves();
    return this.result();
  }

  // ---------------------------------------------------------------- reading

  read(text: string): void {
    let ended = false;
    const sourceLines = readLines(text);
    this.blocks = findBlocks(sourceLines);
    const inBlock = blockLineNumbers(this.blocks);
    for (const src of sourceLines) {
      if (src.kind === 'blank') continue;
      // Blocks are read beside the orders, above or below END (SPEC §3).
      if (inBlock.has(src.line)) {
        this.lines.push({ src, text: '', status: 'block', tokens: [], body: [] });
        continue;
      }
      if (src.kind !== 'quoted' && src.kind !== 'after-end' && src.raw.includes(UNREADABLE)) {
        this.warn(src.line, ORDERS.unreadableCharacter, 'a character on this line could not be read (a NUL byte or a broken character, shown as \uFFFD) and was read as a space; check the line');
      }
      const line: Line = { src, text: '', status: 'ignored', tokens: [], body: [] };
      this.lines.push(line);
      if (ended || src.kind === 'after-end') { line.status = 'after-end'; continue; }
      if (src.kind === 'quoted') { line.status = 'quoted'; continue; }
      line.text = stripBullet(src.text);
      const lexed = lex(line.text);
      const first = lexed.tokens[0];
      const keyword = first?.kind === 'word' && KEYWORDS.has(first.norm) ? first.norm : undefined;
      if (!keyword) {
        line.status = 'ignored';
        this.warn(line, ORDERS.notAnOrder, `not an order, ignored: ${snippet(maskPassword(src.text))}`);
        continue;
      }
      line.keyword = keyword;
      line.status = HEADER_KEYWORDS.has(keyword) ? 'header' : 'order';
      if (keyword === 'end') { ended = true; continue; }
      if (keyword === 'fleet' || keyword === 'form' || keyword === 'mission' || keyword === 'crew') this.orderLines++;
      if (lexed.error && keyword !== 'password') {
        this.error(line, ORDERS.syntax, `${lexed.error}; close it with another "`);
        line.keyword = undefined;
        continue;
      }
      line.tokens = lexed.tokens;
      line.body = toPieces(lexed.tokens.slice(1));
    }
  }

  // ---------------------------------------------------------------- header

  headerLine(l: Line): void {
    const value = headerValue(l);
    switch (l.keyword) {
      case 'campaign': {
        if (!value) { this.error(l, ORDERS.syntax, 'CAMPAIGN needs the campaign: CAMPAIGN <campaign id or slug>'); return; }
        this.header.campaign ??= value;
        const c = this.opts.campaign;
        if (c && ![c.id, c.slug].some((k) => k.toLowerCase() === value.toLowerCase() || normalise(k) === normalise(value))) {
          this.error(l, ORDERS.wrongCampaign, `these orders name campaign ${quote(value)} but were sent to campaign ${quote(c.slug)}`);
        }
        return;
      }
      case 'password': {
        if (!value) { this.error(l, ORDERS.syntax, 'PASSWORD needs your password: PASSWORD <password>'); return; }
        this.header.password ??= value;
        return;
      }
      case 'turn': {
        if (!/^\d+$/.test(value)) { this.error(l, ORDERS.badTurn, `TURN needs the turn number, e.g. TURN ${this.state.turn}`); return; }
        const n = Number(value);
        this.header.turn ??= n;
        if (n !== this.state.turn) this.error(l, ORDERS.wrongTurn, `these orders are for turn ${n} but turn ${this.state.turn} is open`);
        return;
      }
      case 'power': {
        if (!value) { this.error(l, ORDERS.syntax, 'POWER needs your power: POWER <power key>'); return; }
        this.header.power ??= value;
        return;
      }
    }
  }

  settlePower(powerLines: Line[]): void {
    const table = powerTable(this.state);
    const keys = this.state.powers.filter((p) => p.playable).map((p) => p.key).join(', ');
    const byOpts = this.opts.power !== undefined ? this.state.powers.find((p) => p.key === this.opts.power) ?? null : null;
    let named: PowerState | null = null;
    let namedLine = 0;
    for (const l of powerLines) {
      const value = headerValue(l);
      if (!value) continue;
      const hits = table.lookup(value);
      const p = hits.length === 1 ? hits[0]!.value : null;
      if (!p) { this.error(l, ORDERS.unknownPower, `no power called ${quote(value)} in this campaign; the powers that take orders are: ${keys}`); continue; }
      if (!p.playable) { this.error(l, ORDERS.notPlayable, `${p.name} is a neutral power and takes no orders`); continue; }
      if (byOpts && p.key !== byOpts.key) {
        this.error(l, ORDERS.wrongPower, `these orders come from the player of ${byOpts.name}: POWER must be ${byOpts.key}, not ${quote(value)}`);
        continue;
      }
      if (named && p.key !== named.key) {
        this.error(l, ORDERS.powerTwice, `POWER ${p.key} contradicts POWER ${named.key} on line ${namedLine}; orders are for one power`);
        continue;
      }
      if (!named) { named = p; namedLine = l.src.line; }
    }
    if (powerLines.length === 0 && !(this.opts.powerLineOptional && byOpts)) {
      const example = byOpts?.key ?? this.state.powers.find((p) => p.playable)?.key ?? 'british';
      this.error(0, ORDERS.missingPower, `no POWER line: write POWER <your power> at the top, e.g. POWER ${example}`);
    }
    if (this.opts.power !== undefined && !byOpts) {
      this.error(0, ORDERS.unknownPower, `there is no power ${quote(this.opts.power)} in this campaign`);
    }
    this.power = this.opts.power !== undefined ? byOpts : named;
    if (this.power && !this.power.playable) this.power = null;
  }

  // ---------------------------------------------------------------- FORM

  formLine(l: Line): void {
    const body = l.body;
    const fromAt = body.findIndex((p) => p.kind === 'word' && p.norm === 'from');
    if (fromAt < 0) { this.error(l, ORDERS.formSyntax, 'FORM needs FROM: FORM <new fleet> FROM <ship>, <ship> ...'); return; }
    const name = nameOf(body.slice(0, fromAt), l.text);
    if (!name) { this.error(l, ORDERS.formSyntax, 'FORM needs a name for the new fleet: FORM <new fleet> FROM <ship>, <ship> ...'); return; }
    const shipPieces = body.slice(fromAt + 1);
    if (!this.power || !this.tables) {
      this.readShipNames(shipPieces, l);
      return;
    }
    const tables = this.tables;
    const before = this.errors.length;
    const key = normalise(name);
    const taken = tables.own.lookup(name)[0]?.value;
    const earlier = this.formed.get(key);
    const isId = !taken && (looksLikeFleetId(name) || this.state.fleets.some((f) => f.id.toLowerCase() === name.toLowerCase()));
    if (taken) this.error(l, ORDERS.formNameTaken, `you already have a fleet called ${quote(taken.name)}; choose another name for the new fleet`);
    else if (isId) this.error(l, ORDERS.formNameTaken, `${quote(name)} is written like a fleet id (f1, f2, ...); choose a name in words for the new fleet`);
    else if (earlier) this.error(l, ORDERS.formNameTaken, `a fleet called ${quote(earlier.name)} is already formed on line ${earlier.failedForm ?? this.forms.find((f) => normalise(f.name) === key)?.line}; choose another name`);

    const items = this.readShipNames(shipPieces, l);
    const found: ShipAt[] = [];
    for (const it of items) {
      if (it.kind === 'miss') continue;
      if (it.kind === 'ambiguous') continue;
      const at = it.value;
      // Not ours: reported by readShipNames exactly as a name nobody has (SPEC §6).
      if (at.fleet.power !== this.power.key) continue;
      if (at.ship.status !== 'afloat') { this.error(l, ORDERS.formNotAfloat, `${at.ship.name} is not afloat (${at.ship.status})`); continue; }
      if (found.some((f) => f.ship.id === at.ship.id)) { this.error(l, ORDERS.formShipTwice, `${at.ship.name} is named twice`); continue; }
      const other = this.forms.find((f) => f.shipIds.includes(at.ship.id));
      if (other) { this.error(l, ORDERS.formShipTwice, `${at.ship.name} already goes to ${other.name} (FORM on line ${other.line})`); continue; }
      found.push(at);
    }
    if (items.length === 0) this.error(l, ORDERS.formEmpty, `FORM ${name} names no ships: FORM <new fleet> FROM <ship>, <ship> ...`);
    const first = found[0];
    if (first && found.some((f) => f.fleet.at !== first.fleet.at || f.fleet.inHarbor !== first.fleet.inHarbor)) {
      const where = found.map((f) => `${f.ship.name} at ${this.nodeName(f.fleet.at)} (${f.fleet.inHarbor ? 'in harbor' : 'at sea'})`).join(', ');
      this.error(l, ORDERS.formNotTogether, `the ships of a new fleet must be in one place (same node, same harbor): ${where}`);
    }
    if (taken || earlier || isId) return;
    const ok = this.errors.length === before && first !== undefined;
    const ref: FleetRef = { id: name, name, at: first?.fleet.at ?? null, inHarbor: first?.fleet.inHarbor ?? false };
    if (!ok) ref.failedForm = l.src.line;
    this.formed.set(key, ref);
    if (ok) this.forms.push({ name, shipIds: found.map((f) => f.ship.id), line: l.src.line });
  }

  readShipNames(pieces: Piece[], l: Line, unknownCode: string = ORDERS.formUnknownShip): SequenceItem<ShipAt>[] {
    if (!this.tables) return [];
    const { ownShips } = this.tables;
    const mine = (e: NameEntry<ShipAt>) => e.value.fleet.power === this.power?.key;
    const { items } = readSequence<ShipAt>(pieces, l.text, {
      // The writer's own ships only: how a line is read must not depend on enemy names.
      lookup: (n) => ownShips.lookup(n),
      nearest: (n) => ownShips.nearest(n),
      longest: ownShips.longestName,
      fillers: SHIP_FILLERS,
    });
    // Another power's ship gets the very message a name nobody has gets, suggestion and all,
    // drawn from the writer's own ships only: an error must not reveal enemy names.
    const unknown = (raw: string) => {
      const near = ownShips.nearest(raw)?.entry.label;
      this.error(l, unknownCode, `no ship of yours called ${quote(raw)}${near ? `; did you mean ${quote(near)}?` : ''}`);
    };
    for (const it of items) {
      if (it.kind === 'miss') {
        unknown(it.raw);
      } else if (it.kind === 'ambiguous') {
        const own = it.entries.filter(mine);
        if (own.length === 0) { unknown(it.raw); continue; }
        this.error(l, ORDERS.ambiguousName, `${quote(it.raw)} could be ${own.map((e) => `${e.label} (${e.value.fleet.name}, id ${e.value.ship.id})`).join(' or ')}; write the ship's id`);
      }
    }
    return items;
  }

  // ---------------------------------------------------------------- FLEET

  fleetLine(l: Line): void {
    const body = l.body;
    let colon = body.findIndex((p) => p.kind === 'sep' && p.raw === ':');
    let namePieces: Piece[];
    let rest: Piece[];
    if (colon >= 0) {
      namePieces = body.slice(0, colon);
      rest = body.slice(colon + 1);
    } else {
      // No colon: accept FLEET <fleet> <order> when the words before the order name a fleet exactly.
      colon = -1;
      // No fleet's name is longer than the longest one known: stop there (a long line stays linear).
      const longest = this.longestFleetName();
      let letters = 0;
      for (let k = 1; k < body.length; k++) {
        const prev = body[k - 1]!;
        letters += prev.kind === 'sep' ? 0 : prev.norm.replace(/ /g, '').length;
        if (letters > longest) break;
        const p = body[k]!;
        if (p.kind === 'word' && VERB_STARTS.has(p.norm) && this.fleetExists(nameOf(body.slice(0, k), l.text))) { colon = k; break; }
      }
      if (colon < 0) { this.error(l, ORDERS.syntax, 'a fleet order needs a colon after the fleet name: FLEET <fleet>: <order>'); return; }
      namePieces = body.slice(0, colon);
      rest = body.slice(colon);
    }
    const name = nameOf(namePieces, l.text);
    if (!name) { this.error(l, ORDERS.syntax, 'FLEET needs the fleet\'s name: FLEET <fleet>: <order>'); return; }
    const ref = this.resolveFleet(name, l);
    const order = this.readFleetOrder(trimSeps(rest), l);
    if (ref === undefined) {
      // Unknown or not ours: the order is still read for its own mistakes, never applied.
      if (order?.kind === 'move') this.readRoute(order.route, l);
      return;
    }
    if (!order) return;
    this.apply(ref, order, l);
  }

  /** Letters (spaces aside) of the longest fleet name this message may use. */
  longestFleetName(): number {
    // FORM lines are all read before the first FLEET line, so this is worked out once.
    if (this.longestFleet === undefined) {
      let n = this.tables ? this.tables.own.longestName : 0;
      for (const key of this.formed.keys()) n = Math.max(n, key.replace(/ /g, '').length);
      this.longestFleet = n;
    }
    return this.longestFleet;
  }

  fleetExists(name: string): boolean {
    if (!name) return false;
    if (this.formed.has(normalise(name))) return true;
    if (!this.tables) return false;
    // Own fleets only: a line naming another power's fleet reads as one naming nobody's.
    return this.tables.own.lookup(name).length > 0;
  }

  /** The writer's fleet of that name, or undefined (with the error given; none when no power is known). */
  resolveFleet(name: string, l: Line): FleetRef | undefined {
    if (!this.power || !this.tables) return undefined;
    const { own } = this.tables;
    const hits = own.lookup(name);
    if (hits.length > 1) {
      this.error(l, ORDERS.ambiguousName, `${quote(name)} could be ${hits.map((h) => `${h.value.name} (id ${h.value.id})`).join(' or ')}; write the fleet's id`);
      return undefined;
    }
    const f: Fleet | undefined = hits[0]?.value;
    if (f) {
      // A campaign stored before names of the id form were refused may have a fleet named
      // like another's id: the id wins, and the writer is told how to reach the other.
      const named = own.lookupNames(name).filter((e) => e.value !== f);
      for (const e of named) {
        this.warn(l, ORDERS.idOverName, `${quote(name)} is the id of ${f.name}, which takes this order; for the fleet named ${e.label} write its id, ${e.value.id}`);
      }
      return { id: f.id, name: f.name, at: f.at, inHarbor: f.inHarbor };
    }
    const formed = this.formed.get(normalise(name));
    if (formed) {
      if (formed.failedForm !== undefined) {
        this.error(l, ORDERS.formFailed, `${formed.name} is not formed: the FORM on line ${formed.failedForm} has errors`);
        return undefined;
      }
      return formed;
    }
    // Another power's fleet (by name or id) gets the message a name nobody has gets (SPEC §6).
    let near = own.nearest(name)?.entry.label;
    const wanted = normalise(name);
    if (!near) for (const [key, r] of this.formed) if (key.includes(wanted)) { near = r.name; break; }
    const candidates = near ? [] : [...own.entries.map((e) => e.label), ...[...this.formed.values()].filter((r) => r.failedForm === undefined).map((r) => r.name)];
    const hint = near ? `; did you mean ${quote(near)}?` : candidates.length ? `; your fleets are: ${candidates.join(', ')}` : '; you have no fleets';
    this.error(l, ORDERS.unknownFleet, `no fleet of yours called ${quote(name)}${hint}`);
    return undefined;
  }

  /** The order after `FLEET x:`, or undefined (with the error given). */
  readFleetOrder(p: Piece[], l: Line): FleetOrder | undefined {
    if (p.length === 0) { this.error(l, ORDERS.syntax, `an order is missing after the colon; fleet orders are ${FLEET_ORDERS_LIST}`); return undefined; }
    const nothingAfter = (n: number, what: string, order: FleetOrder): FleetOrder | undefined => {
      const rest = trimSeps(p.slice(n));
      if (rest.length === 0) return order;
      this.error(l, ORDERS.syntax, `${quote(rawOf(rest, l.text))} after ${what} is not understood; one order a line (write another FLEET line)`);
      return undefined;
    };
    let n: number;
    if ((n = startsWith(p, 'move'))) return { kind: 'move', leave: false, routeGiven: true, route: p.slice(n) };
    if ((n = startsWith(p, 'leave', 'harbor'))) {
      let k = skipSeps(p, n);
      while (k < p.length && p[k]!.kind === 'word' && ['and', 'then'].includes((p[k] as { norm: string }).norm)) k = skipSeps(p, k + 1);
      if (k >= p.length) return { kind: 'move', leave: true, routeGiven: false, route: [] };
      const m = startsWith(p.slice(k), 'move');
      if (m) return { kind: 'move', leave: true, routeGiven: true, route: p.slice(k + m) };
      this.error(l, ORDERS.syntax, `after LEAVE HARBOR write MOVE and the route (LEAVE HARBOR MOVE <place> ...), not ${quote(rawOf(p.slice(k), l.text))}`);
      return undefined;
    }
    if ((n = startsWith(p, 'hold'))) return nothingAfter(n, 'HOLD', { kind: 'hold' });
    if ((n = startsWith(p, 'repair'))) return nothingAfter(n, 'REPAIR', { kind: 'repair' });
    if ((n = startsWith(p, 'drop', 'slow'))) return nothingAfter(n, 'DROP SLOW', { kind: 'dropSlow' });
    if ((n = startsWith(p, 'mission'))) return nothingAfter(n, 'MISSION', { kind: 'mission' });
    if ((n = startsWith(p, 'reduce', 'fort'))) return nothingAfter(n, 'REDUCE FORT', { kind: 'reduceFort' });
    if ((n = startsWith(p, 'attack', 'harbor'))) return nothingAfter(n, 'ATTACK HARBOR', { kind: 'attackHarbor' });
    if ((n = startsWith(p, 'stance'))) {
      const v = trimSeps(p.slice(n));
      const stance = STANCE_WORDS[v.map((x) => (x.kind === 'sep' ? '' : x.norm)).filter(Boolean).join(' ')];
      if (!stance) {
        const what = v.length ? `${quote(rawOf(v, l.text))} is not a stance` : 'STANCE needs a stance';
        this.error(l, ORDERS.unknownStance, `${what}; write STANCE ENGAGE, STANCE AVOID or STANCE ENGAGE IF STRONGER`);
        return undefined;
      }
      return { kind: 'stance', stance };
    }
    this.error(l, ORDERS.unknownOrder, `${quote(p[0]!.raw)} is not an order; fleet orders are ${FLEET_ORDERS_LIST}`);
    return undefined;
  }

  /** The nodes of a route; undefined entries are names that failed (each with its error). */
  readRoute(pieces: Piece[], l: Line): { route: (NodeId | undefined)[]; harbor: boolean } {
    const { items, tail } = readSequence<NodeId>(pieces, l.text, {
      lookup: this.nodeLookup,
      nearest: this.nodeNearest,
      longest: this.nodes.longestName,
      fillers: ROUTE_FILLERS,
      tail: { word: 'harbor', fillers: HARBOR_TAIL_FILLERS },
    });
    const route: (NodeId | undefined)[] = [];
    for (const it of items) {
      if (it.kind === 'hit') { route.push(it.value); continue; }
      route.push(undefined);
      if (it.kind === 'miss') {
        this.error(l, ORDERS.unknownNode, `no place called ${quote(it.raw)} on the map${it.suggestion ? `; did you mean ${quote(it.suggestion)}?` : ''}`);
      } else {
        this.error(l, ORDERS.ambiguousName, `${quote(it.raw)} could be ${it.entries.map((e) => `${e.label} (${e.value})`).join(' or ')}; write the place's id`);
      }
    }
    return { route, harbor: tail };
  }

  apply(ref: FleetRef, order: FleetOrder, l: Line): void {
    const line = l.src.line;
    let acc = this.acc.get(ref.id);
    if (!acc) {
      acc = { ref, orders: { fleetId: ref.id }, firstLine: line };
      this.acc.set(ref.id, acc);
    }
    const a = acc;
    const o = a.orders;
    const conflict = (code: string, message: string) => { this.error(l, code, message); };

    switch (order.kind) {
      case 'move': {
        const asked = () => { a.moveAsked ??= line; };
        const { route: raw, harbor } = order.routeGiven ? this.readRoute(order.route, l) : { route: [], harbor: false };
        if (order.routeGiven && raw.length === 0 && !harbor) {
          asked();
          this.error(l, ORDERS.emptyRoute, 'MOVE needs a route: MOVE <place> <place> ... from where the fleet stands, HARBOR at the end to enter a port');
          return;
        }
        if (a.holdLine !== undefined || a.repairLine !== undefined || (order.routeGiven && a.routeLine !== undefined)) asked();
        if (a.holdLine !== undefined) return conflict(ORDERS.holdAndMove, `${ref.name} has HOLD on line ${a.holdLine}; give HOLD or a move, not both`);
        if (a.repairLine !== undefined) return conflict(ORDERS.repairAndMove, `${ref.name} has REPAIR on line ${a.repairLine}: a fleet that repairs cannot move this turn`);
        if (order.routeGiven && a.routeLine !== undefined) {
          return conflict(ORDERS.twoMoves, `${ref.name} already has a MOVE on line ${a.routeLine}; give the whole route in one MOVE`);
        }
        if (raw.some((x) => x === undefined)) { asked(); this.checkAdjacency(ref, raw, l); return; }
        let route = raw as NodeId[];
        if (ref.at !== null && route[0] === ref.at) route = route.slice(1);
        if (!this.checkAdjacency(ref, route, l)) { asked(); return; }
        if (harbor) {
          const last = route.length ? route[route.length - 1]! : ref.at;
          if (last !== null && !this.isPort(last)) {
            asked();
            this.error(l, ORDERS.noHarbor, `${this.nodeName(last)} is not a port: HARBOR at the end of a route enters a port's harbor`);
            return;
          }
        }
        let leave = order.leave;
        if (leave && ref.at !== null && !ref.inHarbor) {
          this.warn(l, ORDERS.notInHarbor, `${ref.name} is not in harbor; LEAVE HARBOR ignored`);
          leave = false;
          if (!order.routeGiven) return;
        }
        if (!leave && ref.inHarbor && route.length > 0 && a.leaveLine === undefined && !o.move?.leaveHarbor) {
          this.warn(l, ORDERS.leaveHarborAdded, `fleet ${ref.name} is in harbor: LEAVE HARBOR added (costs 1 mp)`);
          leave = true;
        }
        asked();
        if (leave) a.leaveLine ??= line;
        if (order.routeGiven) a.routeLine = line;
        const had = o.move;
        o.move = {
          leaveHarbor: leave || (had?.leaveHarbor ?? false),
          route: order.routeGiven ? route : (had?.route ?? []),
          enterHarbor: order.routeGiven ? harbor : (had?.enterHarbor ?? false),
        };
        break;
      }
      case 'hold': {
        if (a.leaveLine !== undefined || a.routeLine !== undefined) {
          return conflict(ORDERS.holdAndMove, `${ref.name} has a move on line ${a.routeLine ?? a.leaveLine}; give HOLD or a move, not both`);
        }
        a.holdLine ??= line;
        o.hold = true;
        break;
      }
      case 'repair': {
        if (a.leaveLine !== undefined || a.routeLine !== undefined) {
          return conflict(ORDERS.repairAndMove, `${ref.name} has a move on line ${a.routeLine ?? a.leaveLine}: a fleet that repairs cannot move this turn`);
        }
        if (a.fortLine !== undefined) return conflict(ORDERS.repairAndAttack, `${ref.name} attacks a port (line ${a.fortLine}); it cannot REPAIR in the same turn`);
        a.repairLine ??= line;
        o.repair = true;
        break;
      }
      case 'stance': {
        if (o.stance !== undefined && o.stance !== order.stance) {
          return conflict(ORDERS.stanceConflict, `${ref.name} already has STANCE ${STANCE_TEXT[o.stance]} on line ${a.stanceLine}; give one stance`);
        }
        a.stanceLine ??= line;
        o.stance = order.stance;
        break;
      }
      case 'reduceFort':
      case 'attackHarbor': {
        const other = order.kind === 'reduceFort' ? o.attackHarbor : o.reduceFort;
        if (other) return conflict(ORDERS.fortConflict, `${ref.name} has ${order.kind === 'reduceFort' ? 'ATTACK HARBOR' : 'REDUCE FORT'} on line ${a.fortLine}: give REDUCE FORT (no defenders) or ATTACK HARBOR (defenders present), not both`);
        if (a.repairLine !== undefined) return conflict(ORDERS.repairAndAttack, `${ref.name} has REPAIR on line ${a.repairLine}; it cannot ${ORDER_NAMES[order.kind]} in the same turn`);
        a.fortLine ??= line;
        o[order.kind] = true;
        break;
      }
      case 'dropSlow':
      case 'mission':
        o[order.kind] = true;
        break;
    }
    o.lines = [...(o.lines ?? []), line].filter((v, i, arr) => arr.indexOf(v) === i);
  }

  /** Each step adjacent to the last, from where the fleet stands; the first break is reported. */
  checkAdjacency(ref: FleetRef, route: readonly (NodeId | undefined)[], l: Line): boolean {
    let at: NodeId | null = ref.at;
    for (const [i, step] of route.entries()) {
      if (step === undefined) { at = null; continue; }
      if (at === null) { at = step; continue; }
      if (i === 0 && step === at) continue;
      if (step === at) {
        this.error(l, ORDERS.routeRepeat, `${this.nodeName(step)} is named twice in a row; list each place of the route once`);
        return false;
      }
      if (!this.map.adjacent(at, step)) {
        const reach = this.map.neighbours(at).map((n) => this.nodeName(n)).join(', ');
        this.error(l, ORDERS.notAdjacent, `${this.nodeName(step)} is not adjacent to ${this.nodeName(at)}; from ${this.nodeName(at)} you can reach: ${reach || 'nowhere'}`);
        return false;
      }
      at = step;
    }
    return true;
  }

  // ---------------------------------------------------------------- MISSION TARGET

  missionLine(l: Line): void {
    const start = skipSeps(l.body);
    if (startsWith(l.body.slice(start), 'none')) {
      // MISSION NONE: the power declines its mission in force (the rules check the rest).
      if (trimSeps(l.body.slice(start + 1)).length > 0) { this.error(l, ORDERS.syntax, 'MISSION NONE takes nothing after it'); return; }
      this.missionNone ??= { line: l.src.line };
      return;
    }
    const n = startsWith(l.body.slice(start), 'target') && start + 1;
    if (!n) {
      this.error(l, ORDERS.syntax, 'write MISSION TARGET <port> to name the port to raid or blockade, FLEET <fleet>: MISSION to give a fleet the mission, or MISSION NONE to decline it');
      return;
    }
    const rest = trimSeps(l.body.slice(n));
    if (rest.length === 0) { this.error(l, ORDERS.syntax, 'MISSION TARGET needs a port: MISSION TARGET <port>'); return; }
    const { items } = readSequence<NodeId>(rest, l.text, { lookup: this.nodeLookup, nearest: this.nodeNearest, longest: this.nodes.longestName });
    if (items.length !== 1 || items[0]!.kind !== 'hit') {
      const it = items.length === 1 ? items[0]! : undefined;
      const name = rawOf(rest, l.text);
      if (it?.kind === 'ambiguous') {
        this.error(l, ORDERS.ambiguousName, `${quote(name)} could be ${it.entries.map((e) => `${e.label} (${e.value})`).join(' or ')}; write the port's id`);
      } else {
        const near = this.nodeNearest(normalise(name))?.entry.label ?? (it?.kind === 'miss' ? it.suggestion : undefined);
        this.error(l, ORDERS.unknownNode, `no place called ${quote(name)} on the map${near ? `; did you mean ${quote(near)}?` : ''}`);
      }
      return;
    }
    const node = (items[0] as { value: NodeId }).value;
    if (!this.isPort(node)) {
      this.error(l, ORDERS.targetNotPort, `${this.nodeName(node)} is not a port; MISSION TARGET names the port to raid or blockade`);
      return;
    }
    if (this.missionTarget && this.missionTarget.node !== node) {
      this.error(l, ORDERS.targetTwice, `MISSION TARGET is already ${this.nodeName(this.missionTarget.node)} (line ${this.missionTarget.line}); give one target`);
      return;
    }
    this.missionTarget ??= { node, line: l.src.line };
  }

  // ---------------------------------------------------------------- CREW

  /**
   * CREW <ship>, <ship> ...: the order in which the power's ships in harbor take replacement
   * crew (rules VIII). Read like FORM's ships; several CREW lines make one list, in order.
   */
  crewLine(l: Line): void {
    const pieces = trimSeps(l.body);
    if (pieces.length === 0) { this.error(l, ORDERS.crewSyntax, 'CREW needs ships: CREW <ship>, <ship> ... (the first named takes replacement crew first)'); return; }
    if (!this.power || !this.tables) { this.readShipNames(pieces, l, ORDERS.crewUnknownShip); return; }
    const found: ShipAt[] = [];
    for (const it of this.readShipNames(pieces, l, ORDERS.crewUnknownShip)) {
      if (it.kind !== 'hit' || it.value.fleet.power !== this.power.key) continue;
      const at = it.value;
      if (at.ship.status !== 'afloat') { this.error(l, ORDERS.crewNotAfloat, `${at.ship.name} is not afloat (${at.ship.status})`); continue; }
      const earlier = this.crew.find((c) => c.shipIds.includes(at.ship.id));
      if (found.some((f) => f.ship.id === at.ship.id) || earlier) {
        this.error(l, ORDERS.crewShipTwice, `${at.ship.name} is already on the CREW list${earlier ? ` (line ${earlier.line})` : ''}; name each ship once`);
        continue;
      }
      if (!at.fleet.inHarbor) this.warn(l, ORDERS.crewNotInHarbor, `${at.ship.name} is at sea at ${this.nodeName(at.fleet.at)}: only ships in harbor when the turn begins take on crew, so CREW gives her none this turn`);
      found.push(at);
    }
    if (found.length > 0) this.crew.push({ shipIds: found.map((f) => f.ship.id), line: l.src.line });
  }

  // ---------------------------------------------------------------- the three-fleet limit

  /**
   * The fleets past the limit, in the order the orders name the fleets (the order the resolver
   * counts them in), are reported. Their moves stay in `orders`: a set whose only errors are
   * these is still carried out, the first fleets sailing and the rest holding, and the
   * resolver logs which held (docs/orders-language.md).
   */
  limitMoves(): void {
    const max = this.state.settings.maxFleetsMoved ?? 3;
    const movers = [...this.acc.values()].filter((a) => a.moveAsked !== undefined).sort((x, y) => x.firstLine - y.firstLine);
    for (const a of movers.slice(max)) {
      const l = this.lines.find((x) => x.src.line === a.moveAsked)!;
      this.error(l, TOO_MANY_FLEETS, `only ${max} fleets may move in a turn (rules VI); ${a.ref.name} is number ${movers.indexOf(a) + 1} and will hold. HOLD and REPAIR do not count`);
    }
  }

  // ---------------------------------------------------------------- result

  result(): ParsedOrders {
    const byLine = (x: OrderMessage, y: OrderMessage) => x.line - y.line;
    const fleets = [...this.acc.values()]
      .sort((x, y) => x.firstLine - y.firstLine)
      .map((a) => a.orders)
      .filter((o) => Object.keys(o).some((k) => k !== 'fleetId' && k !== 'lines'));
    const orders: PowerOrders | null = this.power
      ? {
        power: this.power.key, fleets, forms: this.forms, ...(this.missionTarget ? { missionTarget: this.missionTarget.node } : {}),
        ...(this.missionNone ? { missionNone: { line: this.missionNone.line } } : {}), ...(this.crew.length ? { crew: this.crew } : {}),
      }
      : null;
    const password = this.header.password;
    const masked = (m: OrderMessage): OrderMessage => (password && password.length >= 3 ? { ...m, message: m.message.split(password).join('****') } : m);
    return {
      header: this.header,
      orders,
      errors: [...this.errors].sort(byLine).map(masked),
      warnings: [...this.warnings].sort(byLine).map(masked),
      lines: this.lines.map((l) => ({ line: l.src.line, text: maskPassword(l.src.raw, password), status: l.status })),
      blocks: this.blocks,
      orderLines: this.orderLines,
    };
  }
}

/**
 * Read an orders message (SPEC §3). `opts.power` is the power the sender is known to play;
 * `opts.campaign` the campaign the message was sent to.
 */
export function parseOrders(text: string, state: CampaignState, opts: ParseOptions = {}): ParsedOrders {
  return new Parser(state, opts).run(readableText(text));
}
