/**
 * A power's orders, checked, in words: the reply mail and the web form show the same
 * check, built once here (`ordersCheckSummary`); templates only lay them out.
 */
import type { OrdersCheck } from '../orders/check.js';
import { formatMessage } from '../orders/index.js';

export interface OrdersCheckContext {
  campaignName: string;
  powerName: string;
  nodeName(id: string): string;
  /** A fleet's display name (the preview knows fleets by id); the id when absent. */
  fleetName?(id: string): string;
}

export interface PhaseLine {
  phase: number;
  node: string;
  inHarbor: boolean;
  /** This phase pays (or half pays) a step against the trade wind. */
  wind: boolean;
  note: string | null;
  /** "phase 4: Off Morant Point — Kingston (Jamaica) → Off Morant Point" */
  text: string;
}

export interface FleetLines {
  fleetId: string;
  name: string;
  /** "4 mp, 2 used" */
  mpText: string;
  phases: PhaseLine[];
  /** "ends the turn at Off Morant Point (at sea)" */
  endText: string;
  /** Steps against the trade wind: "Kingston (Jamaica) → South of Jamaica". */
  windSteps: string[];
  /** Problems found by the preview and not already listed among the errors. */
  problems: string[];
}

export interface EchoRow {
  line: number;
  text: string;
  status: string;
  /** What became of the line, in words: "order", "header", "ignored", "ERROR"... */
  mark: string;
  error: boolean;
}

export interface OrdersCheckSummary {
  subject: string;
  title: string;
  campaignName: string;
  powerName: string;
  turn: number;
  ready: boolean;
  /** "ready" or "has errors": the words used everywhere for the status. */
  status: 'ready' | 'has errors';
  statusText: string;
  /** Set when a later set of orders had already been received: this one is kept but not used. */
  supersededText: string | null;
  errors: string[];
  warnings: string[];
  fleets: FleetLines[];
  echo: EchoRow[];
}

const MARKS: Record<string, string> = {
  order: 'order', header: 'header', ignored: 'ignored', error: 'ERROR', quoted: 'quoted (ignored)', 'after-end': 'after END (ignored)', block: 'not orders (a block beside them)',
};

export function ordersCheckSummary(check: OrdersCheck, ctx: OrdersCheckContext): OrdersCheckSummary {
  const node = (id: string) => ctx.nodeName(id);
  const fleetName = (id: string) => ctx.fleetName?.(id) ?? id;
  const ready = check.status === 'ready';
  const errors = check.errors.map((m) => formatMessage(m));
  const errorSet = new Set(check.errors.map((m) => m.message));

  const fleets = check.preview.map((p): FleetLines => {
    const wind = new Set(p.windSteps.map(([a, b]) => `${a}\u0000${b}`));
    let prev: string | null = null;
    const phases = p.phases.map((ph): PhaseLine => {
      const from = prev;
      prev = ph.node;
      const note = ph.note ?? null;
      const stepAgainst = from !== null && from !== ph.node && wind.has(`${from}\u0000${ph.node}`);
      const halfway = note !== null && /against the trade wind/.test(note);
      const isWind = stepAgainst || halfway;
      const where = `${node(ph.node)}${ph.inHarbor ? ' (in harbor)' : ''}`;
      const tail = note ? ` — ${note}` : '';
      const windTag = isWind && !(note ?? '').includes('trade wind') ? ' (against the trade wind)' : '';
      return { phase: ph.phase, node: node(ph.node), inHarbor: ph.inHarbor, wind: isWind, note, text: `phase ${ph.phase}: ${where}${tail}${windTag}` };
    });
    const last = p.phases[p.phases.length - 1];
    const endText = p.stopsAt === null
      ? 'no such fleet of yours: nothing will move'
      : `ends the turn at ${node(p.stopsAt)}${last?.inHarbor ? ' (in harbor)' : ' (at sea)'}`;
    return {
      fleetId: p.fleetId,
      name: fleetName(p.fleetId),
      mpText: `${p.mp} mp, ${p.mpUsed} used`,
      phases,
      endText,
      windSteps: p.windSteps.map(([a, b]) => `${node(a)} → ${node(b)}`),
      problems: p.problems.filter((v) => !errorSet.has(v.message)).map((v) => formatMessage({ line: v.line ?? 0, message: v.message })),
    };
  });

  const nErr = check.errors.length;
  const status = ready ? 'ready' : 'has errors';
  return {
    subject: `[${ctx.campaignName}] ${ctx.powerName}, orders for turn ${check.turn}: ${ready ? 'ready' : `has errors (${nErr})`}`,
    title: `Orders for turn ${check.turn} — ${ctx.powerName}`,
    campaignName: ctx.campaignName,
    powerName: ctx.powerName,
    turn: check.turn,
    ready,
    status,
    statusText: ready
      ? 'Your orders are ready: they will be carried out as shown below unless you send new orders before the deadline.'
      : `Your orders have ${nErr} ${nErr === 1 ? 'error' : 'errors'}. Nothing in them will be used until you send the whole orders again, corrected. Until then your fleets hold.`,
    supersededText: check.current ? null : 'These orders reached us after a later set you sent for the same turn: they are kept but NOT used. The later set stands.',
    errors,
    warnings: check.warnings.map((m) => formatMessage(m)),
    fleets,
    echo: check.lines.map((l) => ({ line: l.line, text: l.text, status: l.status, mark: MARKS[l.status] ?? l.status, error: l.status === 'error' })),
  };
}
