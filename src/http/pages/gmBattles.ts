/**
 * The GM's battle pages (issue 6): every battle with its package in each format (served
 * here, behind the GM's session, since the API route needs a Bearer token), the result
 * import form (one row per ship of both sides, the fort of a harbor battle, the winner),
 * and a battle's own page with its result, events, dice and the VP standings.
 *
 * The form only reads numbers and choices; every check is the rules engine's
 * (validateBattleResult / applyBattleResult via importBattleResult). When the result is
 * refused the form comes back with what was entered and each problem next to its ship.
 * The abstract-table button posts to the existing action in gmAdmin.ts.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { exportBattle, importBattleResult } from '../../campaign/battles.js';
import { UseCaseError } from '../../campaign/errors.js';
import { campaignState } from '../../campaign/readCampaign.js';
import { turnLog } from '../../campaign/turnLog.js';
import { battlePackage, EXPORT_FORMATS, isExportFormat, type BattlePackage } from '../../export/index.js';
import { safeColor } from '../../map/svg.js';
import { outOfBattle } from '../../rules/battleCheck.js';
import { recordOf } from '../../rules/battleRecord.js';
import { battleLookup } from '../../rules/lookup.js';
import type { Battle, BattleResult, CampaignState, ShipOutcome } from '../../rules/state.js';
import { field, layoutData, PageError, pageContext, redirect, sendPage, type PageContext, type PageDeps } from './context.js';
import { diceAudit, errorOf, gmEventGroups, nodeNamer, parseDiceScript } from './present.js';

type Ref = { Params: { ref: string } };
type BattleRef = { Params: { ref: string; key: string } };

const FINALS: readonly ShipOutcome['final'][] = ['afloat', 'struck', 'captured', 'sunk', 'exploded', 'escaped'];

const FORMAT_LABELS: Record<(typeof EXPORT_FORMATS)[number], string> = {
  'wsim-html': 'WS&IM ship logs (HTML)',
  'wsim-pdf': 'WS&IM ship logs (PDF)',
  'btq-html': 'Beat to Quarters',
  'gng-html': 'Galleys & Galleons',
  'cogs-html': 'Sailpower: Cogs of Valor',
  json: 'JSON',
};

/** Headers for a downloaded package: no scripts, inline styles only, never framed. */
const DOWNLOAD_HEADERS: Record<string, string> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
};

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

function findBattle(state: CampaignState, key: string): Battle {
  const battle = state.battles.find((b) => b.id === key);
  if (!battle) throw new PageError(404, 'No such battle', `There is no battle '${key.slice(0, 40)}' in this campaign.`);
  return battle;
}

function formats(base: string, key: string) {
  const k = encodeURIComponent(key);
  return EXPORT_FORMATS.map((f) => ({ format: f, label: FORMAT_LABELS[f], href: `${base}/gm/battles/${k}/package/${f}` }));
}

function sidesText(state: CampaignState, battle: Battle): string {
  const name = (p: string) => state.powers.find((x) => x.key === p)?.name ?? p;
  return battle.sides.map((s) => `${name(s.power)}${s.attacker ? ' (attacking)' : ''}, ${s.shipIds.length} ${s.shipIds.length === 1 ? 'ship' : 'ships'}`).join(' against ');
}

/** What the GM typed for one ship (strings, to put back into the form). */
interface ShipEntry {
  hullLost: string;
  riggingLost: string[];
  gunsLost: string;
  carronadesLost: string;
  crewLost: string[];
  final: string;
  capturedBy: string;
  prizeCrewFrom: string;
  prizeCrew: string;
}

interface FortEntry { hullLost: string; crewLost: string[]; gunsLost: string; surrendered: boolean }

interface Entry { winner: string; ships: ShipEntry[]; fort: FortEntry | null; notes: string; dice: string; confirmWinner: boolean; overrideReason: string }

