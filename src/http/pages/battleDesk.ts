/**
 * The battle desk on the pages (src/campaign/battleDesk.ts): a player's own battle page
 * (the result deadline, the table date: propose, accept; the result: enter it on the same
 * compact form as the GM's), and the GM's desk actions (a battle's own deadline, adopting
 * one side's entered result, the campaign's desk settings). The GM's battle page and
 * dashboard show the desk through deskData.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { battleDesk, type DeskBattle } from '../../campaign/battleDesk.js';
import { acceptTableDate, proposeTableDates } from '../../campaign/battleDeskWrite.js';
import { adoptEntry, enterPlayerResult } from '../../campaign/battleEntries.js';
import { withoutEnemyFigures } from '../../campaign/entryFog.js';
import { BATTLE, UseCaseError } from '../../campaign/errors.js';
import { campaignState } from '../../campaign/readCampaign.js';
import { battlePackage } from '../../export/index.js';
import type { Battle, CampaignState } from '../../rules/state.js';
import { deadlineSentence, FALLBACK_WORDS, localInputValue, missingWords, tableDateWords } from '../../words/battleDesk.js';
import { blankEntry, entryFrom, resultFrom, shipsOf } from './battleForm.js';
import { field, layoutData, PageError, pageContext, redirect, sendPage, type PageContext, type PageDeps } from './context.js';
import { formData } from './gmBattleResult.js';
import { errorOf } from './present.js';

type BattleRef = { Params: { ref: string; key: string } };
type DatesForm = { error: string | null; fields: { name: string; label: string; value: string; error: string | null }[] };

const DATE_FIELDS = ['date1', 'date2', 'date3'];

const DONE: Record<string, string> = {
  proposed: 'Your dates are proposed; the other side was mailed them.',
  accepted: 'Date accepted.',
  entered: 'Your result is kept. It is stored when the other side\'s entry agrees; if they differ, the GM decides.',
  stored: 'Both sides agree: the result is stored.',
};

/** The desk as a page shows it, in the reader's zone. */
export function deskData(desk: DeskBattle, timeZone: string, reader: { power: string | null }) {
  const name = (p: string) => desk.powers.find((x) => x.key === p)?.name ?? p;
  return {
    deadline: tableDateWords(desk.deadline, timeZone), ownDeadline: desk.ownDeadline,
    deadlineSentence: deadlineSentence(desk.deadline, desk.fallback, timeZone),
    deadlineInput: localInputValue(desk.deadline, timeZone),
    fallback: FALLBACK_WORDS[desk.fallback],
    fallbackDone: desk.fallbackAt ? (desk.fallbackKind === 'gm' ? 'Its deadline passed: the GM was asked to settle it.' : 'Its deadline passed: the fallback was carried out.') : null,
    tableDate: desk.tableDate ? tableDateWords(desk.tableDate, timeZone) : null,
    proposals: desk.proposals.map((p) => ({
      id: p.id, when: tableDateWords(new Date(p.at), timeZone), by: name(p.power),
      accepted: p.acceptedBy.map(name).join(', '),
      canAccept: reader.power !== null && p.power !== reader.power && !p.acceptedBy.includes(reader.power),
      agreed: desk.tableDate?.toISOString() === p.at,
    })),
    entered: desk.entered.map(name),
    enteredMine: reader.power !== null && desk.entered.includes(reader.power),
    disagree: desk.disagree,
    missing: missingWords({ tableDate: desk.tableDate !== null, entries: desk.entered, disagree: desk.disagree }, name),
    entries: reader.power === null && desk.entries ? Object.entries(desk.entries).map(([power, e]) => ({
      power, name: name(power), by: e.by,
      winner: e.result.winner ? name(e.result.winner) : 'nobody (drawn)',
      ships: e.result.ships.map((s) => `${s.shipId}: hull −${s.hullLost}, rigging −${s.riggingLost.reduce((a, b) => a + b, 0)}, guns −${s.gunsLost}, crew −${s.crewLost.reduce((a, b) => a + b, 0)}, ${s.final}${s.capturedBy ? ` by ${name(s.capturedBy)}` : ''}`),
      fort: e.result.fort ? `fort: hull −${e.result.fort.hullLost}, guns −${e.result.fort.gunsLost}${e.result.fort.surrendered ? ', surrendered' : ''}` : null,
    })) : [],
  };
}

