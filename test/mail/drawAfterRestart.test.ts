// Crash safety of reports drawn after the turn (docs/writes.md): the resolve commits the
// turn with its mail queued but not drawn; the service stops before its mail worker drew
// anything; a new instance on the same database draws every report and battle package
// and sends them over a REAL SMTP exchange on loopback, as they were when the turn
// committed (a deadline set after the resolve is not in them), each player's cut only.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setDeadline } from '../../src/campaign/deadline.js';
import { resolveOpenTurn } from '../../src/campaign/resolveTurn.js';
import { openDatabase, type DatabaseTarget } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { buildApp } from '../../src/http/app.js';
import { turnMailProgress } from '../../src/mail/deferred.js';
import { sendDueMail } from '../../src/mail/worker.js';
import { freshTarget, usingServer } from '../support/db.js';
import { PageBrowser } from '../support/pageBrowser.js';
import { loopbackSmtp, recipients, type LoopbackSmtp } from '../support/smtp.js';
import { makeCampaign } from '../campaign/helpers.js';

const cleanups: (() => Promise<void>)[] = [];
let smtp: LoopbackSmtp;

beforeAll(async () => { smtp = await loopbackSmtp(); });

afterAll(async () => {
  await smtp?.close();
  for (const c of cleanups) await c();
});

async function target(): Promise<DatabaseTarget> {
  // Migrated already, as the service's own new data directory is: the migrations are
  // test/db/migrate.test.ts's and test/db/embedded.test.ts's subject, not this file's.
  if (usingServer) {
    const fresh = await freshTarget({ migrated: true });
    cleanups.push(fresh.drop);
    return fresh.target;
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'sasg-draw-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return { kind: 'embedded', dir, migrated: true };
}

const to = recipients;

describe('reports queued by a resolve and not drawn yet', () => {
  it('are drawn and sent by the next instance on the same database, as they were when the turn committed', async () => {
    const t = await target();
    const first = await openDatabase(t);
    await migrate(first.sql);
    const c = await makeCampaign(first, { seed: 'draw-after-restart', battle: true });
    await first.prisma.campaign.update({ where: { id: c.id }, data: { gmEmail: 'gm@example.org' } });
    const outcome = await resolveOpenTurn(first, c.id, { expectedTurn: 1 });
    expect(outcome.battles.length).toBeGreaterThan(0);
    // The turn is committed with its mail queued, none of it drawn yet.
    expect(await turnMailProgress(first, c.id, 1)).toMatchObject({ drawn: 0, sent: 0 });
    // A change after the turn (the GM sets turn 2's deadline) must not reach turn 1's reports.
    await setDeadline(first, c.id, { deadline: new Date('2030-01-05T18:00:00Z') });
    await first.close(); // the service stops: no worker ever drew or sent them

    const second = await openDatabase(t);
    cleanups.unshift(() => second.close());
    expect(await migrate(second.sql)).toEqual([]);
    const queued = await turnMailProgress(second, c.id, 1);
    expect(queued.total).toBeGreaterThanOrEqual(3 + 2 + 1); // three reports, the battle to two players, the GM's
    // The GM's dashboard says how far the turn's mail has got.
    const app = await buildApp({ db: second, config: {} });
    cleanups.unshift(() => app.close());
    const gmBrowser = new PageBrowser(() => app);
    await gmBrowser.post(`/c/${c.slug}/login`, { _csrf: await gmBrowser.csrf(`/c/${c.slug}/login`), password: c.gmToken });
    const progress = async () => /data-turn-mail>([^<]*)/.exec((await gmBrowser.get(`/c/${c.slug}/gm`)).body)?.[1];
    expect(await progress()).toBe(`0 of ${queued.total} drawn, 0 sent`);
    smtp.received.length = 0;
    for (let pass = 0; pass < 10; pass++) {
      const r = await sendDueMail(second, smtp.transport, { batchSize: 50 });
      if (r.sent + r.failed === 0) break;
    }
    expect(await turnMailProgress(second, c.id, 1)).toEqual({ total: queued.total, drawn: queued.total, sent: queued.total, failed: 0 });
    expect(await progress()).toBe(`${queued.total} of ${queued.total} drawn, ${queued.total} sent`);
    const reports = smtp.received.filter((m) => /Turn 1 report/.test(m.subject ?? ''));
    expect(reports.map((m) => to(m)[0]).sort()).toEqual(['american@example.org', 'british@example.org', 'french@example.org']);

    const british = reports.find((m) => to(m).includes('british@example.org'))!;
    expect(british.text).toContain('Jamaica Squadron');
    expect(british.text).not.toContain('Escadre de la Guadeloupe'); // in harbor far away: not in the British view
    expect(british.text).toContain('The GM has not set the deadline for turn 2 yet');
    expect(british.text).not.toContain('5 January 2030');
    const map = british.attachments.find((a) => a.filename === 'map-turn-1.png')!;
    expect(map.content.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(british.text).not.toContain('Being prepared');

    const battle = smtp.received.filter((m) => /battle at/.test(m.subject ?? ''));
    expect(battle.map((m) => to(m)[0]).sort()).toEqual(['british@example.org', 'french@example.org']);
    // The setup sheet and the WS&IM ship logs (HTML) and the whole package (JSON).
    for (const m of battle) {
      expect(m.attachments.map((a) => a.contentType).sort()).toEqual(['application/json', 'text/html', 'text/html']);
      expect(m.attachments.some((a) => /-setup\.html$/.test(a.filename ?? ''))).toBe(true);
    }

    const gm = smtp.received.find((m) => to(m).includes('gm@example.org'))!;
    expect(gm.subject).toContain('GM report');
    expect(gm.text).toContain('Escadre de la Guadeloupe'); // the GM sees every fleet
    // The stored copies are the drawn mails, what to draw them from is gone.
    const left = await second.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "OutgoingMail" WHERE "renderKind" IS NOT NULL OR "renderInput" IS NOT NULL`);
    expect(Number(left[0]!.n)).toBe(0);
  }, 180_000); // two database openings, a resolve and a worker pass: slow on a loaded machine
});
