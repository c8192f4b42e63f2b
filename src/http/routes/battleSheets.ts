/**
 * Result sheets and results in a ruleset's own terms: the printable sheet per ruleset, the
 * conversion preview (stores nothing), and the conversion confirmed through the existing
 * import. Counts are whole numbers here; their sign and size are the converter's to check,
 * so a bad one is refused naming its ship.
 */
import { BATTLE } from '../../campaign/errors.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { importNativeResult, previewNativeResult, resultSheetFor } from '../../campaign/battleSheets.js';
import { UseCaseError } from '../../campaign/errors.js';
import { FATES, RULESETS, type NativeResult } from '../../export/convert/index.js';
import { actorOf } from '../../campaign/access.js';
import { callerOf, gmOf } from '../auth.js';
import { AnyObject, CampaignParams, errors } from '../schemas.js';

const BattleParams = Type.Object({ id: CampaignParams.properties.id, battle: Type.String({ pattern: '^b\\d+$', description: 'battle id, e.g. b3' }) });
const Count = (description: string) => Type.Integer({ minimum: -100000, maximum: 100000, description });
const CountOrEach = (description: string) => Type.Union([Count('a total'), Type.Array(Count('one a mast or section'), { maxItems: 6 })], { description });

const Measures = {
  hullLost: Type.Optional(Count('WS&IM, BtQ: hull boxes lost')),
  riggingLost: Type.Optional(CountOrEach('WS&IM, BtQ: rigging boxes lost, a total (crossed off from the fore) or one a mast')),
  gunsLost: Type.Optional(Count('BtQ: gun boxes lost a broadside; WS&IM and BtQ fort: guns lost (all arcs)')),
  gunsLostLeft: Type.Optional(Count('WS&IM: left-broadside gun boxes lost')),
  gunsLostRight: Type.Optional(Count('WS&IM: right-broadside gun boxes lost')),
  carronadesLost: Type.Optional(Count('BtQ: carronade boxes lost a broadside')),
  carronadesLostLeft: Type.Optional(Count('WS&IM: left-broadside carronades lost')),
  carronadesLostRight: Type.Optional(Count('WS&IM: right-broadside carronades lost')),
  crewLost: Type.Optional(CountOrEach('WS&IM, BtQ: crew boxes lost, a total (crossed off from section 1) or one a section')),
  hits: Type.Optional(Count('G&G: hits taken (each swapped a white die for a damaged one)')),
  criticals: Type.Optional(Type.Array(Type.String({ maxLength: 20 }), { maxItems: 30, description: 'G&G: criticals taken: hull, holed, rigging, rudder, captain, fire' })),
  hullPointsLost: Type.Optional(Count('Cogs: hull points lost')),
  deckCrewLost: Type.Optional(Type.Object({
    sternCastle: Type.Optional(Count('crewmembers lost')), mainDeck: Type.Optional(Count('crewmembers lost')),
    forecastle: Type.Optional(Count('crewmembers lost')), crowsNest: Type.Optional(Count('crewmembers lost (manned from the main deck)')),
  }, { additionalProperties: false, description: 'Cogs: crewmembers lost by deck' })),
};

const NativeShip = Type.Object({
  shipId: Type.String({ maxLength: 64, description: 'the ship\'s id in the battle package' }),
  fate: Type.Optional(Type.Union(FATES.map((f) => Type.Literal(f)), { description: 'default afloat' })),
  capturedBy: Type.Optional(Type.String({ maxLength: 64, description: 'captor power key (fate captured)' })),
  prizeCrewFrom: Type.Optional(Type.String({ maxLength: 64 })),
  prizeCrew: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  ...Measures,
}, { additionalProperties: false });

const NativeBody = Type.Object({
  ruleset: Type.Union(RULESETS.map((r) => Type.Literal(r)), { description: 'wsim, btq, gng or cogs: whose result sheet this is' }),
  battleCode: Type.String({ minLength: 1, maxLength: 40, description: 'the code printed on every page of the sheet, e.g. B3-7KQF' }),
  winner: Type.Union([Type.Null(), Type.String({ minLength: 1, maxLength: 64 })]),
  ships: Type.Array(NativeShip, { maxItems: 200, description: 'ships not listed came through untouched' }),
  fort: Type.Optional(Type.Object({ surrendered: Type.Boolean(), ...Measures }, { additionalProperties: false })),
  notes: Type.Optional(Type.String({ maxLength: 5000 })),
}, { additionalProperties: false, description: 'A battle\'s result in its ruleset\'s own terms, as read off its result sheet' });

const ConfirmBody = Type.Object({
  ...NativeBody.properties,
  dice: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 6 }), { maxItems: 1000, description: 'd6 for the after-battle repair; seeded when absent' })),
  confirmWinner: Type.Optional(Type.Boolean({ description: 'GM override of a winner the losses contradict (needs overrideReason; audited)' })),
  overrideReason: Type.Optional(Type.String({ maxLength: 500 })),
}, { additionalProperties: false });

