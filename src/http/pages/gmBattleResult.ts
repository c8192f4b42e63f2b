/**
 * The result of a battle at the table, on the GM's pages: enter it on the compact form
 * (battleForm.ts), correct it, or take it back. Correcting and undoing are offered only
 * while the result is the last thing entered (resultCorrectable in src/campaign/battles.ts
 * knows why not); a correction is the API's PUT, the same use case.
 *
 * A refused result comes back with what was entered and each problem next to its ship;
 * nothing is stored.
 */
import { BATTLE } from '../../campaign/errors.js';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { correctBattleResult, importBattleResult, resultCorrectable, undoBattleResult } from '../../campaign/battles.js';
import { UseCaseError } from '../../campaign/errors.js';
import { campaignState } from '../../campaign/readCampaign.js';
import { importResultLines, linePath } from '../../campaign/battleResultLines.js';
import type { Problem } from '../../campaign/errors.js';
import { battleCode } from '../../export/battleCode.js';
import { battlePackage, type BattlePackage } from '../../export/index.js';
import { outOfBattle } from '../../rules/battleCheck.js';
import { recordOf } from '../../rules/battleRecord.js';
import { battleLookup } from '../../rules/lookup.js';
import type { Battle, CampaignState } from '../../rules/state.js';
import { blankEntry, entryFrom, entryOfResult, FATES, resultFrom, shipOfProblem, shipsOf, type Entry } from './battleForm.js';
import { field, layoutData, PageError, pageContext, redirect, sendPage, type PageContext, type PageDeps, gmActor } from './context.js';
import { errorOf, parseDiceScript } from './present.js';

type BattleRef = { Params: { ref: string; key: string } };
type Mode = 'import' | 'correct';

const FATE_WORDS: Record<(typeof FATES)[number], string> = {
  afloat: 'afloat', struck: 'struck (not taken)', escaped: 'left the table', sunk: 'sunk', exploded: 'blew up',
};

/** The lines form's text when the page opens: the sheet's shape with this battle's code and ships, for the GM to fill in. */
function blankLines(campaignId: string, pkg: BattlePackage): string {
  return [`BATTLE ${pkg.battleId} RESULT ${battleCode(campaignId, pkg.battleId)} WSIM`,
    ...pkg.sides.flatMap((s) => s.ships).map((s) => `${s.name}: `), ...(pkg.fort ? ['Fort: '] : []), 'Winner: ', 'END BATTLE'].join('\n');
}

/** The lines as sent, each with the problems about it (beside it on the page), and those about the whole text. */
function linesData(action: string, text: string, problems: readonly Problem[], sent: boolean) {
  const rows = text.split(/\r\n|\r|\n/).slice(0, 400).map((t, i) => ({
    n: i + 1, text: t, problems: problems.filter((p) => p.path === linePath(i + 1)).map((p) => p.message),
  }));
  return {
    action, text, rowCount: Math.min(Math.max(rows.length + 1, 6), 30),
    // Shown back only when sent with problems: every line, the bad ones marked.
    rows: sent && problems.length > 0 ? rows : [],
    general: problems.filter((p) => !/^lines\.\d+$/.test(p.path)).map((p) => p.message),
  };
}

function findBattle(state: CampaignState, key: string): Battle {
  const battle = state.battles.find((b) => b.id === key);
  if (!battle) throw new PageError(404, 'No such battle', `There is no battle '${key.slice(0, 40)}' in this campaign.`);
  return battle;
}

