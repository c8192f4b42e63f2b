// Despatches as use cases on the real database: a despatch is stored and its mails queued in
// one transaction, or refused with a reason and nothing stored; each reader reads only what
// is theirs (sender, recipients, GM); grey hides the sender from recipients only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendDespatch } from '../../src/campaign/sendDespatch.js';
import { readDespatches } from '../../src/campaign/despatches.js';
import { setDespatchSettings } from '../../src/campaign/despatchSettings.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { setPlayer } from '../../src/campaign/players.js';
import { builtInScenario } from '../../src/scenario/builtin.js';
import { POWERS } from './helpers.js';
import { resolveOpenTurn } from '../../src/campaign/resolveTurn.js';
import { sendDueMail } from '../../src/mail/worker.js';
import { loopbackSmtp, recipients } from '../support/smtp.js';

let db: TestDatabase;
beforeAll(async () => { db = await testDatabase(); });
afterAll(async () => { await db?.destroy(); });

/** A Caribbean campaign whose players' addresses are its own (`french@<seed>.example.org`): no address is invited twice. */
async function makeCampaign(_db: TestDatabase, opts: { seed: string }) {
  const made = await createCampaign(db, { scenario: builtInScenario('caribbean'), seed: opts.seed });
  for (const power of POWERS) await setPlayer(db, made.id, power, { name: `Player ${power}`, email: `${power}@${opts.seed}.example.org` });
  return made;
}

async function counts(id: string) {
  return { despatches: await db.prisma.despatch.count({ where: { campaignId: id } }), mails: await db.prisma.outgoingMail.count({ where: { campaignId: id, subject: { contains: 'despatch' } } }) };
}

describe('sending a despatch', () => {
  let refused: Awaited<ReturnType<typeof makeCampaign>> | undefined;
  it('is stored and a mail to each recipient\'s player is queued at once (instant, the default)', async () => {
    const c = await makeCampaign(db, { seed: 'despatch-instant' });
    const r = await sendDespatch(db, c.id, { from: { power: 'british' }, to: ['French', 'united states'], text: 'Sir, we shall not molest your convoy.', source: 'api' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.despatch.recipients).toEqual(['french', 'american']);
    expect(r.despatch.deliveredAt).not.toBeNull();
    const mails = await db.prisma.outgoingMail.findMany({ where: { campaignId: c.id, subject: { contains: 'despatch' } }, orderBy: { to: 'asc' } });
    expect(mails.map((m) => m.to)).toEqual(['american@despatch-instant.example.org', 'french@despatch-instant.example.org']);
    for (const m of mails) {
      expect(m.subject).toBe('Caribbean 1805: a despatch from Great Britain');
      expect(m.text).toContain('Sir, we shall not molest your convoy.');
      expect(m.text).toContain('to France and the United States');
    }
  });

  it('TO ALL goes to every other played power', async () => {
    const c = await makeCampaign(db, { seed: 'despatch-all' });
    const r = await sendDespatch(db, c.id, { from: { power: 'french' }, to: 'all', text: 'Vive l\'Empereur.', source: 'web' });
    expect(r.ok && r.despatch.recipients).toEqual(['british', 'american']);
  });

  it.each([
    ['an unknown power', { to: ['prussian'] }, /'prussian' is not a power of this campaign/],
    ['an empty text', { text: '  \n\n ' }, /has no text/],
    ['a text over 10,000 characters', { text: 'x'.repeat(10_001) }, /10001 characters long; at most 10000/],
    ['a power nobody plays', { to: ['spanish'] }, /Spain has no player/],
    ['the sender\'s own power alone', { to: ['british'] }, /your own power/],
    ['GREY while the campaign does not allow it', { grey: true }, /grey despatches are not allowed/],
  ])('%s is refused with the line and a reason, and nothing is stored', async (_what, change, reason) => {
    refused ??= await makeCampaign(db, { seed: 'despatch-refused' });
    const c = refused;
    const r = await sendDespatch(db, c.id, { from: { power: 'british' }, to: ['french'], text: 'A letter.', source: 'email', line: 7, ...change });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.line).toBe(7);
    expect(r.message).toMatch(reason);
    expect(await counts(c.id)).toEqual({ despatches: 0, mails: 0 });
  });

  it('exactly 10,000 characters are sent', async () => {
    const c = await makeCampaign(db, { seed: 'despatch-long' });
    const r = await sendDespatch(db, c.id, { from: { power: 'british' }, to: ['french'], text: 'y'.repeat(10_000), source: 'api' });
    expect(r.ok).toBe(true);
  });
});

