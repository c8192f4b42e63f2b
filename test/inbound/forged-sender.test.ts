// Mail nobody can turn against a player: twenty unauthenticated mails with a forged From:
// once made the real player's correct orders rate_limited (not applied, no reply). Now:
//   - "A message with the right password is always handled."
//   - "Limits never count a sender's address alone."
//   - "No reply goes to mail that matches no campaign (backscatter)."
//   - "HELP, and the 'wrong password' answer, go only to addresses of known players of that
//     campaign."
// Real database, real SMTP listener on loopback (nodemailer as the client).
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { setPlayer } from '../../src/campaign/players.js';
import { receiveInbound } from '../../src/inbound/handle.js';
import { UNMATCHED_SENTENCE } from '../../src/inbound/reply.js';
import { startSmtpListener, type SmtpListener } from '../../src/inbound/smtp.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

const NELSON = 'h.nelson.rn@gmail.com';
const PASSWORD = 'hearts-of-oak-1805';
const LIMIT = 5;

let db: TestDatabase;
let windward: { id: string; slug: string };
let leeward: { id: string; slug: string };
let smtp: SmtpListener;
let n = 0;

/** A plain message; `lines` are the body. */
function message(from: string, lines: string[], subject = 'orders'): Buffer {
  n++;
  return Buffer.from([
    `From: ${from}`, 'To: orders@steady.example', `Subject: ${subject} ${n}`, `Message-ID: <forged-${n}@example.org>`,
    'Date: Mon, 3 Feb 2025 09:00:00 +0000', '', ...lines, '',
  ].join('\r\n'));
}

const orders = (slug: string, password: string) => [`CAMPAIGN ${slug}`, 'POWER british', `PASSWORD ${password}`, 'FLEET "Jamaica Squadron": HOLD', 'FLEET "Jamaica Squadron": MISSION'];

async function repliesTo(inboundId: string) {
  const row = await db.prisma.inboundMessage.findUniqueOrThrow({ where: { id: inboundId } });
  return db.prisma.outgoingMail.findMany({ where: { headers: { path: ['In-Reply-To'], equals: row.messageId } } });
}

beforeAll(async () => {
  db = await testDatabase();
  windward = await createCampaign(db, { scenario: 'caribbean', slug: 'windward-forged', seed: 'forged-1', gmEmail: 'admiralty@example.org' });
  leeward = await createCampaign(db, { scenario: 'caribbean', slug: 'leeward-forged', seed: 'forged-2' });
  await setPlayer(db, windward.id, 'british', { name: 'Horatio Nelson', email: NELSON, password: PASSWORD });
  await setPlayer(db, windward.id, 'french', { name: 'Pierre Villeneuve', email: 'p.villeneuve@outlook.fr', password: 'vive-l-empereur' });
  await setPlayer(db, leeward.id, 'british', { name: 'Horatio Nelson', email: NELSON, password: PASSWORD });
  smtp = await startSmtpListener(db, { port: 0, host: '127.0.0.1', ratePerHour: LIMIT });
});

afterAll(async () => {
  await smtp?.close();
  await db?.destroy();
});

describe('twenty forged mails cannot block the real player', () => {
  it('over SMTP: the forgeries are capped, the real orders that follow are applied and answered', async () => {
    const client = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true });
    for (let i = 0; i < 20; i++) {
      const lines = i % 2 ? orders(windward.slug, `guess-${i}`) : [`CAMPAIGN ${windward.slug}`, 'POWER british', 'FLEET "Jamaica Squadron": MOVE kingston'];
      await client.sendMail({ envelope: { from: NELSON, to: ['orders@steady.example'] }, raw: message(`Horatio Nelson <${NELSON}>`, lines, 'forged') });
    }
    await smtp.idle();
    const forged = await db.prisma.inboundMessage.findMany({ where: { sender: NELSON, campaignId: windward.id }, orderBy: { receivedAt: 'asc' } });
    expect(forged).toHaveLength(20);
    const statuses = forged.map((r) => r.status);
    expect(statuses.filter((s) => s === 'rejected')).toHaveLength(LIMIT); // answered: the service is no reply cannon
    expect(statuses.filter((s) => s === 'rate_limited')).toHaveLength(20 - LIMIT);
    expect(forged.every((r) => r.peer === null)).toBe(true); // loopback: the local MTA, never a rate-limit key
    expect(await db.prisma.outgoingMail.count({ where: { to: NELSON, text: { contains: UNMATCHED_SENTENCE } } })).toBe(LIMIT);

    // Now the real Nelson, from the same address, with the right password.
    await client.sendMail({ envelope: { from: NELSON, to: ['orders@steady.example'] }, raw: message(`Horatio Nelson <${NELSON}>`, orders(windward.slug, PASSWORD), 'real') });
    await smtp.idle();
    const real = await db.prisma.inboundMessage.findFirstOrThrow({ where: { sender: NELSON }, orderBy: { receivedAt: 'desc' } });
    expect(real.status).toBe('handled');
    const set = await db.prisma.orderSet.findFirstOrThrow({ where: { inboundId: real.id } });
    expect(set.ready).toBe(true);
    expect(set.current).toBe(true);
    const [reply] = await repliesTo(real.id);
    expect(reply!.to).toBe(NELSON);
    expect(reply!.text).toContain('READY');
    client.close();
  });

  it('a right password is handled however many failures came before it in the hour', async () => {
    for (let i = 0; i < 3; i++) await receiveInbound(db, message(NELSON, orders(windward.slug, `more-${i}`)), 'http', { ratePerHour: 1 });
    const { stored, outcome } = await receiveInbound(db, message(NELSON, orders(windward.slug, PASSWORD)), 'http', { ratePerHour: 1 });
    expect(outcome?.status).toBe('handled');
    expect(await db.prisma.orderSet.count({ where: { inboundId: stored.id, ready: true } })).toBe(1);
  });

  it('the cap is per campaign, not per address: the same player\'s mistake in another campaign is still answered', async () => {
    const { stored, outcome } = await receiveInbound(db, message(NELSON, orders(leeward.slug, 'a-typo')), 'http', { ratePerHour: LIMIT });
    expect(outcome?.status).toBe('rejected');
    const [reply] = await repliesTo(stored.id);
    expect(reply!.to).toBe(NELSON);
    expect(reply!.text).toContain(UNMATCHED_SENTENCE);
  });

  it('an SMTP client that is not loopback is a key of its own, across campaigns', async () => {
    const third = await createCampaign(db, { scenario: 'caribbean', slug: 'peer-forged', seed: 'forged-3' });
    await setPlayer(db, third.id, 'british', { name: 'Horatio Nelson', email: NELSON, password: PASSWORD });
    const peer = '203.0.113.7';
    const statuses: string[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await receiveInbound(db, message(NELSON, orders(third.slug, `peer-${i}`)), 'smtp', { ratePerHour: 3, peer })).outcome!.status);
    expect(statuses).toEqual(['rejected', 'rejected', 'rejected']);
    expect((await db.prisma.inboundMessage.findFirstOrThrow({ where: { peer } })).peer).toBe(peer);
    // Leeward's own budget is not spent (one answer this hour), but this client's is.
    const fromPeer = await receiveInbound(db, message(NELSON, orders(leeward.slug, 'peer-x')), 'smtp', { ratePerHour: 3, peer });
    expect(fromPeer.outcome?.status).toBe('rate_limited');
    expect(fromPeer.outcome?.error).toMatch(/sent from 203\.0\.113\.7/);
    const elsewhere = await receiveInbound(db, message(NELSON, orders(leeward.slug, 'peer-y')), 'smtp', { ratePerHour: 3, peer: '198.51.100.20' });
    expect(elsewhere.outcome?.status).toBe('rejected');
  });
});

