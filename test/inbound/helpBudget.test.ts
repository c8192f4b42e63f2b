// Forged wrong-password mail cannot starve the real player's HELP: 40 webhook mails From the
// British player's address with wrong passwords use up the hour's answers to failures, and
// the real player's HELP (no password) is still answered, and delivered, by the real worker
// to a real SMTP server on loopback. HELP has a budget of its own, capped the same way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { setPlayer } from '../../src/campaign/players.js';
import { buildApp, type App } from '../../src/http/app.js';
import { sendDueMail } from '../../src/mail/worker.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { loopbackSmtp, recipients, type LoopbackSmtp } from '../support/smtp.js';

const SECRET = 'help-budget-webhook-secret';
const NELSON = 'british@navy.example';
const LIMIT = 10;

let db: TestDatabase;
let app: App;
let smtp: LoopbackSmtp;
let slug: string;
let n = 0;

function message(lines: string[], subject: string): Buffer {
  n++;
  return Buffer.from([
    `From: Horatio Nelson <${NELSON}>`, 'To: orders@steady.example', `Subject: ${subject}`, `Message-ID: <help-budget-${n}@navy.example>`,
    `Date: ${new Date().toUTCString()}`, '', ...lines, '',
  ].join('\r\n'));
}
const post = async (lines: string[], subject: string) => {
  const res = await app.inject({ method: 'POST', url: '/api/inbound/mail', payload: message(lines, subject), headers: { 'content-type': 'message/rfc822', authorization: `Bearer ${SECRET}` } });
  expect(res.statusCode, res.body).toBe(202);
  return res.json() as { id: string; status: string };
};

beforeAll(async () => {
  db = await testDatabase();
  smtp = await loopbackSmtp();
  const c = await createCampaign(db, { scenario: 'caribbean', slug: 'help-budget', seed: 'help-budget' });
  slug = c.slug;
  await setPlayer(db, c.id, 'british', { name: 'Horatio Nelson', email: NELSON, password: 'hearts-of-oak-1805' });
  await sendDueMail(db, smtp.transport); // the welcome mail
  smtp.received.length = 0;
  app = await buildApp({ db, config: {}, inbound: { secret: SECRET, ratePerHour: LIMIT } });
});
afterAll(async () => { await app?.close(); await smtp?.close(); await db?.destroy(); });

describe('the answer budgets', () => {
  it('forty forged wrong passwords spend the failure answers; the real HELP is answered all the same', async () => {
    const forged: string[] = [];
    for (let i = 0; i < 40; i++) forged.push((await post([`CAMPAIGN ${slug}`, 'POWER british', `PASSWORD guess-${i}`, 'FLEET "Jamaica Squadron": HOLD'], 'orders')).status);
    expect(forged.filter((s) => s === 'rejected')).toHaveLength(LIMIT);
    expect(forged.filter((s) => s === 'rate_limited')).toHaveLength(40 - LIMIT);

    const help = await post([`CAMPAIGN ${slug}`, 'HELP'], 'help please');
    expect(help.status).toBe('handled');
    await sendDueMail(db, smtp.transport);
    const answers = smtp.received.filter((m) => recipients(m).includes(NELSON));
    expect(answers.map((m) => m.subject)).toContain('Re: help please');
    const helpAnswer = answers.find((m) => m.subject === 'Re: help please')!;
    expect(helpAnswer.text).toMatch(/FLEET/); // the orders language, as HELP answers
    expect(answers).toHaveLength(LIMIT + 1); // the capped failure answers, and the help
  });

  it('HELP without a password has its own cap: beyond it, stored as rate_limited and not answered', async () => {
    const statuses: string[] = [];
    for (let i = 0; i < LIMIT + 2; i++) statuses.push((await post([`CAMPAIGN ${slug}`, 'HELP'], `help ${i}`)).status);
    // One HELP was answered in the test before: LIMIT - 1 more, then none.
    expect(statuses.filter((s) => s === 'handled')).toHaveLength(LIMIT - 1);
    expect(statuses.slice(LIMIT - 1).every((s) => s === 'rate_limited')).toBe(true);
    const last = await db.prisma.inboundMessage.findFirstOrThrow({ where: { subject: `help ${LIMIT + 1}` } });
    expect(last.error).toMatch(new RegExp(`${LIMIT} answers to HELP without a password for this campaign in the hour before this one \\(limit ${LIMIT}\\)`));
  });

  it('the right password is never limited, whatever both budgets hold', async () => {
    const real = await post([`CAMPAIGN ${slug}`, 'POWER british', 'PASSWORD hearts-of-oak-1805', 'STATUS'], 'status');
    expect(real.status).toBe('handled');
  });
});