function blankEntry(pkg: BattlePackage): Entry {
  const ships = pkg.sides.flatMap((s) => s.ships).map((s) => ({
    hullLost: '', riggingLost: s.rigging.map(() => ''), gunsLost: '', carronadesLost: '', crewLost: s.crew.map(() => ''),
    final: 'afloat', capturedBy: '', prizeCrewFrom: '', prizeCrew: '',
  }));
  const fort = pkg.fort ? { hullLost: '', crewLost: pkg.fort.crew.map(() => ''), gunsLost: '', surrendered: false } : null;
  return { winner: '', ships, fort, notes: '', dice: '', confirmWinner: false, overrideReason: '' };
}

function entryFrom(pkg: BattlePackage, body: unknown): Entry {
  const ships = pkg.sides.flatMap((s) => s.ships);
  ships.forEach((s, i) => {
    const sent = field(body, `s${i}.id`);
    if (sent !== s.id) throw new PageError(409, 'The battle changed', 'The ships of this battle are not the ones on the form you sent. Reload the form and enter the result again.');
  });
  return {
    winner: field(body, 'winner'),
    ships: ships.map((s, i) => ({
      hullLost: field(body, `s${i}.hullLost`).trim(),
      riggingLost: s.rigging.map((_, m) => field(body, `s${i}.rigging.${m}`).trim()),
      gunsLost: field(body, `s${i}.gunsLost`).trim(),
      carronadesLost: field(body, `s${i}.carronadesLost`).trim(),
      crewLost: s.crew.map((_, c) => field(body, `s${i}.crew.${c}`).trim()),
      final: field(body, `s${i}.final`),
      capturedBy: field(body, `s${i}.capturedBy`),
      prizeCrewFrom: field(body, `s${i}.prizeCrewFrom`),
      prizeCrew: field(body, `s${i}.prizeCrew`).trim(),
    })),
    fort: pkg.fort ? {
      hullLost: field(body, 'fort.hullLost').trim(),
      crewLost: pkg.fort.crew.map((_, c) => field(body, `fort.crew.${c}`).trim()),
      gunsLost: field(body, 'fort.gunsLost').trim(),
      surrendered: field(body, 'fort.surrendered') === 'yes',
    } : null,
    notes: field(body, 'notes').slice(0, 5000),
    dice: field(body, 'dice'),
    confirmWinner: field(body, 'confirmWinner') === 'yes',
    overrideReason: field(body, 'overrideReason').slice(0, 500),
  };
}

/** Empty is 0; anything else is read as a number (the rules refuse what is not a whole number ≥ 0). */
const boxes = (text: string) => (text === '' ? 0 : Number(text));

function resultFrom(pkg: BattlePackage, entry: Entry): BattleResult {
  const ships = pkg.sides.flatMap((s) => s.ships);
  return {
    source: 'imported',
    winner: entry.winner === '' ? null : entry.winner,
    // A ship out of the battle has no inputs: her row reads as untouched, which the rules drop.
    ships: ships.map((s, i) => {
      const e = entry.ships[i]!;
      const final = (FINALS as readonly string[]).includes(e.final) ? e.final as ShipOutcome['final'] : 'afloat';
      return {
        shipId: s.id,
        hullLost: boxes(e.hullLost), riggingLost: e.riggingLost.map(boxes), gunsLost: boxes(e.gunsLost),
        carronadesLost: boxes(e.carronadesLost), crewLost: e.crewLost.map(boxes), final,
        ...(e.capturedBy ? { capturedBy: e.capturedBy } : {}),
        ...(e.prizeCrewFrom ? { prizeCrewFrom: e.prizeCrewFrom } : {}),
        ...(e.prizeCrew ? { prizeCrew: Number(e.prizeCrew) } : {}),
      };
    }),
    ...(entry.fort ? { fort: { hullLost: boxes(entry.fort.hullLost), crewLost: entry.fort.crewLost.map(boxes), gunsLost: boxes(entry.fort.gunsLost), surrendered: entry.fort.surrendered } } : {}),
    ...(entry.notes.trim() ? { notes: entry.notes.trim() } : {}),
  };
}

