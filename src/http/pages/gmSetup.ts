/**
 * The GM's "Players & settings" page: invite or replace players (the welcome mail carries
 * the sign-in link and the password: players.ts), rotate the GM token (shown once),
 * change the rule settings from the next turn (settings.ts) and set the deadline schedule
 * (schedule.ts). Each action is the use case the API calls, audited there.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { forgetLogins } from '../../campaign/access.js';
import { UseCaseError } from '../../campaign/errors.js';
import { rotateGmToken } from '../../campaign/gmToken.js';
import { setPlayer } from '../../campaign/players.js';
import { describeSchedule, readSchedule, setSchedule } from '../../campaign/schedule.js';
import { CHANGEABLE, changeSettings, readSettings, SETTING_NAMES } from '../../campaign/settings.js';
import { turnStatus } from '../../campaign/turnStatus.js';
import { field, layoutData, PageError, pageContext, redirect, sendPage, type PageContext, type PageDeps, gmActor } from './context.js';
import { errorOf } from './present.js';

type Ref = { Params: { ref: string } };

const DONE: Record<string, string> = {
  settings: 'The settings are saved: they take effect when the next turn opens.',
  schedule: 'The deadline schedule is saved.',
  'schedule-removed': 'The deadline schedule is removed; deadlines already given stay.',
};

const routes: FastifyPluginAsync<{ pages: PageDeps }> = async (app, { pages }) => {
  const { db } = pages;
  const publicUrl = app.deps.config.PUBLIC_URL;

  async function setupData(ctx: PageContext, extra: object = {}) {
    const [status, settings, schedule] = await Promise.all([
      turnStatus(db, ctx.campaign.id), readSettings(db, ctx.campaign.id), readSchedule(db, ctx.campaign.id),
    ]);
    return {
      ...layoutData(ctx, 'Players & settings', { section: 'setup' }),
      // Without PUBLIC_URL the service does not know its own address: the welcome mail has no link.
      noPublicUrl: !(publicUrl ?? process.env.PUBLIC_URL),
      turn: status.turn, nextTurn: status.turn + 1, deadline: status.deadline,
      playable: status.powers.map((p) => ({ key: p.power, name: p.name, player: p.player })),
      settings: SETTING_NAMES.map((name) => {
        const spec = CHANGEABLE[name];
        const now = settings.current[name];
        const pending = name in settings.pending ? settings.pending[name] : undefined;
        const planned = pending ?? now;
        return {
          name, label: spec.label, boolean: spec.kind === 'boolean', min: 'min' in spec ? spec.min : null, max: 'max' in spec ? spec.max : null,
          now: String(now), yes: planned === true, value: String(planned), pending: pending === undefined ? null : String(pending),
        };
      }),
      pendingFrom: settings.pendingFrom,
      schedule: schedule ? { ...schedule, description: describeSchedule(schedule) } : null,
      form: {
        monthly: schedule?.kind !== 'days_after_open', day: schedule?.kind === 'monthly' ? schedule.day : 1,
        days: schedule?.kind === 'days_after_open' ? schedule.days : 7, time: schedule ? schedule.time ?? '' : '18:00',
        timeZone: schedule?.timeZone ?? ctx.timeZone, graceMinutes: schedule?.graceMinutes ?? 0, autoResolve: schedule?.autoResolve ?? false,
      },
      ...extra,
    };
  }

  app.get<Ref & { Querystring: { done?: string } }>('/c/:ref/gm/setup', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    return sendPage(reply, 'gm-setup', await setupData(ctx, { done: req.query.done ? DONE[req.query.done] ?? null : null }));
  });

  /** Run an action: on a use-case error, the page again with the message and every problem. */
  async function act(ctx: PageContext, reply: FastifyReply, work: () => Promise<string | object>) {
    let outcome: string | object;
    try {
      outcome = await work();
    } catch (err) {
      if (!(err instanceof UseCaseError) && !(err instanceof PageError)) throw err;
      const e = errorOf(err);
      const problems = err instanceof UseCaseError ? err.problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)) : [];
      return sendPage(reply, 'gm-setup', await setupData(ctx, { error: e.message, problems }), e.status);
    }
    // A secret shown once is answered on this page, never through a redirect.
    if (typeof outcome === 'object') return sendPage(reply, 'gm-setup', await setupData(ctx, outcome));
    return redirect(reply, `${ctx.base}/gm/setup?done=${outcome}`);
  }

  app.post<Ref>('/c/:ref/gm/setup/players', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm');
    const b = req.body;
    return act(ctx, reply, async () => {
      const password = field(b, 'password').trim();
      const name = field(b, 'name').trim();
      const email = field(b, 'email').trim();
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new PageError(400, 'Player', 'A player needs an email address such as someone@example.org: the welcome mail goes there.');
      if (password && password.length < 8) throw new PageError(400, 'Password', 'A password chosen by the GM has at least 8 characters (leave it empty for a random one).');
      const made = await setPlayer(db, ctx.campaign.id, field(b, 'power'), { name, email, ...(password ? { password } : {}) }, gmActor(ctx));
      forgetLogins();
      return { newPlayer: made };
    });
  });

  app.post<Ref>('/c/:ref/gm/setup/token', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm', 'gms');
    return act(ctx, reply, async () => ({ newToken: (await rotateGmToken(db, ctx.campaign.id, ctx.session.id, gmActor(ctx))).gmToken }));
  });

  app.post<Ref>('/c/:ref/gm/setup/settings', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm', 'settings');
    const b = req.body;
    return act(ctx, reply, async () => {
      const change: Record<string, unknown> = {};
      for (const name of SETTING_NAMES) {
        const text = field(b, name).trim();
        if (text === '') continue;
        if (CHANGEABLE[name].kind === 'boolean') change[name] = text === 'yes' ? true : text === 'no' ? false : text;
        else change[name] = /^-?\d+$/.test(text) ? Number(text) : text;
      }
      const before = await readSettings(db, ctx.campaign.id);
      // Only what the GM changed on the form (the form shows what is planned for the next turn).
      for (const name of SETTING_NAMES) {
        const planned = name in before.pending ? before.pending[name] : before.current[name];
        if (change[name] === planned) delete change[name];
      }
      if (Object.keys(change).length === 0) throw new PageError(400, 'Nothing changed', 'No setting differs from what is planned for the next turn: change a value, then save.');
      await changeSettings(db, ctx.campaign.id, change, gmActor(ctx), field(b, 'reason').trim() || undefined);
      return 'settings';
    });
  });

  app.post<Ref>('/c/:ref/gm/setup/schedule', async (req, reply) => {
    const ctx = await pageContext(pages, req, req.params.ref, 'gm', 'schedule');
    const b = req.body;
    return act(ctx, reply, async () => {
      if (field(b, 'remove') === 'yes') {
        await setSchedule(db, ctx.campaign.id, null, gmActor(ctx));
        return 'schedule-removed';
      }
      const num = (name: string) => (/^\d{1,6}$/.test(field(b, name).trim()) ? Number(field(b, name).trim()) : field(b, name).trim() || undefined);
      const monthly = field(b, 'kind') !== 'days_after_open';
      await setSchedule(db, ctx.campaign.id, {
        kind: monthly ? 'monthly' : 'days_after_open',
        ...(monthly ? { day: num('day') } : { days: num('days') }),
        time: field(b, 'time').trim() || null, timeZone: field(b, 'timeZone').trim() || 'UTC',
        graceMinutes: num('graceMinutes') ?? 0, autoResolve: field(b, 'autoResolve') === 'yes',
      }, gmActor(ctx));
      return 'schedule';
    });
  });
};

export default routes;
