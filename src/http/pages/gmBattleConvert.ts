/**
 * Result sheets on the pages: the printable sheet per ruleset (HTML and PDF, behind the
 * session: the GM's, or a player's for a battle their power fought), and "Convert a result
 * sheet": the GM types the sheet's figures in its ruleset's own terms, sees the conversion
 * (each ship: what the sheet says, her campaign boxes before → after, and what the import would
 * still refuse) with nothing stored, then stores it through the existing import. This file only
 * reads text; the conversion is src/export/convert, the checks the rules engine's.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { importNativeResult, previewNativeResult, resultSheetFor, type Conversion, type SheetKind } from '../../campaign/battleSheets.js';
import { UseCaseError } from '../../campaign/errors.js';
import { campaignState } from '../../campaign/readCampaign.js';
import {
  boxesText, isRuleset, RULESET_FIELDS, RULESET_NAMES, RULESETS, type NativeMeasures, type NativeResult, type Ruleset,
} from '../../export/convert/index.js';
import { battlePackage } from '../../export/index.js';
import { field, layoutData, PageError, pageContext, redirect, sendPage, type PageContext, type PageDeps, gmActor } from './context.js';
import { errorOf, parseDiceScript } from './present.js';

type BattleRef = { Params: { ref: string; key: string } };
type SheetRef = { Params: { ref: string; key: string; ruleset: string; kind: string }; Querystring: { paper?: string } };

const LABELS: Record<string, string> = {
  hullLost: 'Hull lost', riggingLost: 'Rigging lost (total or f/m/m)', gunsLost: 'Guns lost', gunsLostLeft: 'Guns lost left',
  gunsLostRight: 'Guns lost right', carronadesLost: 'Carr. lost', carronadesLostLeft: 'Carr. lost left', carronadesLostRight: 'Carr. lost right',
  crewLost: 'Crew lost (total or a/b/c)', hits: 'Hits', criticals: 'Criticals (e.g. rigging, holed)', hullPointsLost: 'Hull points lost',
  'deck.sternCastle': 'Stern castle crew lost', 'deck.mainDeck': 'Main deck crew lost', 'deck.forecastle': 'Forecastle crew lost', 'deck.crowsNest': "Crow's nest crew lost",
};
const DECKS = ['sternCastle', 'mainDeck', 'forecastle', 'crowsNest'] as const;

/** The form's fields for a ruleset, ships or the fort: Cogs' deck losses are one field a deck. */
function fieldsOf(ruleset: Ruleset, kind: 'ship' | 'fort'): string[] {
  return RULESET_FIELDS[ruleset][kind].flatMap((f) => (f === 'deckCrewLost' ? DECKS.filter((d) => kind === 'ship' || d !== 'crowsNest').map((d) => `deck.${d}`) : [f]));
}

/** A typed figure: empty is absent, a number, "1/0/2" one a mast or section; anything else goes on as typed, for the converter to refuse by name. */
function figure(text: string): number | (number | string)[] | string | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  if (/^-?\d{1,6}$/.test(t)) return Number(t);
  if (t.includes('/')) return t.split('/').map((p) => (/^\s*-?\d{1,6}\s*$/.test(p) ? Number(p) : p.trim()));
  return t.slice(0, 20);
}

function measures(body: unknown, prefix: string, names: string[]): NativeMeasures {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const text = field(body, `${prefix}${name}`);
    if (name === 'criticals') {
      const list = text.split(/[\s,;]+/).filter(Boolean).slice(0, 30);
      if (list.length > 0) out.criticals = list;
    } else if (name.startsWith('deck.')) {
      const v = figure(text);
      if (v !== undefined) out.deckCrewLost = { ...(out.deckCrewLost as object ?? {}), [name.slice(5)]: v };
    } else {
      const v = figure(text);
      if (v !== undefined) out[name] = v;
    }
  }
  return out as NativeMeasures;
}

