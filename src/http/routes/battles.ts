/** Battles: list, the package for the miniatures table, result import, the abstract table. */
import { BATTLE } from '../../campaign/errors.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { UseCaseError } from '../../campaign/errors.js';
import { correctBattleResult, exportBattle, importBattleResult, listBattles, resolveBattleWithTable } from '../../campaign/battles.js';
import { EXPORT_FORMATS, type ExportFormat } from '../../export/index.js';
import type { BattleResult } from '../../rules/state.js';
import { actorOf } from '../../campaign/access.js';
import { callerOf, gmOf } from '../auth.js';
import { AnyObject, CampaignParams, errors } from '../schemas.js';

export const BattleParams = Type.Object({ id: CampaignParams.properties.id, battle: Type.String({ pattern: '^b\\d+$', description: 'battle id, e.g. b3' }) });
const Boxes = Type.Integer({ minimum: 0, maximum: 1000 });

const ShipOutcomeSchema = Type.Object({
  shipId: Type.String({ description: 'the ship\'s id in the battle package' }),
  hullLost: Boxes, riggingLost: Type.Array(Boxes, { maxItems: 6 }), gunsLost: Boxes, carronadesLost: Boxes, crewLost: Type.Array(Boxes, { maxItems: 6 }),
  final: Type.Union(['afloat', 'struck', 'captured', 'sunk', 'exploded', 'escaped'].map((f) => Type.Literal(f))),
  capturedBy: Type.Optional(Type.String({ description: 'captor power key (final = captured)' })),
  prizeCrewFrom: Type.Optional(Type.String({ description: 'id of the captor\'s ship that puts the prize crew aboard' })),
  prizeCrew: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
}, { additionalProperties: false });

export const ResultBody = Type.Object({
  // Null first: with type coercion on, a null would otherwise be turned into "".
  winner: Type.Union([Type.Null(), Type.String({ minLength: 1 })]),
  ships: Type.Array(ShipOutcomeSchema, { maxItems: 200 }),
  fort: Type.Optional(Type.Object({ hullLost: Boxes, crewLost: Type.Array(Boxes, { maxItems: 6 }), gunsLost: Boxes, surrendered: Type.Boolean() }, { additionalProperties: false })),
  notes: Type.Optional(Type.String({ maxLength: 5000 })),
  dice: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 6 }), { maxItems: 1000, description: 'd6 rolled by the GM for the after-battle repair; seeded when absent' })),
  confirmWinner: Type.Optional(Type.Boolean({ description: 'GM override: keep the winner even though the losses contradict it (needs overrideReason; audited)' })),
  overrideReason: Type.Optional(Type.String({ maxLength: 500, description: 'why the GM confirms a winner the losses contradict' })),
}, { additionalProperties: false });

type ResultInput = Static<typeof ResultBody>;

