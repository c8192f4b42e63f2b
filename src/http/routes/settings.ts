/**
 * The GM's running-campaign settings: the rule settings (changed from the next turn,
 * audited), the deadline schedule, and rotating the GM token. GM only.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { MAX_GRACE_MINUTES } from '../../campaign/deadline.js';
import { rotateGmToken } from '../../campaign/gmToken.js';
import { MAX_DAYS_AFTER, readSchedule, describeSchedule, setSchedule } from '../../campaign/schedule.js';
import { CHANGEABLE, changeSettings, readSettings } from '../../campaign/settings.js';
import { actorOf } from '../../campaign/access.js';
import { gmOf } from '../auth.js';
import { CampaignParams, errors } from '../schemas.js';

const bool = (name: keyof typeof CHANGEABLE) => Type.Boolean({ description: CHANGEABLE[name].label });
const int = (name: 'maxFleetsMoved' | 'fullSupplies') => Type.Integer({ minimum: CHANGEABLE[name].min, maximum: CHANGEABLE[name].max, description: CHANGEABLE[name].label });

const Values = {
  allowPendingBattles: bool('allowPendingBattles'), autoResolveBattles: bool('autoResolveBattles'),
  crewInNeutralHarbor: bool('crewInNeutralHarbor'), fortLossesScore: bool('fortLossesScore'),
  maxFleetsMoved: int('maxFleetsMoved'), fullSupplies: int('fullSupplies'),
};
const Settings = Type.Object(Values);
const SettingsChange = Type.Object({
  ...Object.fromEntries(Object.entries(Values).map(([k, v]) => [k, Type.Optional(v)])) as { [K in keyof typeof Values]: ReturnType<typeof Type.Optional<(typeof Values)[K]>> },
  reason: Type.Optional(Type.String({ maxLength: 1000, description: 'why (kept in the audit log)' })),
}, { additionalProperties: false, minProperties: 1 });

const SettingsReply = Type.Object({
  turn: Type.Integer({ description: 'the open turn' }),
  current: Settings,
  pending: Type.Object(Object.fromEntries(Object.entries(Values).map(([k, v]) => [k, Type.Optional(v)])), { description: 'changes waiting for the next turn' }),
  pendingFrom: Type.Union([Type.Integer(), Type.Null()], { description: 'the turn from which the pending changes are in force' }),
});

const Schedule = Type.Object({
  kind: Type.Union([Type.Literal('monthly'), Type.Literal('days_after_open')], { description: 'monthly: every month on `day` at `time` in `timeZone`; days_after_open: `days` after the turn opens (at `time` in `timeZone` if given)' }),
  day: Type.Optional(Type.Integer({ minimum: 1, maximum: 31, description: 'monthly: day of the month (past the month\'s end: its last day)' })),
  days: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_DAYS_AFTER, description: 'days_after_open: how many days' })),
  time: Type.Optional(Type.Union([Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, 24-hour clock' }), Type.Null()])),
  timeZone: Type.Optional(Type.String({ maxLength: 64, description: 'IANA zone, e.g. Europe/London (default UTC)' })),
  graceMinutes: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_GRACE_MINUTES })),
  autoResolve: Type.Optional(Type.Boolean({ description: 'the scheduler resolves each turn at deadline + grace' })),
}, { additionalProperties: false });

const ScheduleReply = Type.Object({
  schedule: Type.Union([Schedule, Type.Null()]),
  description: Type.Union([Type.String(), Type.Null()]),
  openTurnDeadline: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'the deadline the open turn was given now (it had none)' }),
});

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;
  const tags = ['gm'];

  app.get('/campaigns/:id/settings', {
    schema: { tags, summary: 'The rule settings in force, and changes waiting for the next turn (GM)', params: CampaignParams, response: { 200: SettingsReply, ...errors } },
  }, async (req) => {
    await gmOf(db, req, req.params.id, 'settings');
    return readSettings(db, req.params.id);
  });

  app.patch('/campaigns/:id/settings', {
    schema: {
      tags, summary: 'Change rule settings from the next turn on (GM; audited old → new)',
      description: 'The open turn resolves with the settings it opened with; the changes are in force from the next turn (its order checks and its resolution). A value equal to the one in force withdraws a pending change.',
      params: CampaignParams, body: SettingsChange, response: { 200: SettingsReply, ...errors },
    },
  }, async (req) => {
    const gm = await gmOf(db, req, req.params.id, 'settings');
    const { reason, ...change } = req.body;
    return changeSettings(db, req.params.id, change, actorOf(gm), reason);
  });

  app.get('/campaigns/:id/deadline-schedule', {
    schema: { tags, summary: 'The deadline schedule that gives each new turn its deadline (GM)', params: CampaignParams, response: { 200: ScheduleReply, ...errors } },
  }, async (req) => {
    await gmOf(db, req, req.params.id, 'schedule');
    const schedule = await readSchedule(db, req.params.id);
    return { schedule, description: schedule ? describeSchedule(schedule) : null, openTurnDeadline: null };
  });

  app.put('/campaigns/:id/deadline-schedule', {
    schema: {
      tags, summary: 'Set the deadline schedule (GM; audited)',
      description: 'Each turn that opens from now on gets its deadline, grace and auto-resolve from it (the turn report names the deadline; reminders follow). The open turn gets one now if it has none.',
      params: CampaignParams, body: Schedule, response: { 200: ScheduleReply, ...errors },
    },
  }, async (req) => {
    const gm = await gmOf(db, req, req.params.id, 'schedule');
    return setSchedule(db, req.params.id, req.body, actorOf(gm));
  });

  app.delete('/campaigns/:id/deadline-schedule', {
    schema: { tags, summary: 'Remove the deadline schedule (GM; audited); deadlines already given stay', params: CampaignParams, response: { 200: ScheduleReply, ...errors } },
  }, async (req) => {
    const gm = await gmOf(db, req, req.params.id, 'schedule');
    return setSchedule(db, req.params.id, null, actorOf(gm));
  });

  app.post('/campaigns/:id/gm-token', {
    schema: {
      tags, summary: 'Rotate the GM token (GM): the new one is shown once, the old one stops working at once',
      params: CampaignParams,
      response: { 200: Type.Object({ gmToken: Type.String({ description: 'shown once: keep it' }), sessionsEnded: Type.Integer({ description: 'GM web sessions signed out' }) }), ...errors },
    },
  }, async (req) => {
    const gm = await gmOf(db, req, req.params.id, 'gms');
    return rotateGmToken(db, req.params.id, null, actorOf(gm));
  });
};

export default routes;
