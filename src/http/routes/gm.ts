/**
 * The GM's turn management: deadlines, the open turn's status, roll back and re-run, the
 * turn history of every run, GM overrides and the audit log. Every route here but
 * GET /status is GM-only; GET /status is the reduced status a player may read.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { clearDeadline, MAX_GRACE_MINUTES, setDeadline, setEarlyResolve } from '../../campaign/deadline.js';
import { changePortOwner, moveFleet, reinforce } from '../../campaign/overrides.js';
import { rollbackLastTurn, turnHistory } from '../../campaign/rollback.js';
import { auditNames } from '../../campaign/auditText.js';
import { auditLog, publicTurnStatus, turnStatus } from '../../campaign/turnStatus.js';
import { auditSentence } from '../../words/audit.js';
import { CREW_QUALITIES, STANCES } from '../../rules/terms.js';
import { actorOf } from '../../campaign/access.js';
import { callerOf, gmOf } from '../auth.js';
import { AnyObject, CampaignParams, Int32, TurnParams, errors } from '../schemas.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const DateTime = Type.String({ format: 'date-time' });
const OrdersStatus = Type.Union([Type.Literal('none'), Type.Literal('has_errors'), Type.Literal('ready')]);
const Reason = Type.Optional(Type.String({ maxLength: 1000, description: 'why (kept in the audit log)' }));
const conflict = { 409: errors[400] };

const DeadlineBody = Type.Object({
  deadline: Type.String({ format: 'date-time', description: 'ISO 8601, e.g. 2026-12-31T18:00:00Z; must be in the future' }),
  graceMinutes: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_GRACE_MINUTES, description: 'minutes after the deadline late orders are still awaited; carried over from the previous turn when absent' })),
  autoResolve: Type.Optional(Type.Boolean({ description: 'resolve the turn automatically at deadline + grace; carried over from the previous turn when absent' })),
  reason: Reason,
}, { additionalProperties: false });

const DeadlineReply = Type.Object({
  turn: Type.Integer(), deadline: Nullable(DateTime), graceMinutes: Type.Integer(), closesAt: Nullable(DateTime), autoResolve: Type.Boolean(),
});

const GmStatus = Type.Object({
  turn: Type.Integer(), run: Type.Integer(), rerun: Type.Boolean(),
  deadline: Nullable(DateTime), graceMinutes: Type.Integer(), closesAt: Nullable(DateTime),
  autoResolve: Type.Boolean(), earlyResolve: Type.Boolean(),
  seedHash: Nullable(Type.String({ description: 'SHA-256 (hex) of the turn\'s dice seed; the seed is revealed in the turn log once resolved' })),
  everyoneReady: Type.Boolean(), pendingBattles: Type.Array(Type.String()), winner: Nullable(Type.String()),
  powers: Type.Array(Type.Object({
    power: Type.String(), name: Type.String(),
    player: Nullable(Type.Object({ name: Type.String(), email: Type.String() })),
    status: OrdersStatus, receivedAt: Nullable(DateTime), late: Type.Boolean(),
    source: Nullable(Type.String()), missedTurns: Type.Integer(),
    sentBy: Nullable(Type.String({ description: 'who sent the current set: player:<power>, standin:<power>:<email>, gm, assistant:<email>, mail:<address>' })),
  })),
});

const PublicStatus = Type.Object({
  turn: Type.Integer(), rerun: Type.Boolean(),
  deadline: Nullable(DateTime), graceMinutes: Type.Integer(), closesAt: Nullable(DateTime),
  autoResolve: Type.Boolean(), earlyResolve: Type.Boolean(), everyoneReady: Type.Boolean(),
  you: Nullable(Type.Object({ power: Type.String(), status: OrdersStatus, receivedAt: Nullable(DateTime), late: Type.Boolean(), missedTurns: Type.Integer() })),
  powers: Type.Array(Type.Object({ power: Type.String(), name: Type.String(), player: Nullable(Type.String()), ready: Type.Boolean() })),
});

const RollbackBody = Type.Object({
  turn: Type.Optional(Int32({ minimum: 1, description: 'the turn you mean to roll back; refused unless it is the last resolved turn' })),
  discardOverrides: Type.Optional(Type.Boolean({ description: 'go ahead although GM overrides were made since the turn was resolved (they are undone)' })),
  reason: Reason,
}, { additionalProperties: false });

const Dice = Nullable(Type.Object({
  source: Type.Union([Type.Literal('published'), Type.Literal('gm'), Type.Literal('script')], {
    description: 'published: the seed whose hash was shown before the turn (sha256(seed) = seedHash); gm: a seed given by the GM; script: the GM\'s real dice',
  }),
  seed: Type.Optional(Type.String()),
  script: Type.Optional(Type.Array(Type.Integer())),
  seedHash: Nullable(Type.String({ description: 'the hash published before that run' })),
}));

const RollbackReply = Type.Object({
  turn: Type.Integer(), run: Type.Integer(), previousRun: Type.Integer(), discardedTurn: Type.Integer(),
  seedHash: Type.String({ description: 'SHA-256 of the re-run\'s fresh seed, published now, before the re-run' }),
  previousDice: Dice,
  discardedOrders: Type.Array(Type.Object({ power: Type.String(), receivedAt: DateTime, ready: Type.Boolean() })),
  battlesRemoved: Type.Array(Type.String()),
  overridesUndone: Type.Array(Type.Object({ at: DateTime, action: Type.String() })),
  despatchesOnTheirWayAgain: Type.Integer({ description: 'despatches the turn\'s report delivered (or whose packet was taken), on their way again for the re-run; mails already sent stay sent' }),
});

const History = Type.Object({
  turn: Type.Integer(), status: Type.String(), currentRun: Type.Integer(),
  runs: Type.Array(Type.Object({ run: Type.Integer(), current: Type.Boolean(), events: Type.Array(AnyObject), dice: Dice })),
  audit: Type.Array(Type.Object({ at: DateTime, actor: Type.String(), action: Type.String(), details: Type.Unknown() })),
});

const Ref = (description: string) => Type.String({ minLength: 1, maxLength: 120, description });

const MoveBody = Type.Object({
  fleet: Ref('fleet id (f3) or name'),
  to: Ref('node id or name'),
  inHarbor: Type.Optional(Type.Boolean({ description: 'in harbor at the end (only at a port); default: stays in harbor if it was and `to` is a port' })),
  reason: Reason,
}, { additionalProperties: false });

const Where = Type.Object({ at: Type.String(), inHarbor: Type.Boolean() });
const MoveReply = Type.Object({ turn: Type.Integer(), fleetId: Type.String(), name: Type.String(), power: Type.String(), from: Where, to: Where });

const PortBody = Type.Object({ port: Ref('port node id or name'), owner: Ref('power key or name'), reason: Reason }, { additionalProperties: false });
const PortReply = Type.Object({ turn: Type.Integer(), port: Type.String(), name: Type.String(), from: Type.String(), to: Type.String(), fleetsInHarbor: Type.Array(Type.String()) });

const ReinforceBody = Type.Object({
  power: Ref('power key or name'),
  at: Ref('node id or name where the fleet appears'),
  inHarbor: Type.Optional(Type.Boolean({ description: 'default: in harbor when `at` is a port the power owns' })),
  fleetName: Type.String({ minLength: 1, maxLength: 120 }),
  stance: Type.Optional(Type.Union(STANCES.map((s) => Type.Literal(s)))),
  ships: Type.Array(Type.Object({
    name: Type.String({ minLength: 1, maxLength: 120 }),
    class: Ref('ship class key or name'),
    crewQuality: Type.Optional(Type.Union(CREW_QUALITIES.map((q) => Type.Literal(q)))),
    supplies: Type.Optional(Type.Integer({ minimum: 0, maximum: 12, description: 'months; full when absent' })),
  }, { additionalProperties: false }), { minItems: 1, maxItems: 50 }),
  reason: Reason,
}, { additionalProperties: false });
const ReinforceReply = Type.Object({
  turn: Type.Integer(), fleetId: Type.String(), name: Type.String(), power: Type.String(), at: Type.String(), inHarbor: Type.Boolean(),
  ships: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), classKey: Type.String() })),
});

const AuditReply = Type.Object({ entries: Type.Array(Type.Object({ at: DateTime, actor: Type.String(), action: Type.String(), details: Type.Unknown(), text: Type.String({ description: 'the entry as a sentence, e.g. GM moved Jamaica Squadron (Great Britain) from … to Kingston (in harbor): reason “…”.' }) })) });

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;
  const tags = ['gm'];

  app.get('/campaigns/:id/turns/current', {
    schema: {
      tags, summary: 'The open turn (GM): deadline, seed hash, and per power none / has errors / ready and when',
      params: CampaignParams, response: { 200: GmStatus, ...errors },
    },
  }, async (req) => {
    await gmOf(db, req, req.params.id);
    return turnStatus(db, req.params.id);
  });

  app.get('/campaigns/:id/status', {
    schema: {
      tags, summary: 'The open turn\'s deadline and who is ready (players and GM); never anyone\'s orders or email',
      params: CampaignParams, response: { 200: PublicStatus, ...errors },
    },
  }, async (req) => {
    const caller = await callerOf(db, req, req.params.id);
    return publicTurnStatus(db, req.params.id, caller.role === 'player' ? caller.power : null);
  });

  app.put('/campaigns/:id/turns/current/deadline', {
    schema: {
      tags, summary: 'Set or extend the open turn\'s deadline, grace period and auto-resolve (GM; audited old → new)',
      params: CampaignParams, body: DeadlineBody, response: { 200: DeadlineReply, ...errors, ...conflict },
    },
  }, async (req) => {
    const gm = await gmOf(db, req, req.params.id);
    const { deadline, ...rest } = req.body;
    return setDeadline(db, req.params.id, { ...rest, deadline: new Date(deadline) }, actorOf(gm));
  });

  app.delete('/campaigns/:id/turns/current/deadline', {
    schema: {
      tags, summary: 'Remove the open turn\'s deadline and auto-resolve (GM; audited)',
      params: CampaignParams, response: { 200: DeadlineReply, ...errors, ...conflict },
    },
  }, async (req) => {
    const gm = await gmOf(db, req, req.params.id);
    return clearDeadline(db, req.params.id, actorOf(gm));
  });

  app.put('/campaigns/:id/turn-policy', {
    schema: {
      tags, summary: 'Whether an auto-resolving turn resolves early once every power is ready (GM; audited)',
      params: CampaignParams,
      body: Type.Object({ earlyResolve: Type.Boolean() }, { additionalProperties: false }),
      response: { 200: Type.Object({ earlyResolve: Type.Boolean() }), ...errors },
    },
  }, async (req) => {
    const gm = await gmOf(db, req, req.params.id, 'early-resolve');
    return setEarlyResolve(db, req.params.id, req.body.earlyResolve, actorOf(gm));
  });

  app.post('/campaigns/:id/turns/last/rollback', {
    schema: {
      tags, summary: 'Roll back the last resolved turn so it can be re-run with corrected orders or dice (GM; audited)',
      description: 'Restores the position as the turn opened, in one transaction; the earlier result stays in the turn history under its run number. '
        + 'Refused when a battle result has been entered since the turn was resolved, or (without discardOverrides) when GM overrides were made since.',
      params: CampaignParams, body: RollbackBody, response: { 200: RollbackReply, ...errors, ...conflict },
    },
  }, async (req) => {
    const gm = await gmOf(db, req, req.params.id);
    return rollbackLastTurn(db, req.params.id, actorOf(gm), req.body);
  });

  app.get('/campaigns/:id/turns/:number/history', {
    schema: {
      tags, summary: 'Every resolution of a turn, the current run and those rolled back, with their event logs (GM)',
      params: TurnParams,
      response: { 200: History, ...errors },
    },
  }, async (req) => {
    await gmOf(db, req, req.params.id);
    return turnHistory(db, req.params.id, req.params.number);
  });

  app.post('/campaigns/:id/overrides/move-fleet', {
    schema: { tags, summary: 'Put a fleet at any node, in or out of harbor (GM override; audited)', params: CampaignParams, body: MoveBody, response: { 200: MoveReply, ...errors } },
  }, async (req) => {
    const gm = await gmOf(db, req, req.params.id);
    return moveFleet(db, req.params.id, req.body, actorOf(gm));
  });

  app.post('/campaigns/:id/overrides/port-owner', {
    schema: { tags, summary: 'Hand a port to another power (GM override; audited)', params: CampaignParams, body: PortBody, response: { 200: PortReply, ...errors } },
  }, async (req) => {
    const gm = await gmOf(db, req, req.params.id);
    return changePortOwner(db, req.params.id, req.body, actorOf(gm));
  });

  app.post('/campaigns/:id/overrides/reinforcements', {
    schema: {
      tags, summary: 'A new fleet of new ships for a power at a node or port (GM override; audited)',
      params: CampaignParams, body: ReinforceBody, response: { 200: ReinforceReply, ...errors },
    },
  }, async (req) => {
    const gm = await gmOf(db, req, req.params.id);
    return reinforce(db, req.params.id, req.body, actorOf(gm));
  });

  app.get('/campaigns/:id/audit', {
    schema: {
      tags, summary: 'The audit log, newest first (GM)',
      params: CampaignParams,
      querystring: Type.Object({
        action: Type.Optional(Type.String({ maxLength: 64, description: 'only actions starting with this, e.g. override.' })),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
      }),
      response: { 200: AuditReply, ...errors },
    },
  }, async (req) => {
    await gmOf(db, req, req.params.id);
    const [entries, names] = await Promise.all([auditLog(db, req.params.id, req.query), auditNames(db, req.params.id)]);
    return { entries: entries.map((e) => ({ ...e, text: auditSentence(e, names) })) };
  });
};

export default routes;