/** The body as a result and its options; a confirmed winner needs the GM's reason. */
function resultOf(body: ResultInput, actor: string) {
  const { dice, confirmWinner, overrideReason, ...result } = body;
  if (confirmWinner && !overrideReason?.trim()) {
    throw new UseCaseError('bad_request', BATTLE.overrideReason, 'overrideReason: say why the winner stands although the losses contradict it',
      [{ path: 'overrideReason', message: 'required with confirmWinner: the GM\'s reason, kept in the audit log' }]);
  }
  return {
    result: { ...result, source: 'imported' } as BattleResult,
    opts: { dice, actor, ...(confirmWinner ? { confirmWinner: overrideReason!.trim() } : {}) },
  };
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;
  const readerOf = async (req: Parameters<typeof callerOf>[1], id: string) => {
    const caller = await callerOf(db, req, id, 'battles');
    return caller.role === 'gm' ? { role: 'gm' as const } : { role: 'player' as const, power: caller.power };
  };

  app.get('/campaigns/:id/battles', {
    schema: { tags: ['battles'], summary: 'Battles: all for the GM, those they fought for a player', params: CampaignParams, response: { 200: Type.Object({ battles: Type.Array(AnyObject) }), ...errors } },
  }, async (req) => ({ battles: await listBattles(db, req.params.id, await readerOf(req, req.params.id)) }));

  app.get('/campaigns/:id/battles/:battle/package', {
    schema: {
      tags: ['battles'], summary: 'The battle package for the miniatures table (GM, or a player who fights in it)',
      description: 'Formats: setup-html, setup-pdf (the setup sheet: table diagram, weather gauge, deployment and starting range, turns until nightfall, drafts and who grounds; `shoals` gives the depth the defender declared, 11-16 feet, harbor attacks only), wsim-html, wsim-pdf (Wooden Ships & Iron Men ship logs), btq-html (Beat to Quarters), gng-html (Galleys & Galleons), gng-cards-html, gng-cards-pdf (G&G ship cards, one per vessel), cogs-html (Sailpower: Cogs of Valor), cogs-cards-html, cogs-cards-pdf (Cogs cog cards, one per vessel), json (schema BattlePackage).',
      params: BattleParams,
      querystring: Type.Object({
        format: Type.Union(EXPORT_FORMATS.map((f) => Type.Literal(f)), { default: 'json' }),
        weatherChange: Type.Optional(Type.Boolean({ description: 'list the G&G house-rule weather change' })),
        shoals: Type.Optional(Type.Number({ description: 'setup sheet of a harbor attack: the shoals\' depth the defender declared, in feet ("shoals" of 11-16 feet deep)' })),
        paper: Type.Optional(Type.String({ maxLength: 20, description: 'the PDFs\' paper: a4 or letter (US Letter); without it, the campaign\'s (PUT /campaigns/{id}/sheet-paper)' })),
      }),
      produces: ['application/json', 'text/html', 'application/pdf'],
    },
  }, async (req, reply) => {
    const reader = await readerOf(req, req.params.id);
    const out = await exportBattle(db, req.params.id, req.params.battle, reader, req.query.format as ExportFormat, { weatherChange: req.query.weatherChange ?? false, paper: req.query.paper, ...(req.query.shoals !== undefined ? { shoals: req.query.shoals } : {}) });
    reply.header('content-type', out.contentType);
    if (out.contentType === 'application/pdf') reply.header('content-disposition', `attachment; filename="${out.filename}"`);
    return reply.send(out.body);
  });

  app.post('/campaigns/:id/battles/:battle/result', {
    schema: {
      tags: ['battles'], summary: 'Import what happened at the table (GM): boxes lost and each ship\'s fate',
      description: 'Checked whole against the battle as it was joined (its record) and who holds each ship now: no more boxes lost than a ship had, a captor that fought, a prize crew from a captor ship, no ship taken or sunk elsewhere since, and a possible result (no hull left is sunk; all crew lost is not afloat under her own flag; a fort surrenders only when its hull or crew is gone; the winner fits the losses, unless confirmWinner with overrideReason). Every problem is listed with its ship; nothing is stored. Then applied in one transaction: after-battle repair 1d6-2, VP for sinkings and captures, convoy fate.',
      params: BattleParams, body: ResultBody, response: { 200: AnyObject, ...errors, 409: errors[400] },
    },
  }, async (req) => {
    const gm = await gmOf(db, req, req.params.id, 'battles');
    const { result, opts } = resultOf(req.body, actorOf(gm));
    return importBattleResult(db, req.params.id, req.params.battle, result, opts);
  });

  app.put('/campaigns/:id/battles/:battle/result', {
    schema: {
      tags: ['battles'], summary: 'Correct a wrong result (GM): the earlier one is undone and this one applied; the correction is logged',
      description: 'Only while nothing happened since the result was entered (no turn resolved, no other battle result); otherwise roll the turn back.',
      params: BattleParams, body: ResultBody, response: { 200: AnyObject, ...errors, 409: errors[400] },
    },
  }, async (req) => {
    const gm = await gmOf(db, req, req.params.id, 'battles');
    const { result, opts } = resultOf(req.body, actorOf(gm));
    return correctBattleResult(db, req.params.id, req.params.battle, result, opts);
  });

  app.post('/campaigns/:id/battles/:battle/abstract', {
    schema: {
      tags: ['battles'], summary: 'Resolve a pending battle with the abstract table (GM): one click, dice logged',
      params: BattleParams, body: Type.Optional(Type.Object({ dice: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 6 }), { maxItems: 1000 })) }, { additionalProperties: false })),
      response: { 200: AnyObject, ...errors, 409: errors[400] },
    },
  }, async (req) => {
    const gm = await gmOf(db, req, req.params.id, 'battles');
    return resolveBattleWithTable(db, req.params.id, req.params.battle, { dice: req.body?.dice, actor: actorOf(gm) });
  });
};

export default routes;
