/**
 * Time zones and calendar feeds (docs/web-pages.md): a player or the GM sets the zone
 * deadlines show in; each gets the secret address of their calendar feed; the feed itself
 * is public to whoever holds the address (calendar apps send no credentials).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { calendarFeed } from '../../campaign/calendar.js';
import { UseCaseError } from '../../campaign/errors.js';
import { calendarPath, calendarToken, setGmTimeZone, setPlayerTimeZone, timeZoneOf } from '../../campaign/timeZones.js';
import type { Caller } from '../../campaign/access.js';
import { callerOf, gmOf } from '../auth.js';
import { CampaignParams, errors } from '../schemas.js';
import { AUTH } from '../errors.js';

const TimeZoneBody = Type.Object({
  timeZone: Type.String({ minLength: 1, maxLength: 64, description: 'an IANA time zone name, e.g. Europe/London, America/New_York or UTC' }),
}, { additionalProperties: false });

const Calendar = Type.Object({
  timeZone: Type.String(),
  feedUrl: Type.String({ description: 'the secret address of your calendar feed of deadlines (ICS); anyone with it can read your deadlines' }),
});

const routes: FastifyPluginAsyncTypebox<{ publicUrl?: string | null }> = async (app, opts) => {
  const { db } = app.deps;

  app.put('/api/campaigns/:id/players/:power/timezone', {
    schema: {
      tags: ['campaigns'], summary: 'Set the time zone a player reads deadlines in (the player, or the GM)',
      params: Type.Object({ id: Type.String(), power: Type.String() }), body: TimeZoneBody,
      response: { 200: Type.Object({ power: Type.String(), timeZone: Type.String() }), ...errors },
    },
  }, async (req) => {
    const caller = await callerOf(db, req, req.params.id);
    if (caller.role === 'player' && caller.power !== req.params.power) {
      throw new UseCaseError('forbidden', AUTH.notYourPower, `you play ${caller.power}: you can set only your own time zone`);
    }
    // The zone is the player's (their absence's days are counted in it): a stand-in does not change it.
    if (caller.role === 'player' && caller.standIn) {
      throw new UseCaseError('forbidden', AUTH.notYourPower, 'a stand-in cannot change the absent player\'s time zone: the GM can');
    }
    return setPlayerTimeZone(db, req.params.id, req.params.power, req.body.timeZone, caller.role);
  });

  app.put('/api/campaigns/:id/gm/timezone', {
    schema: {
      tags: ['campaigns'], summary: 'Set the time zone the GM reads deadlines in (GM; audited)',
      params: CampaignParams, body: TimeZoneBody, response: { 200: Type.Object({ timeZone: Type.String() }), ...errors },
    },
  }, async (req) => {
    await gmOf(db, req, req.params.id, 'gms');
    return setGmTimeZone(db, req.params.id, req.body.timeZone);
  });

  /** The caller's zone and feed address; `rotate` makes a new address first. A Caller is a Reader. */
  async function calendarOf(caller: Caller, rotate: boolean) {
    const token = await calendarToken(db, caller.campaignId, caller, rotate);
    return { timeZone: await timeZoneOf(db, caller.campaignId, caller), feedUrl: calendarPath(token, opts.publicUrl) };
  }

  app.get('/api/campaigns/:id/calendar', {
    schema: {
      tags: ['campaigns'], summary: 'Your time zone and the secret address of your calendar feed of deadlines',
      params: CampaignParams, response: { 200: Calendar, ...errors },
    },
  }, async (req) => {
    // The GM's feed is the GM's own: an assistant GM has none (area gms).
    return calendarOf(await callerOf(db, req, req.params.id, 'gms'), false);
  });

  app.post('/api/campaigns/:id/calendar/rotate', {
    schema: {
      tags: ['campaigns'], summary: 'A new secret address for your calendar feed; the old one stops working at once',
      params: CampaignParams, response: { 200: Calendar, ...errors },
    },
  }, async (req) => {
    return calendarOf(await callerOf(db, req, req.params.id, 'gms'), true);
  });

  app.get('/ical/:file', {
    schema: { tags: ['calendar'], summary: 'A calendar feed of deadlines (ICS), at its secret address', params: Type.Object({ file: Type.String({ maxLength: 80 }) }) },
  }, async (req, reply) => {
    const m = /^(.+)\.ics$/.exec(req.params.file);
    const text = m ? await calendarFeed(db, m[1]!, opts.publicUrl) : null;
    if (text === null) return reply.status(404).type('text/plain; charset=utf-8').send('no such calendar');
    return reply.type('text/calendar; charset=utf-8').header('cache-control', 'private, max-age=300').send(text);
  });
};

export default routes;