const routes: FastifyPluginAsync<{ pages: PageDeps }> = async (app, { pages }) => {
  const { db } = pages;

  /** A result sheet, for the GM or a player whose power fought (anyone else: no such battle). */
  async function sendSheet(ctx: PageContext, reply: FastifyReply, key: string, ruleset: string, kind: string, paper: string | undefined): Promise<FastifyReply> {
    if (!isRuleset(ruleset) || (kind !== 'html' && kind !== 'pdf')) throw new PageError(404, 'No such sheet', `Result sheets come for ${RULESETS.join(', ')}, as html or pdf.`);
    const reader = ctx.session.r === 'gm' ? { role: 'gm' as const } : { role: 'player' as const, power: ctx.session.p ?? '' };
    const out = await resultSheetFor(db, ctx.campaign.id, key, reader, ruleset, kind as SheetKind, paper);
    return reply.status(200).header('cache-control', 'no-store').header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
      .header('content-type', out.contentType)
      .header('content-disposition', `${kind === 'pdf' ? 'attachment' : 'inline'}; filename="${out.filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`)
      .send(out.body);
  }

  app.get<SheetRef>('/c/:ref/gm/battles/:key/sheet/:ruleset/:kind', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm', 'battles');
    return sendSheet(ctx, reply, req.params.key, req.params.ruleset, req.params.kind, req.query.paper);
  });

  /** The player's copy: only for a battle their power fought in (their pending battles link it). */
  app.get<SheetRef>('/c/:ref/battles/:key/sheet/:ruleset/:kind', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, undefined, 'battles');
    return sendSheet(ctx, reply, req.params.key, req.params.ruleset, req.params.kind, req.query.paper);
  });

  async function page(ctx: PageContext, key: string, ruleset: Ruleset, body: unknown, extra: { preview?: Conversion; error?: string; problems?: string[] } = {}) {
    const state = await campaignState(db, ctx.campaign.id);
    const battle = state.battles.find((b) => b.id === key);
    if (!battle) throw new PageError(404, 'No such battle', `There is no battle '${key.slice(0, 40)}' in this campaign.`);
    if (battle.status !== 'pending') throw new PageError(409, 'Already resolved', `Battle ${battle.id} already has a result; correct it on its result form.`);
    const pkg = battlePackage(state, battle.id);
    const href = `${ctx.base}/gm/battles/${encodeURIComponent(battle.id)}`;
    const powers = [...new Set(battle.sides.map((s) => s.power))];
    const powerName = (p: string) => state.powers.find((x) => x.key === p)?.name ?? p;
    const input = (name: string, label: string) => ({ name, label, value: field(body, name) });
    const shipFields = fieldsOf(ruleset, 'ship');
    let i = 0;
    return {
      ...layoutData(ctx, `Convert a ${RULESET_NAMES[ruleset]} result sheet: battle ${battle.id}`, { section: 'battles' }),
      battle: { id: battle.id, turn: battle.turn, where: pkg.location.description, href },
      action: `${href}/convert?ruleset=${ruleset}`,
      rulesets: RULESETS.map((r) => ({ href: `${href}/convert?ruleset=${r}`, label: RULESET_NAMES[r], on: r === ruleset })),
      rulesetName: RULESET_NAMES[ruleset],
      code: field(body, 'battleCode'),
      columns: shipFields.map((f) => LABELS[f] ?? f),
      sides: pkg.sides.map((side) => ({
        name: side.powerName,
        ships: side.ships.map((s) => {
          const n = i++;
          const fate = field(body, `s${n}.fate`) || 'afloat';
          const fates = ['afloat', 'struck', 'escaped', 'sunk', 'exploded'].map((f) => ({ value: f, label: f === 'escaped' ? 'left the table' : f, selected: fate === f }));
          for (const p of powers.filter((x) => x !== side.power)) fates.push({ value: `captured:${p}`, label: `taken by ${powerName(p)}`, selected: fate === `captured:${p}` });
          return { n, id: s.id, name: s.name, cls: s.className, fields: shipFields.map((f) => input(`s${n}.${f}`, `${s.name}: ${LABELS[f] ?? f}`)), fates };
        }),
      })),
      fort: pkg.fort ? {
        name: pkg.fort.portName, fields: fieldsOf(ruleset, 'fort').map((f) => input(`fort.${f}`, LABELS[f] ?? f)),
        surrendered: field(body, 'fort.surrendered') === 'yes',
      } : null,
      winners: [{ value: '', label: 'nobody (a drawn action)', selected: field(body, 'winner') === '' },
        ...powers.map((p) => ({ value: p, label: powerName(p), selected: field(body, 'winner') === p }))],
      notes: field(body, 'notes'), dice: field(body, 'dice'),
      confirmWinner: field(body, 'confirmWinner') === 'yes', overrideReason: field(body, 'overrideReason'),
      preview: extra.preview ? {
        rows: extra.preview.rows.map((r) => ({ ...r, before: boxesText(r.before), after: boxesText(r.after) })),
        checks: extra.preview.checks.map((c) => c.message),
      } : null,
      error: extra.error ?? null, problems: extra.problems ?? [],
    };
  }

  function nativeOf(state: Awaited<ReturnType<typeof campaignState>>, key: string, ruleset: Ruleset, body: unknown): NativeResult {
    const pkg = battlePackage(state, key);
    const ships = pkg.sides.flatMap((s) => s.ships).map((s, n) => {
      if (field(body, `s${n}.id`) !== s.id) throw new PageError(409, 'The battle changed', 'The ships of this battle are not the ones on the form you sent. Reload the form and enter the sheet again.');
      const fate = field(body, `s${n}.fate`) || 'afloat';
      const captor = fate.startsWith('captured:') ? fate.slice('captured:'.length) : null;
      return {
        shipId: s.id, ...measures(body, `s${n}.`, fieldsOf(ruleset, 'ship')),
        fate: (captor ? 'captured' : ['afloat', 'struck', 'escaped', 'sunk', 'exploded'].includes(fate) ? fate : 'afloat') as NativeResult['ships'][number]['fate'],
        ...(captor ? { capturedBy: captor } : {}),
      };
    });
    return {
      ruleset, battleCode: field(body, 'battleCode').slice(0, 40), winner: field(body, 'winner') || null, ships,
      ...(pkg.fort ? { fort: { surrendered: field(body, 'fort.surrendered') === 'yes', ...measures(body, 'fort.', fieldsOf(ruleset, 'fort')) } } : {}),
      ...(field(body, 'notes').trim() ? { notes: field(body, 'notes').slice(0, 5000) } : {}),
    };
  }

  const rulesetOf = (q: { ruleset?: string }): Ruleset => (q.ruleset && isRuleset(q.ruleset) ? q.ruleset : 'wsim');

  app.get<BattleRef & { Querystring: { ruleset?: string } }>('/c/:ref/gm/battles/:key/convert', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm', 'battles');
    return sendPage(reply, 'gm-battles-convert', await page(ctx, req.params.key, rulesetOf(req.query), {}));
  });

  app.post<BattleRef & { Querystring: { ruleset?: string } }>('/c/:ref/gm/battles/:key/convert', async (req, reply): Promise<FastifyReply> => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm', 'battles');
    const ruleset = rulesetOf(req.query);
    const state = await campaignState(db, ctx.campaign.id);
    if (!state.battles.some((b) => b.id === req.params.key)) throw new PageError(404, 'No such battle', `There is no battle '${req.params.key.slice(0, 40)}' in this campaign.`);
    const native = nativeOf(state, req.params.key, ruleset, req.body);
    try {
      const confirm = field(req.body, 'confirmWinner') === 'yes';
      const reason = field(req.body, 'overrideReason').trim().slice(0, 500);
      if (confirm && !reason) throw new PageError(400, 'A reason is needed', 'To confirm a winner the losses contradict, say why in "Reason for the override" (it is kept in the audit log).');
      if (field(req.body, 'step') === 'store') {
        const dice = parseDiceScript(field(req.body, 'dice'));
        await importNativeResult(db, ctx.campaign.id, req.params.key, native, { actor: gmActor(ctx), ...(dice ? { dice } : {}), ...(confirm ? { confirmWinner: reason } : {}) });
        return redirect(reply, `${ctx.base}/gm/battles/${encodeURIComponent(req.params.key)}?imported=1`);
      }
      const preview = await previewNativeResult(db, ctx.campaign.id, req.params.key, native, confirm ? reason : undefined);
      return sendPage(reply, 'gm-battles-convert', await page(ctx, req.params.key, ruleset, req.body, { preview }));
    } catch (err) {
      if (!(err instanceof UseCaseError) && !(err instanceof PageError)) throw err;
      const e = errorOf(err);
      const problems = err instanceof UseCaseError ? err.problems.map((p) => p.message) : [];
      return sendPage(reply, 'gm-battles-convert', await page(ctx, req.params.key, ruleset, req.body, {
        error: problems.length > 0 ? 'Nothing was stored. Each problem names its ship:' : e.message, problems,
      }), e.status);
    }
  });
};

export default routes;