function findBattle(state: CampaignState, key: string): Battle {
  const battle = state.battles.find((b) => b.id === key);
  if (!battle) throw new PageError(404, 'No such battle', `There is no battle '${key.slice(0, 40)}' in this campaign.`);
  return battle;
}

/** The battle page's downloads for a player: the setup sheet, then each ruleset's sheets and cards. */
const PLAYER_DOWNLOADS: readonly (readonly [string, string])[] = [
  ['setup-pdf', 'Setup sheet (PDF)'], ['wsim-pdf', 'WS&IM ship logs (PDF)'], ['btq-html', 'Beat to Quarters cards'],
  ['gng-html', 'Galleys & Galleons'], ['gng-cards-pdf', 'G&G ship cards (PDF)'], ['gng-cards-html', 'G&G ship cards (HTML)'],
  ['cogs-html', 'Cogs of Valor'], ['cogs-cards-pdf', 'Cogs cog cards (PDF)'], ['cogs-cards-html', 'Cogs cog cards (HTML)'],
];

const routes: FastifyPluginAsync<{ pages: PageDeps }> = async (app, { pages }) => {
  const { db } = pages;
  const playerOf = (ctx: PageContext) => ctx.session.p ?? '';

  /** A player's battle page: only a battle their power fought (any other: not found). */
  app.get<BattleRef & { Querystring: { done?: string } }>('/c/:ref/battles/:key', async (req, reply) => (
    playerPage(reply, await pageContext(pages, req, req.params.ref, 'player'), req.params.key, DONE[req.query.done ?? ''] ?? null)));

  /** A player's battle page; `datesForm`: dates refused, as sent, each error beside its field. */
  async function playerPage(reply: FastifyReply, ctx: PageContext, key: string, done: string | null, datesForm?: DatesForm): Promise<FastifyReply> {
    const power = playerOf(ctx);
    const desk = await battleDesk(db, ctx.campaign.id, key, { role: 'player', power });
    const k = encodeURIComponent(desk.key);
    return sendPage(reply, 'battle-desk', {
      ...layoutData(ctx, `Battle ${desk.key}: ${desk.place}, turn ${desk.turn}`, { section: 'map' }),
      battle: { key: desk.key, place: desk.place, turn: desk.turn, pending: desk.pending, sides: desk.powers.map((p) => p.name).join(' against '), href: `${ctx.base}/battles/${k}` },
      done,
      desk: deskData(desk, ctx.timeZone, { power }),
      timeZone: ctx.timeZone,
      packageHref: `${ctx.base}/battles/${k}/package/setup-html`,
      // The sheets to print for the table, cut to this player's side like the package (sideView.ts).
      downloads: PLAYER_DOWNLOADS.map(([format, label]) => ({ label, href: `${ctx.base}/battles/${k}/package/${format}` })),
      datesForm: datesForm ?? { error: null, fields: DATE_FIELDS.map((name, i) => ({ name, label: `Date ${i + 1}`, value: '', error: null })) },
    }, datesForm ? 400 : 200);
  }

  app.post<BattleRef>('/c/:ref/battles/:key/dates', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'player');
    const sent = DATE_FIELDS.map((name) => ({ name, value: field(req.body, name).trim() }));
    const filled = sent.filter((f) => f.value !== '');
    try {
      await proposeTableDates(db, ctx.campaign.id, req.params.key, playerOf(ctx), filled.map((f) => f.value.replace('T', ' ')));
    } catch (err) {
      if (!(err instanceof UseCaseError) || err.kind !== 'bad_request') throw err;
      // The use case names a date by its place among those given (dates.<i>); the page, by its field.
      const beside = new Map<string, string>();
      const general: string[] = [];
      for (const p of err.problems) {
        const i = /^dates\.(\d+)$/.exec(p.path)?.[1];
        const name = i === undefined ? undefined : filled[Number(i)]?.name;
        if (name) beside.set(name, p.message); else general.push(p.message);
      }
      return playerPage(reply, ctx, req.params.key, null, {
        error: general.length > 0 ? general.join('; ') : err.problems.length === 0 ? err.message : null,
        fields: sent.map((f, i) => ({ name: f.name, label: `Date ${i + 1}`, value: f.value, error: beside.get(f.name) ?? null })),
      });
    }
    return redirect(reply, `${ctx.base}/battles/${encodeURIComponent(req.params.key)}?done=proposed`);
  });

  app.post<BattleRef>('/c/:ref/battles/:key/accept', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'player');
    await acceptTableDate(db, ctx.campaign.id, req.params.key, playerOf(ctx), field(req.body, 'proposal'));
    return redirect(reply, `${ctx.base}/battles/${encodeURIComponent(req.params.key)}?done=accepted`);
  });

  app.get<BattleRef>('/c/:ref/battles/:key/result', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'player');
    await battleDesk(db, ctx.campaign.id, req.params.key, { role: 'player', power: playerOf(ctx) }); // theirs, or not found
    const state = await campaignState(db, ctx.campaign.id);
    const battle = findBattle(state, req.params.key);
    if (battle.status !== 'pending') throw new PageError(409, 'Already settled', `Battle ${battle.id} already has a result.`);
    return sendPage(reply, 'gm-battles-result', formData(ctx, 'import', state, battle, blankEntry(battlePackage(state, battle.id))));
  });

  app.post<BattleRef>('/c/:ref/battles/:key/result', async (req, reply): Promise<FastifyReply> => {
    const ctx = await pageContext(pages, req, req.params.ref, 'player');
    await battleDesk(db, ctx.campaign.id, req.params.key, { role: 'player', power: playerOf(ctx) });
    const state = await campaignState(db, ctx.campaign.id);
    const battle = findBattle(state, req.params.key);
    const pkg = battlePackage(state, battle.id);
    const entry = entryFrom(pkg, req.body);
    const ships = shipsOf(pkg);
    const shipProblems: string[][] = ships.map(() => []);
    let stored = false;
    try {
      const read = resultFrom(pkg, entry);
      if (!read.ok) {
        // "more than the 12 boxes left" of an enemy ship would tell the enemy's boxes as joined (SPEC §6): said without the figures.
        const seen = withoutEnemyFigures(read.problems.map((p) => ({
          code: /is more than the/.test(p.message) ? BATTLE.tooManyLost : BATTLE.form, message: p.message,
          shipId: p.ship >= 0 ? ships[p.ship]!.id : 'fort', ship: p.ship >= 0 ? ships[p.ship]!.name : 'the fort',
        })), battle, playerOf(ctx));
        throw new UseCaseError('bad_request', BATTLE.form, 'The form has entries that are not numbers of boxes', seen.map((p) => ({ path: p.shipId === 'fort' ? 'fort' : `ships.${p.shipId}`, message: p.message })));
      }
      stored = (await enterPlayerResult(db, ctx.campaign.id, battle.id, playerOf(ctx), ctx.powerName ?? playerOf(ctx), read.result)).stored;
    } catch (err) {
      if (!(err instanceof UseCaseError)) throw err;
      for (const p of err.problems) {
        const n = ships.findIndex((s) => `ships.${s.id}` === p.path);
        if (n >= 0) shipProblems[n]!.push(p.message);
      }
      return sendPage(reply, 'gm-battles-result', formData(ctx, 'import', state, battle, entry, {
        error: 'The result was not kept. Each problem is listed below (and next to its ship).', problems: err.problems.map((p) => p.message), shipProblems,
      }), errorOf(err).status);
    }
    return redirect(reply, `${ctx.base}/battles/${encodeURIComponent(battle.id)}?done=${stored ? 'stored' : 'entered'}`);
  });

  /** The GM adopts one side's entered result. */
  app.post<BattleRef>('/c/:ref/gm/battles/:key/adopt', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm', 'battles');
    await adoptEntry(db, ctx.campaign.id, req.params.key, field(req.body, 'power'));
    return redirect(reply, `${ctx.base}/gm/battles/${encodeURIComponent(req.params.key)}?imported=1`);
  });

};

export default routes;
