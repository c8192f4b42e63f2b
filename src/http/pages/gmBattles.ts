/**
 * The GM's battle pages: every battle with its package in each format (served here,
 * behind the GM's session, since the API route needs a Bearer token), the result import
 * form (one row per ship of both sides, the fort of a harbor battle, the winner), and a
 * battle's own page with its result, events, dice and the VP standings.
 *
 * The form only reads numbers and choices; every check is the rules engine's
 * (validateBattleResult / applyBattleResult via importBattleResult). When the result is
 * refused the form comes back with what was entered and each problem next to its ship.
 * The abstract-table button posts to the existing action in gmAdmin.ts.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { exportBattle, resultCorrectable } from '../../campaign/battles.js';
import { battleDesk } from '../../campaign/battleDesk.js';
import { mailProgressData } from './mailProgress.js';
import { deskData } from './battleDesk.js';
import { FALLBACK_WORDS } from '../../words/battleDesk.js';
import { campaignState } from '../../campaign/readCampaign.js';
import { turnLog } from '../../campaign/turnLog.js';
import { battleDeskSettings } from '../../campaign/read/desks.js';
import { battleVp } from '../../campaign/read/battleVp.js';
import { battlePackage, EXPORT_FORMATS, isExportFormat, type BattlePackage } from '../../export/index.js';
import { safeColor } from '../../map/svg.js';
import { PAPER_NAMES, PAPERS, type Paper } from '../../export/paper.js';
import { campaignSheetPaper, setSheetPaper } from '../../campaign/sheetPaper.js';
import { RULESET_NAMES, RULESETS } from '../../export/convert/index.js';
import type { Battle, CampaignState } from '../../rules/state.js';
import { setBattleDeadline, setDeskSettings, readLocalTime } from '../../campaign/battleDeskWrite.js';
import { DESK, UseCaseError } from '../../campaign/errors.js';
import { field, layoutData, PageError, pageContext, redirect, sendPage, type PageContext, type PageDeps } from './context.js';
import { diceAudit, gmEventGroups, nodeNamer } from './present.js';

type Ref = { Params: { ref: string } };
type BattleRef = { Params: { ref: string; key: string } };

const FORMAT_LABELS: Record<(typeof EXPORT_FORMATS)[number], string> = {
  'setup-html': 'Setup sheet (HTML)',
  'setup-pdf': 'Setup sheet (PDF)',
  'wsim-html': 'WS&IM ship logs (HTML)',
  'wsim-pdf': 'WS&IM ship logs (PDF)',
  'btq-html': 'Beat to Quarters',
  'gng-html': 'Galleys & Galleons',
  'gng-cards-html': 'G&G ship cards (HTML)',
  'gng-cards-pdf': 'G&G ship cards (PDF)',
  'cogs-html': 'Sailpower: Cogs of Valor',
  'cogs-cards-html': 'Cogs cog cards (HTML)',
  'cogs-cards-pdf': 'Cogs cog cards (PDF)',
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

/** A refused form's problems by field (the use case's path), for the page to show beside each field. */
function fieldErrors(err: UseCaseError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of err.problems) out[p.path] = out[p.path] ? `${out[p.path]}; ${p.message}` : p.message;
  return out;
}

function findBattle(state: CampaignState, key: string): Battle {
  const battle = state.battles.find((b) => b.id === key);
  if (!battle) throw new PageError(404, 'No such battle', `There is no battle '${key.slice(0, 40)}' in this campaign.`);
  return battle;
}

/** A battle's package in each format, as links behind the GM's session (the turn page shows them too). */
export function formats(base: string, key: string, paper: Paper = 'a4') {
  const k = encodeURIComponent(key);
  return EXPORT_FORMATS.map((f) => {
    const href = `${base}/gm/battles/${k}/package/${f}`;
    // A PDF prints on the campaign's paper; the other size is one link away (?paper=).
    return { format: f, label: FORMAT_LABELS[f], href, other: f.endsWith('-pdf') ? otherPaper(href, paper) : null };
  });
}

function otherPaper(href: string, paper: Paper): { href: string; label: string } {
  const other = paper === 'a4' ? 'letter' : 'a4';
  return { href: `${href}?paper=${other}`, label: PAPER_NAMES[other] };
}

function sidesText(state: CampaignState, battle: Battle): string {
  const name = (p: string) => state.powers.find((x) => x.key === p)?.name ?? p;
  return battle.sides.map((s) => `${name(s.power)}${s.attacker ? ' (attacking)' : ''}, ${s.shipIds.length} ${s.shipIds.length === 1 ? 'ship' : 'ships'}`).join(' against ');
}

export { shipOfProblem } from './battleForm.js';

/** The battle's result sheets, one per ruleset, as HTML and PDF (gmBattleConvert.ts serves them). */
function resultSheets(base: string, key: string, paper: Paper) {
  const k = encodeURIComponent(key);
  return RULESETS.map((r) => {
    const pdf = `${base}/gm/battles/${k}/sheet/${r}/pdf`;
    return { label: RULESET_NAMES[r], html: `${base}/gm/battles/${k}/sheet/${r}/html`, pdf, other: otherPaper(pdf, paper) };
  });
}