describe('who reads a despatch', () => {
  it('sender, recipients and GM; never a third power. Grey hides the sender from the recipients, not from the GM', async () => {
    const c = await makeCampaign(db, { seed: 'despatch-fog' });
    await setDespatchSettings(db, c.id, { greyDespatches: true });
    const grey = await sendDespatch(db, c.id, { from: { power: 'british' }, to: ['french'], grey: true, text: 'From a friend.', source: 'api' });
    expect(grey.ok).toBe(true);
    const mail = await db.prisma.outgoingMail.findFirstOrThrow({ where: { campaignId: c.id, to: 'french@despatch-fog.example.org', subject: { contains: 'despatch' } } });
    expect(mail.subject).toBe('Caribbean 1805: a despatch from an unknown hand');
    expect(mail.text).not.toMatch(/Britain|british/i);

    const french = await readDespatches(db, c.id, { role: 'player', power: 'french' });
    expect(french).toEqual([expect.objectContaining({ sender: null, senderHidden: true, text: 'From a friend.', direction: 'received' })]);
    const british = await readDespatches(db, c.id, { role: 'player', power: 'british' });
    expect(british).toEqual([expect.objectContaining({ sender: 'british', direction: 'sent' })]);
    expect(await readDespatches(db, c.id, { role: 'player', power: 'american' })).toEqual([]);
    const gm = await readDespatches(db, c.id, { role: 'gm' });
    expect(gm).toEqual([expect.objectContaining({ sender: 'british', grey: true })]);
  });

  it('with-report: held back from the recipients (and no mail) until delivered; the sender and the GM see it waiting', async () => {
    const c = await makeCampaign(db, { seed: 'despatch-report' });
    await setDespatchSettings(db, c.id, { despatchDelivery: 'with-report' });
    const r = await sendDespatch(db, c.id, { from: { power: 'american' }, to: ['british'], text: 'Free trade.', source: 'api' });
    expect(r.ok && r.despatch.deliveredAt).toBeNull();
    expect((await counts(c.id)).mails).toBe(0);
    expect(await readDespatches(db, c.id, { role: 'player', power: 'british' })).toEqual([]);
    expect(await readDespatches(db, c.id, { role: 'player', power: 'american' })).toHaveLength(1);
    expect(await readDespatches(db, c.id, { role: 'gm' })).toEqual([expect.objectContaining({ deliveredAt: null, delivery: 'with-report' })]);
  });

  it('the GM filters by turn, sender, recipient and words of the text, and writes as the GM', async () => {
    const c = await makeCampaign(db, { seed: 'despatch-gm' });
    await sendDespatch(db, c.id, { from: { power: 'british' }, to: ['french'], text: 'About Martinique.', source: 'api' });
    await sendDespatch(db, c.id, { from: { power: 'french' }, to: ['american'], text: 'About Hampton Roads.', source: 'api' });
    const g = await sendDespatch(db, c.id, { from: { gm: true }, to: 'all', text: 'News from Europe.', source: 'api' });
    expect(g.ok && g.despatch.recipients).toEqual(['british', 'french', 'american']);
    const all = await readDespatches(db, c.id, { role: 'gm' });
    expect(all).toHaveLength(3);
    expect((await readDespatches(db, c.id, { role: 'gm' }, { sender: 'british' })).map((d) => d.text)).toEqual(['About Martinique.']);
    expect((await readDespatches(db, c.id, { role: 'gm' }, { recipient: 'american' })).map((d) => d.text).sort()).toEqual(['About Hampton Roads.', 'News from Europe.']);
    expect((await readDespatches(db, c.id, { role: 'gm' }, { q: 'martinique' })).map((d) => d.text)).toEqual(['About Martinique.']);
    expect((await readDespatches(db, c.id, { role: 'gm' }, { sender: 'gm' })).map((d) => d.fromGm)).toEqual([true]);
    expect(await readDespatches(db, c.id, { role: 'gm' }, { turn: 2 })).toEqual([]);
    const mail = await db.prisma.outgoingMail.findFirstOrThrow({ where: { campaignId: c.id, to: 'american@despatch-gm.example.org', subject: { contains: 'Game Master' } } });
    expect(mail.text).toContain('News from Europe.');
  });
});

describe('with-report delivery', () => {
  it('the resolve puts the despatch in its recipients\' report (mail and web list) and marks it delivered; nobody else\'s report has it', async () => {
    const c = await makeCampaign(db, { seed: 'despatch-with-report' });
    await setDespatchSettings(db, c.id, { despatchDelivery: 'with-report' });
    await setDespatchSettings(db, c.id, { greyDespatches: true });
    const r = await sendDespatch(db, c.id, { from: { power: 'french' }, to: ['british'], grey: true, text: 'Le convoi part le 3.\nSigné: un ami.', source: 'api' });
    const g = await sendDespatch(db, c.id, { from: { gm: true }, to: ['american'], text: 'Rumours of war in Europe.', source: 'api' });
    expect(r.ok && g.ok).toBe(true);
    await db.prisma.outgoingMail.deleteMany({ where: { campaignId: c.id } });
    await resolveOpenTurn(db, c.id, { expectedTurn: 1 });
    const rows = await db.prisma.despatch.findMany({ where: { campaignId: c.id } });
    for (const d of rows) expect(d).toMatchObject({ deliveredTurn: 1, deliveredAt: expect.any(Date) });
    expect(await readDespatches(db, c.id, { role: 'player', power: 'british' })).toEqual([expect.objectContaining({ sender: null, text: 'Le convoi part le 3.\nSigné: un ami.' })]);

    const smtp = await loopbackSmtp();
    try {
      await sendDueMail(db, smtp.transport, { now: () => new Date(Date.now() + 60_000) });
      const report = (power: string) => smtp.received.find((m) => recipients(m).includes(`${power}@despatch-with-report.example.org`) && /turn 1/i.test(m.subject ?? ''));
      const british = report('british')!;
      expect(british.text).toMatch(/DESPATCHES RECEIVED THIS MONTH\s+From an unknown hand, to Great Britain:\nLe convoi part le 3.\nSigné: un ami./);
      expect(british.html).toContain('Despatches received this month');
      expect(british.text).not.toMatch(/France, to|from France/);
      expect(report('american')!.text).toMatch(/From the Game Master, to the United States:\nRumours of war in Europe./);
      expect(report('french')!.text).not.toMatch(/DESPATCHES RECEIVED|Le convoi|Rumours/);
      expect(report('american')!.text).not.toMatch(/Le convoi/);
    } finally {
      await smtp.close();
    }
  });
});

