/**
 * The battle desk over the API (docs/battle-desk.md): a battle's desk (deadline, table
 * dates, who entered a result), the GM's per-battle deadline, adopting an entry and the
 * desk settings; a player's proposed dates, accepted date and entered result. Thin: every
 * check is the use case's.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { battleDesk } from '../../campaign/battleDesk.js';
import { acceptTableDate, proposeTableDates, setBattleDeadline, setDeskSettings } from '../../campaign/battleDeskWrite.js';
import { adoptEntry, enterPlayerResult } from '../../campaign/battleEntries.js';
import { UseCaseError } from '../../campaign/errors.js';
import { setSheetPaper } from '../../campaign/sheetPaper.js';
import type { BattleResult } from '../../rules/state.js';
import { callerOf, gmOf } from '../auth.js';
import { AnyObject, CampaignParams, errors } from '../schemas.js';
import { BattleParams, ResultBody } from './battles.js';
import { AUTH } from '../errors.js';

const playerOnly = () => new UseCaseError('forbidden', AUTH.playerOnly, 'only a player whose power fought the battle may do this');

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get('/campaigns/:id/battles/:battle/desk', {
    schema: { tags: ['battles'], summary: 'A battle\'s desk: result deadline, fallback, table dates, results entered (a player: their own battle, their own entry)', params: BattleParams, response: { 200: AnyObject, ...errors } },
  }, async (req) => {
    const caller = await callerOf(db, req, req.params.id, 'battles');
    return battleDesk(db, req.params.id, req.params.battle, caller.role === 'gm' ? { role: 'gm' } : { role: 'player', power: caller.power });
  });

  app.put('/campaigns/:id/battles/:battle/deadline', {
    schema: { tags: ['battles'], summary: 'GM: the battle\'s own result deadline (null: the campaign\'s)', params: BattleParams, body: Type.Object({ deadline: Type.Union([Type.Null(), Type.String({ format: 'date-time' })]) }, { additionalProperties: false }), response: { 200: AnyObject, ...errors } },
  }, async (req) => {
    await gmOf(db, req, req.params.id, 'battles');
    return setBattleDeadline(db, req.params.id, req.params.battle, req.body.deadline === null ? null : new Date(req.body.deadline));
  });

  app.put('/campaigns/:id/battle-desk', {
    schema: { tags: ['battles'], summary: 'GM: days to a battle\'s result deadline, and the fallback at it (abstract | gm)', params: CampaignParams, body: Type.Object({ resultDeadlineDays: Type.Optional(Type.Integer()), battleFallback: Type.Optional(Type.String()) }, { additionalProperties: false }), response: { 200: AnyObject, ...errors } },
  }, async (req) => {
    await gmOf(db, req, req.params.id, 'battle-settings');
    return setDeskSettings(db, req.params.id, req.body);
  });

  app.put('/campaigns/:id/sheet-paper', {
    schema: { tags: ['battles'], summary: 'GM: the paper the PDF sheets print on (a4 | letter); a download link may still ask for the other (?paper=)', params: CampaignParams, body: Type.Object({ paper: Type.String({ maxLength: 20 }) }, { additionalProperties: false }), response: { 200: AnyObject, ...errors } },
  }, async (req) => {
    await gmOf(db, req, req.params.id, 'battle-settings');
    return setSheetPaper(db, req.params.id, req.body.paper);
  });

  app.post('/campaigns/:id/battles/:battle/dates', {
    schema: { tags: ['battles'], summary: 'Player: propose table dates, "YYYY-MM-DD HH:MM" in the player\'s time zone', params: BattleParams, body: Type.Object({ dates: Type.Array(Type.String({ maxLength: 40 }), { minItems: 1, maxItems: 8 }) }, { additionalProperties: false }), response: { 200: AnyObject, ...errors } },
  }, async (req) => {
    const caller = await callerOf(db, req, req.params.id, 'battles');
    if (caller.role !== 'player') throw playerOnly();
    return proposeTableDates(db, req.params.id, req.params.battle, caller.power, req.body.dates);
  });

  app.post('/campaigns/:id/battles/:battle/dates/:proposal/accept', {
    schema: { tags: ['battles'], summary: 'Player: accept a date the other side proposed', params: Type.Object({ ...BattleParams.properties, proposal: Type.String({ maxLength: 40 }) }), response: { 200: AnyObject, ...errors } },
  }, async (req) => {
    const caller = await callerOf(db, req, req.params.id, 'battles');
    if (caller.role !== 'player') throw playerOnly();
    return acceptTableDate(db, req.params.id, req.params.battle, caller.power, req.params.proposal);
  });

  app.post('/campaigns/:id/battles/:battle/entries', {
    schema: { tags: ['battles'], summary: 'Player: enter the result from the table (stored when both sides agree)', params: BattleParams, body: ResultBody, response: { 200: AnyObject, ...errors } },
  }, async (req) => {
    const caller = await callerOf(db, req, req.params.id, 'battles');
    if (caller.role !== 'player') throw playerOnly();
    const { dice: _d, confirmWinner: _c, overrideReason: _o, ...result } = req.body;
    return enterPlayerResult(db, req.params.id, req.params.battle, caller.power, caller.power, { ...result, source: 'imported' } as BattleResult);
  });

  app.post('/campaigns/:id/battles/:battle/entries/:power/adopt', {
    schema: { tags: ['battles'], summary: 'GM: store one side\'s entered result', params: Type.Object({ ...BattleParams.properties, power: Type.String({ maxLength: 40 }) }), response: { 200: AnyObject, ...errors } },
  }, async (req) => {
    await gmOf(db, req, req.params.id, 'battles');
    return adoptEntry(db, req.params.id, req.params.battle, req.params.power);
  });
};

export default routes;