/** The result form's data; a player's form (their battle page) posts to the player's address and has no GM override. */
export function formData(ctx: PageContext, mode: Mode, state: CampaignState, battle: Battle, entry: Entry, extra: { error?: string; problems?: string[]; shipProblems?: string[][]; fortProblems?: string[]; lines?: { text: string; problems: Problem[] } } = {}) {
  const pkg = battlePackage(state, battle.id);
  // Ships taken or sunk elsewhere since the battle was joined: shown with why, nothing to enter.
  const gone = outOfBattle(state, battleLookup(state), battle, recordOf(state, battle));
  const powerName = (p: string) => state.powers.find((x) => x.key === p)?.name ?? p;
  const powers = [...new Set(battle.sides.map((s) => s.power))];
  const all = shipsOf(pkg);
  const player = ctx.session.r === 'player';
  const href = `${ctx.base}${player ? '' : '/gm'}/battles/${encodeURIComponent(battle.id)}`;
  // A player sees the enemy's boxes as joined in no package (SPEC §6): their rows say whose log has them.
  const mine = player ? battle.sides.find((x) => x.power === ctx.session.p)?.attacker : undefined;
  const camps = new Set(battle.sides.map((x) => x.attacker)).size === 2;
  const hidden = (attacker: boolean, power?: string) => player && (camps ? mine !== attacker : power !== ctx.session.p);
  const HIDDEN = 'as joined: in their own log';
  let i = 0;
  return {
    ...layoutData(ctx, `${mode === 'correct' ? 'Correct the result' : 'Result'} of battle ${battle.id}`, { section: 'battles' }),
    mode, correcting: mode === 'correct', player,
    battle: { id: battle.id, turn: battle.turn, where: pkg.location.description, href },
    action: `${href}/result`,
    // The GM may paste the result sheet's lines instead, as the players mail them (a pending battle only).
    lines: player || mode !== 'import' ? null
      : linesData(`${href}/result/lines`, extra.lines?.text ?? blankLines(ctx.campaign.id, pkg), extra.lines?.problems ?? [], extra.lines !== undefined),
    error: extra.error ?? null, problems: extra.problems ?? [],
    winners: [{ value: '', label: 'nobody (a drawn action)', selected: entry.winner === '' },
      ...powers.map((p) => ({ value: p, label: powerName(p), selected: entry.winner === p }))],
    sides: pkg.sides.map((side) => ({
      name: side.powerName, attacker: side.attacker, count: side.ships.length,
      ships: side.ships.map((s) => {
        const n = i++;
        const e = entry.ships[n]!;
        const enemies = powers.filter((p) => p !== side.power);
        return {
          n, id: s.id, name: s.name, cls: s.className,
          out: gone.get(s.id) ?? null,
          problems: extra.shipProblems?.[n] ?? [],
          left: hidden(side.attacker, side.power) ? HIDDEN : `hull ${s.hull.left} · rigging ${s.rigging.map((r) => r.left).join('/')} · guns ${s.guns.left}${s.carronades.capacity > 0 ? ` · carr. ${s.carronades.left}` : ''} · crew ${s.crew.map((c) => c.left).join('/')}`,
          hull: e.hull, rigging: e.rigging, guns: e.guns, carronades: e.carronades, crew: e.crew,
          hasCarronades: s.carronades.capacity > 0 || e.carronades !== '',
          masts: s.rigging.length, sections: s.crew.length,
          fates: [...FATES.map((f) => ({ value: f, label: FATE_WORDS[f], selected: e.fate === f })),
            ...enemies.map((p) => ({ value: `captured:${p}`, label: `taken by ${powerName(p)}`, selected: e.fate === `captured:${p}` }))],
          prizeOpen: e.prizeFrom !== '' || e.prizeCrew !== '',
          prizeCrew: e.prizeCrew,
          donors: [{ value: '', label: 'chosen by the rules', selected: e.prizeFrom === '' },
            ...all.filter((d) => d.power !== s.power).map((d) => ({ value: d.id, label: d.name, selected: e.prizeFrom === d.id }))],
        };
      }),
    })),
    fort: pkg.fort && entry.fort ? {
      name: pkg.fort.portName, owner: pkg.fort.ownerName,
      left: hidden(false) ? HIDDEN : `hull ${pkg.fort.hull.left} · guns ${pkg.fort.guns.left} · crew ${pkg.fort.crew.map((c) => c.left).join('/')}`,
      ...entry.fort, problems: extra.fortProblems ?? [],
    } : null,
    notes: entry.notes, dice: entry.dice, confirmWinner: entry.confirmWinner, overrideReason: entry.overrideReason,
    moreOpen: entry.notes !== '' || entry.dice !== '' || entry.confirmWinner,
    record: pkg.record.note,
  };
}

