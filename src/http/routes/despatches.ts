/**
 * Despatches over the API (docs/despatches.md): a player sends one as their power and reads
 * their own, sent and received; the GM reads every despatch (filtered), writes as the GM,
 * releases, holds or marks taken those waiting for approval, and sets how despatches travel. Thin: every check and every cut of what a reader may see
 * is the use case's; the response schema lists the fields a despatch has, nothing more.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { readDespatches } from '../../campaign/despatches.js';
import { decideDespatch } from '../../campaign/despatchApproval.js';
import { despatchSettings, setDespatchSettings } from '../../campaign/despatchSettings.js';
import { UseCaseError } from '../../campaign/errors.js';
import { MAX_DESPATCH_CHARS, sendDespatch } from '../../campaign/sendDespatch.js';
import { callerOf, gmOf } from '../auth.js';
import { CampaignParams, ErrorReply, Int32, PowerKey, errors } from '../schemas.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const DespatchSchema = Type.Object({
  id: Type.String(),
  turn: Type.Integer({ description: 'the turn open when it was sent' }),
  sender: Nullable(Type.String({ description: 'the sending power\'s key; null when the GM wrote it, or (to a recipient) it is grey' })),
  fromGm: Type.Boolean(),
  senderHidden: Type.Boolean({ description: 'true when the reader is not told the sender (grey)' }),
  recipients: Type.Array(Type.String(), { description: 'power keys' }),
  grey: Type.Boolean(),
  text: Type.String(),
  delivery: Type.Union([Type.Literal('instant'), Type.Literal('with-report'), Type.Literal('by-packet')]),
  sentAt: Type.String({ format: 'date-time' }),
  deliveredAt: Nullable(Type.String({ format: 'date-time', description: 'null while on its way' })),
  interceptedBy: Nullable(Type.String({ description: 'the power that took it at sea (the GM and the taker only)' })),
  interceptedNode: Nullable(Type.String({ description: 'the GM only: the node where its packet was taken (null when the GM marked it taken)' })),
  approval: Nullable(Type.Union([Type.Literal('waiting'), Type.Literal('held'), Type.Literal('released')], {
    description: 'the GM only (campaign setting despatchGmApproval): waiting for the GM, held by the GM, or released; null when none was asked',
  })),
  direction: Type.Union([Type.Literal('sent'), Type.Literal('received'), Type.Literal('intercepted'), Type.Literal('gm')]),
}, { $id: 'Despatch' });

const SendBody = Type.Object({
  to: Type.Union([
    Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 32, description: 'power keys or names' }),
    Type.Literal('all', { description: 'every other played power' }),
  ]),
  text: Type.String({ maxLength: MAX_DESPATCH_CHARS * 2, description: `the despatch, at most ${MAX_DESPATCH_CHARS} characters` }),
  grey: Type.Optional(Type.Boolean({ description: 'hide the sender from the recipients (only when the campaign allows grey despatches; never for the GM)' })),
}, { additionalProperties: false });

const ListQuery = Type.Object({
  turn: Type.Optional(Int32({ minimum: 1 })),
  sender: Type.Optional(PowerKey('a power key, or gm')),
  recipient: Type.Optional(PowerKey()),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'words the text holds (any case)' })),
}, { additionalProperties: false });

const Settings = Type.Object({
  greyDespatches: Type.Boolean(),
  despatchDelivery: Type.Union([Type.Literal('instant'), Type.Literal('with-report'), Type.Literal('by-packet')]),
  despatchGmApproval: Type.Boolean({ description: 'each despatch of a power waits for the GM to release it, hold it or mark it taken' }),
});

const DespatchParams = Type.Object({ id: CampaignParams.properties.id, despatchId: Type.String({ minLength: 1, maxLength: 64 }) });

const ApprovalBody = Type.Object({
  action: Type.Union([Type.Literal('release'), Type.Literal('hold'), Type.Literal('intercept')], {
    description: 'release: it travels by its delivery; hold: it stays with the GM; intercept: it goes to the power `by` as intercepted, never to its recipients',
  }),
  by: Type.Optional(PowerKey('intercept: the power whose ships took it (not its sender, not a recipient)')),
}, { additionalProperties: false });

const tags = ['despatches'];

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get('/campaigns/:id/despatches', {
    schema: {
      tags, summary: 'Despatches: a player\'s own (sent and received, the sender of a grey one left out); the GM\'s every one. Filter by turn, sender, recipient and text',
      params: CampaignParams, querystring: ListQuery, response: { 200: Type.Object({ despatches: Type.Array(Type.Ref('Despatch')) }), ...errors },
    },
  }, async (req) => {
    const caller = await callerOf(db, req, req.params.id);
    const reader = caller.role === 'gm' ? { role: 'gm' as const } : { role: 'player' as const, power: caller.power };
    return { despatches: await readDespatches(db, req.params.id, reader, req.query) };
  });

  app.post('/campaigns/:id/despatches', {
    schema: {
      tags, summary: 'Send a despatch: a player as their power, the GM as the GM (to any power or all)',
      description: 'Refused with 422 (the reason, and nothing stored) for an unknown power, an empty text, a text over 10,000 characters, or GREY where the campaign does not allow it.',
      params: CampaignParams, body: SendBody, response: { 201: Type.Ref('Despatch'), 422: ErrorReply, ...errors },
    },
  }, async (req, reply) => {
    const caller = await callerOf(db, req, req.params.id);
    const from = caller.role === 'gm' ? { gm: true as const } : { power: caller.power };
    const r = await sendDespatch(db, req.params.id, { from, to: req.body.to, grey: req.body.grey, text: req.body.text, source: 'api' });
    if (!r.ok) throw new UseCaseError('unprocessable', r.code, `the despatch was not sent: ${r.message}`, [{ path: r.path, message: r.message }]);
    const reader = caller.role === 'gm' ? { role: 'gm' as const } : { role: 'player' as const, power: caller.power };
    const [view] = await readDespatches(db, req.params.id, reader, { id: r.despatch.id });
    return reply.status(201).send(view);
  });

  app.post('/campaigns/:id/despatches/:despatchId/approval', {
    schema: {
      tags, summary: 'GM: release a despatch waiting for approval, hold it, or mark it taken at sea by a named power. Audited',
      description: 'Refused with 409 when it is not waiting for the GM (released already, or sent without approval), 422 when the taker is its sender, a recipient or no power.',
      params: DespatchParams, body: ApprovalBody, response: { 200: Type.Ref('Despatch'), 422: ErrorReply, ...errors },
    },
  }, async (req) => {
    const gm = await gmOf(db, req, req.params.id);
    return decideDespatch(db, req.params.id, req.params.despatchId, { action: req.body.action, by: req.body.by }, gm.role);
  });

  app.get('/campaigns/:id/despatch-settings', {
    schema: { tags, summary: 'GM: whether grey despatches are allowed, and how despatches travel', params: CampaignParams, response: { 200: Settings, ...errors } },
  }, async (req) => {
    await gmOf(db, req, req.params.id);
    return despatchSettings(db, req.params.id);
  });

  app.put('/campaigns/:id/despatch-settings', {
    schema: {
      tags, summary: 'GM: allow grey despatches; set how despatches travel (instant | with-report | by-packet); ask the GM\'s approval of each. Audited',
      params: CampaignParams, body: Type.Partial(Settings, { additionalProperties: false }), response: { 200: Settings, ...errors },
    },
  }, async (req) => {
    const gm = await gmOf(db, req, req.params.id, 'despatch-settings');
    return setDespatchSettings(db, req.params.id, req.body, gm.role);
  });
};

export default routes;