/**
 * The ship a problem is about: the ship named last in its message (a prize crew's problem
 * names the donor first and the prize last; the prize's row is where the crew is entered).
 * Names ending at one place: the longest wins, so "Victory" does not take "HMS Victory"'s.
 */
export function shipOfProblem(message: string, names: readonly string[]): number {
  let best = -1;
  let at = -1;
  names.forEach((name, i) => {
    if (!name) return;
    const pos = message.lastIndexOf(name);
    if (pos < 0) return;
    const end = pos + name.length;
    if (end > at || (end === at && name.length > names[best]!.length)) { best = i; at = end; }
  });
  return best;
}

const routes: FastifyPluginAsync<{ pages: PageDeps }> = async (app, { pages }) => {
  const { db } = pages;

  app.get<Ref>('/c/:ref/gm/battles', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    const state = await campaignState(db, ctx.campaign.id);
    const nodeName = nodeNamer(state.nodes);
    const powerName = (p: string | null | undefined) => (p ? state.powers.find((x) => x.key === p)?.name ?? p : null);
    const battles = [...state.battles].sort((a, b) => b.turn - a.turn || a.phase - b.phase).map((b) => ({
      id: b.id, href: `${ctx.base}/gm/battles/${encodeURIComponent(b.id)}`, turn: b.turn, phase: b.phase,
      where: `${nodeName(b.node)}${b.harbor ? ' (harbor attack)' : ''}`,
      sides: sidesText(state, b),
      pending: b.status === 'pending',
      source: b.result?.source ?? null,
      winner: b.result ? powerName(b.result.winner) ?? 'no winner' : null,
      formats: formats(ctx.base, b.id),
    }));
    return sendPage(reply, 'gm-battles', {
      ...layoutData(ctx, 'Battles', { section: 'battles' }),
      battles, pendingCount: battles.filter((b) => b.pending).length,
    });
  });

  app.get<BattleRef & { Querystring: { imported?: string } }>('/c/:ref/gm/battles/:key', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    const state = await campaignState(db, ctx.campaign.id);
    const battle = findBattle(state, req.params.key);
    const nodeName = nodeNamer(state.nodes);
    const powerName = (p: string) => state.powers.find((x) => x.key === p)?.name ?? p;
    const pkg = battlePackage(state, battle.id);
    const shipName = new Map(pkg.sides.flatMap((s) => s.ships).map((s) => [s.id, s.name]));
    let events: ReturnType<typeof gmEventGroups> = [];
    let rolls: ReturnType<typeof diceAudit> = [];
    let vp: { power: string; points: number; reason: string }[] = [];
    if (battle.status === 'resolved') {
      const log = await turnLog(db, ctx.campaign.id, battle.turn, { role: 'gm' });
      const mine = log.events.filter((e) => e.battleId === battle.id);
      events = gmEventGroups(mine);
      rolls = diceAudit(mine);
      const rows = await db.prisma.vpEntry.findMany({
        where: { campaignId: ctx.campaign.id, battleKey: battle.id }, orderBy: { createdAt: 'asc' },
        select: { points: true, reason: true, power: { select: { name: true } } },
      });
      vp = rows.map((r) => ({ power: r.power.name, points: r.points, reason: r.reason }));
    }
    const result = battle.result;
    return sendPage(reply, 'gm-battles-show', {
      ...layoutData(ctx, `Battle ${battle.id}: ${nodeName(battle.node)}, turn ${battle.turn}`, { section: 'battles' }),
      imported: req.query.imported === '1' && battle.status === 'resolved',
      battle: {
        id: battle.id, turn: battle.turn, phase: battle.phase, date: pkg.date, where: pkg.location.description,
        sides: sidesText(state, battle), pending: battle.status === 'pending',
        resultHref: `${ctx.base}/gm/battles/${encodeURIComponent(battle.id)}/result`,
      },
      formats: formats(ctx.base, battle.id),
      result: result ? {
        source: result.source, winner: result.winner ? powerName(result.winner) : null, notes: result.notes ?? null,
        ships: result.ships.map((o) => ({
          name: shipName.get(o.shipId) ?? o.shipId, hullLost: o.hullLost, riggingLost: sum(o.riggingLost), gunsLost: o.gunsLost,
          carronadesLost: o.carronadesLost, crewLost: sum(o.crewLost), final: o.final,
          captor: o.capturedBy ? powerName(o.capturedBy) : null,
          prize: o.prizeCrewFrom ? `${o.prizeCrew ?? '?'} from ${shipName.get(o.prizeCrewFrom) ?? o.prizeCrewFrom}` : null,
        })),
        fort: result.fort ? { ...result.fort, crewLost: sum(result.fort.crewLost) } : null,
      } : null,
      groups: events, rolls, vp,
      standings: state.powers.filter((p) => p.playable).map((p) => ({ name: p.name, color: safeColor(p.color), vp: p.vp })), vpGoal: state.vpGoal,
    });
  });

  app.get<BattleRef & { Params: { format: string } }>('/c/:ref/gm/battles/:key/package/:format', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    const format = req.params.format;
    if (!isExportFormat(format)) throw new PageError(404, 'No such format', `The battle package comes as ${EXPORT_FORMATS.join(', ')}.`);
    const out = await exportBattle(db, ctx.campaign.id, req.params.key, { role: 'gm' }, format);
    const filename = out.filename.replace(/[^A-Za-z0-9._-]/g, '_');
    return reply.status(200).headers(DOWNLOAD_HEADERS)
      .header('content-type', out.contentType)
      .header('content-disposition', `${format === 'wsim-pdf' ? 'attachment' : 'inline'}; filename="${filename}"`)
      .send(out.body);
  });

  function formData(ctx: PageContext, state: CampaignState, battle: Battle, entry: Entry, extra: { error?: string; problems?: string[]; shipProblems?: string[][] } = {}) {
    const pkg = battlePackage(state, battle.id);
    // Ships taken or sunk elsewhere since the battle was joined: shown with why, nothing to enter.
    const gone = outOfBattle(state, battleLookup(state), battle, recordOf(state, battle));
    const powerName = (p: string) => state.powers.find((x) => x.key === p)?.name ?? p;
    const powers = [...new Set(battle.sides.map((s) => s.power))];
    const all = pkg.sides.flatMap((s) => s.ships);
    let i = 0;
    return {
      ...layoutData(ctx, `Result of battle ${battle.id}`, { section: 'battles' }),
      battle: { id: battle.id, turn: battle.turn, where: pkg.location.description, sides: sidesText(state, battle), href: `${ctx.base}/gm/battles/${encodeURIComponent(battle.id)}` },
      action: `${ctx.base}/gm/battles/${encodeURIComponent(battle.id)}/result`,
      error: extra.error ?? null, problems: extra.problems ?? [],
      winners: [{ value: '', label: 'no winner (a drawn action)', selected: entry.winner === '' },
        ...powers.map((p) => ({ value: p, label: powerName(p), selected: entry.winner === p }))],
      sides: pkg.sides.map((side) => ({
        name: side.powerName, attacker: side.attacker,
        ships: side.ships.map((s) => {
          const n = i++;
          const e = entry.ships[n]!;
          return {
            n, id: s.id, name: s.name, cls: s.className, power: side.powerName,
            out: gone.get(s.id) ?? null,
            problems: extra.shipProblems?.[n] ?? [],
            hull: `${s.hull.left}/${s.hull.capacity}`, guns: `${s.guns.left}/${s.guns.capacity}`, carronades: `${s.carronades.left}/${s.carronades.capacity}`,
            hullLost: e.hullLost, gunsLost: e.gunsLost, carronadesLost: e.carronadesLost, prizeCrew: e.prizeCrew,
            rigging: s.rigging.map((r, m) => ({ m, mast: r.mast, left: r.left, capacity: r.capacity, value: e.riggingLost[m] ?? '' })),
            crew: s.crew.map((c, k) => ({ k, section: c.section, left: c.left, capacity: c.capacity, value: e.crewLost[k] ?? '' })),
            finals: FINALS.map((f) => ({ value: f, selected: e.final === f })),
            captors: [{ value: '', label: '—', selected: e.capturedBy === '' },
              ...powers.filter((p) => p !== side.power).map((p) => ({ value: p, label: powerName(p), selected: e.capturedBy === p }))],
            donors: [{ value: '', label: 'chosen by the rules', selected: e.prizeCrewFrom === '' },
              ...all.filter((d) => d.power !== s.power).map((d) => ({ value: d.id, label: `${d.name} (${powerName(d.power)})`, selected: e.prizeCrewFrom === d.id }))],
          };
        }),
      })),
      fort: pkg.fort && entry.fort ? {
        name: pkg.fort.portName, owner: pkg.fort.ownerName,
        hull: `${pkg.fort.hull.left}/${pkg.fort.hull.capacity}`, guns: `${pkg.fort.guns.left}/${pkg.fort.guns.capacity}`,
        hullLost: entry.fort.hullLost, gunsLost: entry.fort.gunsLost, surrendered: entry.fort.surrendered,
        crew: pkg.fort.crew.map((c, k) => ({ k, section: c.section, left: c.left, capacity: c.capacity, value: entry.fort!.crewLost[k] ?? '' })),
      } : null,
      notes: entry.notes, dice: entry.dice, confirmWinner: entry.confirmWinner, overrideReason: entry.overrideReason,
      record: pkg.record.note,
    };
  }

  async function pendingBattle(ctx: PageContext, key: string) {
    const state = await campaignState(db, ctx.campaign.id);
    const battle = findBattle(state, key);
    if (battle.status !== 'pending') {
      throw new PageError(409, 'Already resolved', `Battle ${battle.id} already has a result; its page shows it.`);
    }
    return { state, battle, pkg: battlePackage(state, battle.id) };
  }

  app.get<BattleRef>('/c/:ref/gm/battles/:key/result', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    const { state, battle, pkg } = await pendingBattle(ctx, req.params.key);
    return sendPage(reply, 'gm-battles-result', formData(ctx, state, battle, blankEntry(pkg)));
  });

  app.post<BattleRef>('/c/:ref/gm/battles/:key/result', async (req, reply): Promise<FastifyReply> => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    const { state, battle, pkg } = await pendingBattle(ctx, req.params.key);
    const entry = entryFrom(pkg, req.body);
    const ships = pkg.sides.flatMap((s) => s.ships);
    const names = ships.map((s) => s.name);
    try {
      const dice = parseDiceScript(entry.dice);
      if (entry.confirmWinner && !entry.overrideReason.trim()) {
        throw new PageError(400, 'A reason is needed', 'To confirm a winner the losses contradict, say why in "Reason for the override" (it is kept in the audit log).');
      }
      await importBattleResult(db, ctx.campaign.id, battle.id, resultFrom(pkg, entry), {
        ...(dice ? { dice } : {}), actor: 'gm', ...(entry.confirmWinner ? { confirmWinner: entry.overrideReason } : {}),
      });
    } catch (err) {
      if (!(err instanceof UseCaseError) && !(err instanceof PageError)) throw err;
      const e = errorOf(err);
      const problems = err instanceof UseCaseError ? err.problems : [];
      const messages = problems.map((p) => p.message);
      const shipProblems: string[][] = names.map(() => []);
      for (const p of problems) {
        // The problem's ship by id (ships.<id>); otherwise the ship its message names.
        const byId = p.path.startsWith('ships.') ? ships.findIndex((s) => `ships.${s.id}` === p.path) : -1;
        const n = byId >= 0 ? byId : shipOfProblem(p.message, names);
        if (n >= 0) shipProblems[n]!.push(p.message);
      }
      return sendPage(reply, 'gm-battles-result', formData(ctx, state, battle, entry, {
        error: messages.length > 0 ? 'The result was not stored: the rules refuse it. Each problem is listed below (and next to its ship).' : e.message,
        problems: messages, shipProblems,
      }), e.status);
    }
    return redirect(reply, `${ctx.base}/gm/battles/${encodeURIComponent(battle.id)}?imported=1`);
  });
};

export default routes;