const routes: FastifyPluginAsync<{ pages: PageDeps }> = async (app, { pages }) => {
  const { db } = pages;

  /**
   * The battle as the form works on it: a pending battle as it stands; a resolved one as it
   * was before its result (the correction replaces that result), when it may be corrected.
   */
  async function formBattle(ctx: PageContext, key: string) {
    const now = await campaignState(db, ctx.campaign.id);
    const current = findBattle(now, key);
    if (current.status === 'pending') return { mode: 'import' as Mode, state: now, battle: current, stored: null };
    const can = await resultCorrectable(db, ctx.campaign.id, current.id);
    if (!can.ok) throw new PageError(409, 'Cannot be corrected', `Battle ${current.id} already has a result, and ${can.reason}.`);
    return { mode: 'correct' as Mode, state: can.stateBefore, battle: findBattle(can.stateBefore, key), stored: current.result ?? null };
  }

  app.get<BattleRef>('/c/:ref/gm/battles/:key/result', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm', 'battles');
    const { mode, state, battle, stored } = await formBattle(ctx, req.params.key);
    const pkg = battlePackage(state, battle.id);
    return sendPage(reply, 'gm-battles-result', formData(ctx, mode, state, battle, stored ? entryOfResult(pkg, stored) : blankEntry(pkg)));
  });

  app.post<BattleRef>('/c/:ref/gm/battles/:key/result', async (req, reply): Promise<FastifyReply> => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm', 'battles');
    const { mode, state, battle } = await formBattle(ctx, req.params.key);
    // The form says what it was for: an import sent twice (or after someone else's) is not a correction.
    if (field(req.body, 'mode') !== mode) {
      throw new PageError(409, 'Already resolved', `Battle ${battle.id} got a result meanwhile; its page shows it (and whether it can still be corrected).`);
    }
    const pkg = battlePackage(state, battle.id);
    const entry = entryFrom(pkg, req.body);
    const ships = shipsOf(pkg);
    const names = ships.map((s) => s.name);
    const shipProblems: string[][] = names.map(() => []);
    const fortProblems: string[] = [];
    try {
      const read = resultFrom(pkg, entry);
      if (!read.ok) {
        for (const p of read.problems) (p.ship >= 0 ? shipProblems[p.ship]! : fortProblems).push(p.message);
        throw new UseCaseError('bad_request', BATTLE.form, 'The form has entries that are not numbers of boxes',
          read.problems.map((p) => ({ path: p.ship >= 0 ? `ships.${ships[p.ship]!.id}` : 'fort', message: p.message })));
      }
      const dice = parseDiceScript(entry.dice);
      if (entry.confirmWinner && !entry.overrideReason.trim()) {
        throw new PageError(400, 'A reason is needed', 'To confirm a winner the losses contradict, say why in "Reason for the override" (it is kept in the audit log).');
      }
      const use = mode === 'correct' ? correctBattleResult : importBattleResult;
      await use(db, ctx.campaign.id, battle.id, read.result, {
        ...(dice ? { dice } : {}), actor: gmActor(ctx), ...(entry.confirmWinner ? { confirmWinner: entry.overrideReason } : {}),
      });
    } catch (err) {
      if (!(err instanceof UseCaseError) && !(err instanceof PageError)) throw err;
      const e = errorOf(err);
      const problems = err instanceof UseCaseError ? err.problems : [];
      if (err instanceof UseCaseError && err.code !== BATTLE.form) {
        for (const p of problems) {
          // The problem's ship by id (ships.<id>); otherwise the ship its message names.
          const byId = p.path.startsWith('ships.') ? ships.findIndex((s) => `ships.${s.id}` === p.path) : -1;
          const n = byId >= 0 ? byId : shipOfProblem(p.message, names);
          if (n >= 0) shipProblems[n]!.push(p.message);
          else if (p.path === 'fort') fortProblems.push(p.message);
        }
      }
      return sendPage(reply, 'gm-battles-result', formData(ctx, mode, state, battle, entry, {
        error: problems.length > 0 ? 'The result was not stored. Each problem is listed below (and next to its ship).' : e.message,
        problems: problems.map((p) => p.message), shipProblems, fortProblems,
      }), e.status);
    }
    return redirect(reply, `${ctx.base}/gm/battles/${encodeURIComponent(battle.id)}?${mode === 'correct' ? 'corrected' : 'imported'}=1`);
  });

  /** The result as the sheet's lines, in one field: stored through the import, or every problem beside its line and nothing stored. */
  app.post<BattleRef>('/c/:ref/gm/battles/:key/result/lines', async (req, reply): Promise<FastifyReply> => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm', 'battles');
    const state = await campaignState(db, ctx.campaign.id);
    const battle = findBattle(state, req.params.key);
    if (battle.status !== 'pending') {
      throw new PageError(409, 'Already resolved', `Battle ${battle.id} got a result meanwhile; its page shows it (and whether it can still be corrected).`);
    }
    const text = field(req.body, 'lines').slice(0, 20_000);
    const confirm = field(req.body, 'confirmWinner') === 'yes';
    const reason = field(req.body, 'overrideReason').trim().slice(0, 500);
    try {
      if (confirm && !reason) throw new PageError(400, 'A reason is needed', 'To confirm a winner the losses contradict, say why in "Reason for the override" (it is kept in the audit log).');
      const dice = parseDiceScript(field(req.body, 'dice'));
      await importResultLines(db, ctx.campaign.id, battle.id, text, { actor: gmActor(ctx), ...(dice ? { dice } : {}), ...(confirm ? { confirmWinner: reason } : {}) });
    } catch (err) {
      if (!(err instanceof UseCaseError) && !(err instanceof PageError)) throw err;
      const e = errorOf(err);
      const problems = err instanceof UseCaseError ? err.problems : [];
      const pkg = battlePackage(state, battle.id);
      const entry = { ...blankEntry(pkg), dice: field(req.body, 'dice'), confirmWinner: confirm, overrideReason: reason };
      return sendPage(reply, 'gm-battles-result', formData(ctx, 'import', state, battle, entry, {
        error: problems.length > 0 ? 'The result was not stored. Each problem is beside its line below.' : e.message,
        lines: { text, problems: problems.length > 0 ? problems : [{ path: linePath(null), message: e.message }] },
      }), e.status);
    }
    return redirect(reply, `${ctx.base}/gm/battles/${encodeURIComponent(battle.id)}?imported=1`);
  });

  /** Take the result back: the battle is pending again (only while it is the last thing entered). */
  app.post<BattleRef>('/c/:ref/gm/battles/:key/undo', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm', 'battles');
    const state = await campaignState(db, ctx.campaign.id);
    const battle = findBattle(state, req.params.key);
    if (battle.status === 'pending') throw new PageError(409, 'No result', `Battle ${battle.id} has no result to take back.`);
    await undoBattleResult(db, ctx.campaign.id, battle.id, gmActor(ctx), field(req.body, 'reason').trim().slice(0, 500) || undefined);
    return redirect(reply, `${ctx.base}/gm/battles/${encodeURIComponent(battle.id)}?undone=1`);
  });
};

export default routes;
