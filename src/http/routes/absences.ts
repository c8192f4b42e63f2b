/**
 * Absences and standing orders (docs/absences.md), and the GM's pause (docs/gm-guide.md).
 * A player reads and changes only their own power's; the GM names the power. Thin: each
 * route parses, calls its use case in src/campaign, and answers.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf, powerFor } from '../../campaign/access.js';
import { absencesForGm, readAbsences, readStandingOrders } from '../../campaign/absenceRead.js';
import { MAX_NOTE_LENGTH } from '../../campaign/absenceDays.js';
import { cancelAbsence } from '../../campaign/cancelAbsence.js';
import { fileAbsence } from '../../campaign/fileAbsence.js';
import { MAX_PAUSE_REASON, pauseCampaign } from '../../campaign/pauseCampaign.js';
import { resumeCampaign } from '../../campaign/resumeCampaign.js';
import { linesOf, refuseErrors, setStandingOrders } from '../../campaign/setStandingOrders.js';
import { callerOf, gmOf } from '../auth.js';
import { CampaignParams, ErrorReply, PowerKey, errors } from '../schemas.js';

const Day = (description: string) => Type.String({ maxLength: 40, description: `${description}: YYYY-MM-DD, a day in the player's time zone` });

const Absence = Type.Object({
  id: Type.String(), power: Type.String(), powerName: Type.String(),
  from: Type.String({ description: 'first day, YYYY-MM-DD' }), to: Type.String({ description: 'last day, YYYY-MM-DD (included)' }),
  note: Type.Union([Type.String(), Type.Null()], { description: 'the player\'s note to the GM' }),
  filedBy: Type.String(), filedAt: Type.String({ format: 'date-time' }),
  cancelledAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  now: Type.Boolean({ description: 'today falls within it' }), over: Type.Boolean({ description: 'its last day has passed' }),
});

const Standing = Type.Object({
  power: Type.String(),
  text: Type.String({ description: 'the standing orders as written' }),
  fleets: Type.Array(Type.Object({
    fleet: Type.String(), name: Type.String(), line: Type.Integer(),
    kind: Type.Union([Type.Literal('stay'), Type.Literal('mission'), Type.Literal('return'), Type.Literal('route')], { description: 'stay in port, keep its mission, return to the nearest friendly port, or a route' }),
    order: Type.Union([Type.String(), Type.Null()], { description: 'kind route: the order line' }),
  })),
  setBy: Type.String(), updatedAt: Type.String({ format: 'date-time' }),
});

const PowerQuery = Type.Object({ power: Type.Optional(PowerKey('the power (the GM must name it; a player may name only their own)')) });

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;
  const tags = ['absences'];

  app.get('/campaigns/:id/absences', {
    schema: {
      tags, summary: 'Absences to come or in force: the player\'s own power\'s, or (GM) every power\'s with whether it has standing orders',
      params: CampaignParams, querystring: Type.Object({ all: Type.Optional(Type.Boolean({ description: 'also cancelled and past ones' })) }),
      response: { 200: Type.Object({ powers: Type.Array(Type.Object({ power: Type.String(), powerName: Type.String(), absences: Type.Array(Absence), standingFleets: Type.Union([Type.Integer(), Type.Null()]) })) }), ...errors },
    },
  }, async (req) => {
    const caller = await callerOf(db, req, req.params.id);
    const all = await absencesForGm(db, req.params.id);
    if (caller.role === 'gm' && !req.query.all) return { powers: all };
    const mine = caller.role === 'gm' ? all : all.filter((p) => p.power === caller.power);
    const withAll = await Promise.all(mine.map(async (p) => ({ ...p, absences: await readAbsences(db, req.params.id, p.power, { all: req.query.all ?? false }) })));
    return { powers: withAll };
  });

  app.post('/campaigns/:id/absences', {
    schema: {
      tags, summary: 'File an absence (a player for their power; the GM names the power)',
      description: 'While a turn\'s deadline falls within it and the player sends no orders, the power\'s fleets follow its standing orders; without them, its fleets hold. Audited.',
      params: CampaignParams,
      body: Type.Object({
        from: Day('first day'), to: Type.Optional(Day('last day, included (default: the first day)')),
        note: Type.Optional(Type.String({ maxLength: MAX_NOTE_LENGTH, description: 'a note to the GM' })),
        power: Type.Optional(PowerKey('GM only: the power the absence is for')),
      }, { additionalProperties: false }),
      response: { 201: Absence, 409: ErrorReply, ...errors },
    },
  }, async (req, reply) => {
    const caller = await callerOf(db, req, req.params.id);
    const power = powerFor(caller, req.body.power);
    const made = await fileAbsence(db, req.params.id, power, req.body, actorOf(caller));
    return reply.status(201).send(made);
  });

  app.delete('/campaigns/:id/absences/:absence', {
    schema: {
      tags, summary: 'Cancel an absence (a player their own; the GM any)',
      params: Type.Object({ id: CampaignParams.properties.id, absence: Type.String({ minLength: 1, maxLength: 64 }) }),
      querystring: PowerQuery, response: { 204: Type.Null(), ...errors },
    },
  }, async (req, reply) => {
    const caller = await callerOf(db, req, req.params.id);
    const power = powerFor(caller, req.query.power);
    await cancelAbsence(db, req.params.id, power, req.params.absence, actorOf(caller));
    return reply.status(204).send(null);
  });

  app.get('/campaigns/:id/standing-orders', {
    schema: { tags, summary: 'A power\'s standing orders (null: none set)', params: CampaignParams, querystring: PowerQuery, response: { 200: Type.Object({ standing: Type.Union([Standing, Type.Null()]) }), ...errors } },
  }, async (req) => {
    const caller = await callerOf(db, req, req.params.id);
    return { standing: await readStandingOrders(db, req.params.id, powerFor(caller, req.query.power)) };
  });

  app.put('/campaigns/:id/standing-orders', {
    schema: {
      tags, summary: 'Set a power\'s standing orders, one line a fleet (an empty text clears them)',
      description: 'FLEET <fleet>: STAY IN PORT | KEEP MISSION | RETURN TO PORT | <a fleet order>. Checked like any orders against the campaign as it stands: with any error nothing is stored, and the answer is 422 orders/standing_invalid naming each line.',
      params: CampaignParams,
      body: Type.Object({ text: Type.String({ maxLength: 100_000 }), power: Type.Optional(PowerKey('GM only: the power')) }, { additionalProperties: false }),
      response: { 200: Type.Object({ standing: Type.Union([Standing, Type.Null()]) }), 413: ErrorReply, 422: ErrorReply, ...errors },
    },
  }, async (req) => {
    const caller = await callerOf(db, req, req.params.id);
    const power = powerFor(caller, req.body.power);
    const result = await setStandingOrders(db, req.params.id, power, linesOf(req.body.text), actorOf(caller));
    return { standing: refuseErrors(result) };
  });

  app.post('/campaigns/:id/pause', {
    schema: {
      tags: ['gm'], summary: 'Pause the campaign, with a reason mailed to every player (GM; audited)',
      description: 'While paused the scheduler resolves no turn, settles no battle and sends no reminder. Orders are still taken.',
      params: CampaignParams, body: Type.Object({ reason: Type.String({ minLength: 1, maxLength: MAX_PAUSE_REASON }) }, { additionalProperties: false }),
      response: { 200: Type.Object({ pausedAt: Type.String({ format: 'date-time' }), reason: Type.String(), told: Type.Integer() }), 409: ErrorReply, ...errors },
    },
  }, async (req) => {
    await gmOf(db, req, req.params.id);
    return pauseCampaign(db, req.params.id, req.body.reason, 'gm');
  });

  app.post('/campaigns/:id/resume', {
    schema: {
      tags: ['gm'], summary: 'Resume a paused campaign: the deadline moves on by the time paused; every player is mailed (GM; audited)',
      params: CampaignParams,
      response: {
        200: Type.Object({
          pausedFor: Type.Integer({ description: 'milliseconds paused' }), turn: Type.Integer(),
          deadlineBefore: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]), deadline: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]), told: Type.Integer(),
        }), 409: ErrorReply, ...errors,
      },
    },
  }, async (req) => {
    await gmOf(db, req, req.params.id);
    return resumeCampaign(db, req.params.id, 'gm');
  });
};

export default routes;