const Boxes = Type.Object({ hull: Type.Integer(), rigging: Type.Array(Type.Integer()), guns: Type.Integer(), carronades: Type.Integer(), crew: Type.Array(Type.Integer()) });
const ConversionReply = Type.Object({
  ruleset: Type.String(), rulesetName: Type.String(), battleCode: Type.String(),
  result: AnyObject,
  rows: Type.Array(Type.Object({
    shipId: Type.String(), ship: Type.String(), side: Type.String(), outcome: Type.String({ description: 'the sheet\'s outcome in the ruleset\'s words' }),
    fate: Type.String(), before: Boxes, after: Boxes, notes: Type.Array(Type.String()),
  })),
  checks: Type.Array(Type.Object({ path: Type.String(), message: Type.String() }), { description: 'what the import\'s checks say; empty when confirming would store it' }),
});

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get('/campaigns/:id/battles/:battle/result-sheet', {
    schema: {
      tags: ['battles'], summary: 'The printable result sheet of a ruleset (GM, or a player who fights in the battle)',
      description: 'Mirrors the ruleset\'s log in its own damage measures, with the battle code on every page and lines for both captains to sign.',
      params: BattleParams,
      querystring: Type.Object({
        ruleset: Type.Union(RULESETS.map((r) => Type.Literal(r))), format: Type.Union([Type.Literal('html'), Type.Literal('pdf')], { default: 'html' }),
        paper: Type.Optional(Type.String({ maxLength: 20, description: 'the PDFs\' paper: a4 or letter (US Letter); without it, the campaign\'s (PUT /campaigns/{id}/sheet-paper)' })),
      }),
      produces: ['text/html', 'application/pdf'],
    },
  }, async (req, reply) => {
    const caller = await callerOf(db, req, req.params.id, 'battles');
    const reader = caller.role === 'gm' ? { role: 'gm' as const } : { role: 'player' as const, power: caller.power };
    const out = await resultSheetFor(db, req.params.id, req.params.battle, reader, req.query.ruleset, req.query.format ?? 'html', req.query.paper);
    reply.header('content-type', out.contentType);
    if (out.contentType === 'application/pdf') reply.header('content-disposition', `attachment; filename="${out.filename}"`);
    return reply.send(out.body);
  });

  app.post('/campaigns/:id/battles/:battle/result/convert', {
    schema: {
      tags: ['battles'], summary: 'Convert a result sheet to the campaign\'s boxes and show it (GM): nothing is stored',
      description: 'The sheet\'s battle code is checked; each ship\'s outcome in the ruleset\'s terms (WS&IM boxes with guns left and right, BtQ tallies, G&G hits and criticals, Cogs hull and crew points) becomes boxes lost. A ship or measure that cannot be converted is a 400 naming the ship and the reason. `checks` lists what the import would still refuse (with confirmWinner and overrideReason, a winner the losses contradict is not among them). Takes the same body as .../result/native, so the GM previews exactly what is then stored.',
      params: BattleParams, body: ConfirmBody, response: { 200: ConversionReply, ...errors, 409: errors[400] },
    },
  }, async (req) => {
    await gmOf(db, req, req.params.id, 'battles');
    const { dice: _dice, confirmWinner, overrideReason, ...sheet } = req.body as Static<typeof ConfirmBody>;
    return previewNativeResult(db, req.params.id, req.params.battle, sheet as NativeResult, confirmWinner ? overrideReason : undefined);
  });

  app.post('/campaigns/:id/battles/:battle/result/native', {
    schema: {
      tags: ['battles'], summary: 'Store a result sheet (GM): converted as the preview shows, then imported with every check of POST .../result',
      params: BattleParams, body: ConfirmBody, response: { 200: AnyObject, ...errors, 409: errors[400] },
    },
  }, async (req) => {
    const gm = await gmOf(db, req, req.params.id, 'battles');
    const { dice, confirmWinner, overrideReason, ...sheet } = req.body as Static<typeof ConfirmBody>;
    if (confirmWinner && !overrideReason?.trim()) {
      throw new UseCaseError('bad_request', BATTLE.overrideReason, 'overrideReason: say why the winner stands although the losses contradict it',
        [{ path: 'overrideReason', message: 'required with confirmWinner: the GM\'s reason, kept in the audit log' }]);
    }
    return importNativeResult(db, req.params.id, req.params.battle, sheet as NativeResult, {
      actor: actorOf(gm), ...(dice ? { dice } : {}), ...(confirmWinner ? { confirmWinner: overrideReason!.trim() } : {}),
    });
  });
};

export default routes;