const routes: FastifyPluginAsync<{ pages: PageDeps }> = async (app, { pages }) => {
  const { db } = pages;

  app.get<Ref>('/c/:ref/gm/battles', async (req, reply) => listPage(reply, await pageContext(pages, req, req.params.ref, 'gm', 'battles')));

  /** The battles page; `deskForm`: the desk settings as sent, with what was wrong (shown beside the fields). */
  async function listPage(reply: FastifyReply, ctx: PageContext, deskForm?: { days: string; fallback: string; errors: Record<string, string> }): Promise<FastifyReply> {
    const state = await campaignState(db, ctx.campaign.id);
    const paper = await campaignSheetPaper(db, ctx.campaign.id);
    const nodeName = nodeNamer(state.nodes);
    const powerName = (p: string | null | undefined) => (p ? state.powers.find((x) => x.key === p)?.name ?? p : null);
    const battles = [...state.battles].sort((a, b) => b.turn - a.turn || a.phase - b.phase).map((b) => ({
      id: b.id, href: `${ctx.base}/gm/battles/${encodeURIComponent(b.id)}`, turn: b.turn, phase: b.phase,
      where: `${nodeName(b.node)}${b.harbor ? ' (harbor attack)' : ''}`,
      sides: sidesText(state, b),
      pending: b.status === 'pending',
      source: b.result?.source ?? null,
      winner: b.result ? powerName(b.result.winner) ?? 'no winner' : null,
      formats: formats(ctx.base, b.id, paper),
    }));
    const desk = await battleDeskSettings(db, ctx.campaign.id);
    return sendPage(reply, 'gm-battles', {
      ...layoutData(ctx, 'Battles', { section: 'battles' }),
      deskSettings: {
        days: deskForm?.days ?? desk.resultDeadlineDays, abstract: (deskForm?.fallback ?? desk.battleFallback) !== 'gm', words: FALLBACK_WORDS[desk.battleFallback],
        daysError: deskForm?.errors.resultDeadlineDays ?? null, fallbackError: deskForm?.errors.battleFallback ?? null,
      },
      paper: PAPERS.map((p) => ({ value: p, name: PAPER_NAMES[p], selected: p === paper })),
      battles, pendingCount: battles.filter((b) => b.pending).length,
    }, deskForm ? 400 : 200);
  }

  /** The GM: the campaign's desk settings (days to the result deadline; the fallback); refused ones shown again beside their fields. */
  app.post<{ Params: { ref: string } }>('/c/:ref/gm/battles/desk', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm', 'battle-settings');
    const days = field(req.body, 'resultDeadlineDays').trim();
    const fallback = field(req.body, 'battleFallback');
    try {
      await setDeskSettings(db, ctx.campaign.id, { resultDeadlineDays: days === '' ? undefined : Number(days), battleFallback: fallback || undefined });
    } catch (err) {
      if (!(err instanceof UseCaseError) || err.kind !== 'bad_request') throw err;
      // The use case names its fields as the API does; the page says them in words.
      const errors = fieldErrors(err);
      if (errors.resultDeadlineDays) errors.resultDeadlineDays = errors.resultDeadlineDays.replace(/^resultDeadlineDays is/, 'the days to a result deadline are');
      return listPage(reply, ctx, { days, fallback, errors });
    }
    return redirect(reply, `${ctx.base}/gm/battles`);
  });

  /** The GM: the paper the campaign's PDF sheets print on. */
  app.post<{ Params: { ref: string } }>('/c/:ref/gm/battles/paper', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm', 'battle-settings');
    try {
      await setSheetPaper(db, ctx.campaign.id, field(req.body, 'paper'));
    } catch (err) {
      if (!(err instanceof UseCaseError) || err.kind !== 'bad_request') throw err;
      throw new PageError(400, 'Paper not saved', `Not saved: ${err.message}.`);
    }
    return redirect(reply, `${ctx.base}/gm/battles`);
  });

  type ShowQuery = { imported?: string; corrected?: string; undone?: string; deadline?: string };
  app.get<BattleRef & { Querystring: ShowQuery }>('/c/:ref/gm/battles/:key', async (req, reply) => (
    showPage(reply, await pageContext(pages, req, req.params.ref, 'gm', 'battles'), req.params.key, req.query)));

  /** The GM: this battle's own result deadline (in the GM's zone), or back to the campaign's; a refused one is shown again beside its field. */
  app.post<BattleRef>('/c/:ref/gm/battles/:key/deadline', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm', 'battles');
    const text = field(req.body, 'deadline').trim();
    try {
      let at: Date | null = null;
      if (field(req.body, 'clear') !== 'yes') {
        at = readLocalTime(text.replace('T', ' '), ctx.timeZone);
        if (!at) throw new UseCaseError('bad_request', DESK.deadlineInvalid, `'${text.slice(0, 40)}' is not a date and time like 2027-01-20 18:00 (in your time zone, ${ctx.timeZone})`);
      }
      await setBattleDeadline(db, ctx.campaign.id, req.params.key, at);
    } catch (err) {
      if (!(err instanceof UseCaseError) || err.kind !== 'bad_request') throw err;
      return showPage(reply, ctx, req.params.key, {}, { value: text, error: err.message.replace(/^deadline: /, '') });
    }
    return redirect(reply, `${ctx.base}/gm/battles/${encodeURIComponent(req.params.key)}?deadline=1`);
  });

  /** A battle's page for the GM; `deadlineForm`: a deadline refused, as sent, with why (shown beside the field). */
  async function showPage(reply: FastifyReply, ctx: PageContext, key: string, query: ShowQuery, deadlineForm?: { value: string; error: string }): Promise<FastifyReply> {
    const state = await campaignState(db, ctx.campaign.id);
    const battle = findBattle(state, key);
    const paper = await campaignSheetPaper(db, ctx.campaign.id);
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
      vp = await battleVp(db, ctx.campaign.id, battle.id);
    }
    const result = battle.result;
    // Correct or undo only while the result is the last thing entered; otherwise say why not.
    const can = battle.status === 'resolved' ? await resultCorrectable(db, ctx.campaign.id, battle.id) : null;
    const desk = deskData(await battleDesk(db, ctx.campaign.id, battle.id, { role: 'gm' }), ctx.timeZone, { power: null });
    return sendPage(reply, 'gm-battles-show', {
      desk, deadlineSet: query.deadline === '1',
      deadlineForm: { value: deadlineForm?.value ?? desk.deadlineInput, error: deadlineForm?.error ?? null },
      ...layoutData(ctx, `Battle ${battle.id}: ${nodeName(battle.node)}, turn ${battle.turn}`, { section: 'battles' }),
      imported: query.imported === '1' && battle.status === 'resolved',
      // Just stored, corrected or taken back: its mail (and its turn's reports) on their way, live.
      mail: query.imported === '1' || query.corrected === '1' || query.undone === '1' ? await mailProgressData(db, ctx, battle.turn, battle.id) : null,
      corrected: query.corrected === '1' && battle.status === 'resolved',
      undone: query.undone === '1' && battle.status === 'pending',
      correctable: can?.ok ?? false, notCorrectable: can && !can.ok ? can.reason : null,
      battle: {
        id: battle.id, turn: battle.turn, phase: battle.phase, date: pkg.date, where: pkg.location.description,
        sides: sidesText(state, battle), pending: battle.status === 'pending',
        resultHref: `${ctx.base}/gm/battles/${encodeURIComponent(battle.id)}/result`,
      },
      formats: formats(ctx.base, battle.id, paper),
      sheets: resultSheets(ctx.base, battle.id, paper), paperName: PAPER_NAMES[paper],
      convertHref: `${ctx.base}/gm/battles/${encodeURIComponent(battle.id)}/convert`,
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
    }, deadlineForm ? 400 : 200);
  }

  /** A battle's package or setup sheet, cut to the reader (a player: only a battle their power fought). */
  async function sendPackage(ctx: PageContext, reply: FastifyReply, key: string, format: string, shoalsText: string | undefined, paper: string | undefined): Promise<FastifyReply> {
    if (!isExportFormat(format)) throw new PageError(404, 'No such format', `The battle package comes as ${EXPORT_FORMATS.join(', ')}.`);
    const reader = ctx.session.r === 'gm' ? { role: 'gm' as const } : { role: 'player' as const, power: ctx.session.p ?? '' };
    // The setup sheet of a harbor attack may carry the shoals' depth the defender declared (checked by exportBattle).
    const shoals = shoalsText === undefined || shoalsText === '' ? undefined : Number(shoalsText);
    const out = await exportBattle(db, ctx.campaign.id, key, reader, format, shoals === undefined ? { paper } : { shoals, paper });
    const filename = out.filename.replace(/[^A-Za-z0-9._-]/g, '_');
    return reply.status(200).headers(DOWNLOAD_HEADERS)
      .header('content-type', out.contentType)
      .header('content-disposition', `${format.endsWith('-pdf') ? 'attachment' : 'inline'}; filename="${filename}"`)
      .send(out.body);
  }

  app.get<BattleRef & { Params: { format: string }; Querystring: { shoals?: string; paper?: string } }>('/c/:ref/gm/battles/:key/package/:format', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm', 'battles');
    return sendPackage(ctx, reply, req.params.key, req.params.format, req.query.shoals, req.query.paper);
  });

  /** The player's copy, linked from their map page's pending battles. */
  app.get<BattleRef & { Params: { format: string }; Querystring: { shoals?: string; paper?: string } }>('/c/:ref/battles/:key/package/:format', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, undefined, 'battles');
    return sendPackage(ctx, reply, req.params.key, req.params.format, req.query.shoals, req.query.paper);
  });
};

export default routes;