describe('no backscatter: answers only to known players (or the GM) of the campaign', () => {
  it('mail that matches no campaign is stored with its reason and never answered', async () => {
    const { stored, outcome } = await receiveInbound(db, message('victim@example.net', orders('no-such-campaign', 'x')), 'http');
    expect(outcome?.status).toBe('unanswered');
    expect(outcome?.error).toMatch(/names no campaign/);
    expect(await repliesTo(stored.id)).toHaveLength(0);
    const row = await db.prisma.inboundMessage.findUniqueOrThrow({ where: { id: stored.id } });
    expect(row.status).toBe('unanswered'); // the GM can find it later
  });

  it('a wrong password from an address that is not a player of that campaign is not answered', async () => {
    const { stored, outcome } = await receiveInbound(db, message('victim@example.net', orders(windward.slug, 'guess')), 'http');
    expect(outcome?.status).toBe('unanswered');
    expect(outcome?.error).toMatch(/wrong password.*not answered: victim@example\.net is neither a player nor the GM of windward-forged/);
    expect(await repliesTo(stored.id)).toHaveLength(0);
    // A player of another campaign is a stranger here too.
    const villeneuve = await receiveInbound(db, message('p.villeneuve@outlook.fr', orders(leeward.slug, 'guess')), 'http');
    expect(villeneuve.outcome?.status).toBe('unanswered');
  });

  it('HELP from a stranger gets nothing; from a player (no password needed) the language', async () => {
    const stranger = await receiveInbound(db, message('victim@example.net', ['HELP']), 'http');
    expect(stranger.outcome?.status).toBe('unanswered');
    expect(await repliesTo(stranger.stored.id)).toHaveLength(0);
    const named = await receiveInbound(db, message('victim@example.net', [`CAMPAIGN ${windward.slug}`, 'HELP']), 'http');
    expect(named.outcome?.status).toBe('unanswered');
    const player = await receiveInbound(db, message('p.villeneuve@outlook.fr', ['HELP']), 'http');
    expect(player.outcome?.status).toBe('handled');
    const [r] = await repliesTo(player.stored.id);
    expect(r!.to).toBe('p.villeneuve@outlook.fr');
    expect(r!.text).toContain('FLEET <fleet>: MOVE');
  });

  it('the GM\'s address is answered like a player\'s', async () => {
    const { stored, outcome } = await receiveInbound(db, message('Admiralty@Example.org', orders(windward.slug, 'not-the-token')), 'http', { ratePerHour: 1000 });
    expect(outcome?.status).toBe('rejected');
    const [r] = await repliesTo(stored.id);
    expect(r!.text).toContain(UNMATCHED_SENTENCE);
  });

  it('a broken message is answered only to a known address', async () => {
    const broken = (from: string) => Buffer.from([
      `From: ${from}`, 'To: orders@steady.example', `Subject: broken ${++n}`, `Message-ID: <broken-${n}@example.org>`,
      'MIME-Version: 1.0', 'Content-Type: multipart/alternative; boundary="never-there"', '', '--elsewhere', '', 'PASSWORD x', '',
    ].join('\r\n'));
    const stranger = await receiveInbound(db, broken('victim@example.net'), 'http');
    expect(stranger.outcome?.status).toBe('unanswered');
    expect(await repliesTo(stranger.stored.id)).toHaveLength(0);
    const player = await receiveInbound(db, broken('p.villeneuve@outlook.fr'), 'http', { ratePerHour: 1000 });
    expect(player.outcome?.status).toBe('unreadable');
    expect(await repliesTo(player.stored.id)).toHaveLength(1);
  });
});
