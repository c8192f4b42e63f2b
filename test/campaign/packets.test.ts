// Despatches by packet on the real database (docs/rules-interpretation.md, "Despatches by
// packet"): the resolve sails each packet with the turn's own dice (a GM's script here, SPEC
// §4); one taken goes to the taker's report marked intercepted and never to its recipient, one
// that passes is delivered; the turn replays "same" from what was stored; a roll-back puts
// them on their way again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { readDespatches } from '../../src/campaign/despatches.js';
import { setDespatchSettings } from '../../src/campaign/despatchSettings.js';
import { setPlayer } from '../../src/campaign/players.js';
import { replayTurn } from '../../src/campaign/replayTurn.js';
import { resolveOpenTurn } from '../../src/campaign/resolveTurn.js';
import { rollbackLastTurn } from '../../src/campaign/rollback.js';
import { sendDespatch } from '../../src/campaign/sendDespatch.js';
import { buildApp, type App } from '../../src/http/app.js';
import { sendDueMail } from '../../src/mail/worker.js';
import type { GameEvent } from '../../src/rules/events.js';
import { builtInScenario } from '../../src/scenario/builtin.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { PageBrowser } from '../support/pageBrowser.js';
import { loopbackSmtp, recipients } from '../support/smtp.js';
import { CLEAN, POWERS, sendOrders } from './helpers.js';

const TAKEN = 'PACKET-ONE France to the United States, by way of the Sargasso Sea';
const PASSED = 'PACKET-TWO the United States to France, the same waters';
const SAFE = 'PACKET-THREE Britain to France, from Antigua to Guadeloupe';
const email = (p: string) => `${p}@packets.example.org`;

let db: TestDatabase;
let app: App;
let id: string;
let slug: string;
const passwords: Record<string, string> = {};
const ids: Record<string, string> = {};
let script: number[];

beforeAll(async () => {
  db = await testDatabase();
  // The Windward Islands Squadron lies at sea in the Sargasso Sea all turn: on the packets'
  // route between Guadeloupe and Norfolk, at war with both France and the United States.
  const scenario = builtInScenario('caribbean') as { fleets: { name: string; at: string; inHarbor?: boolean }[] };
  Object.assign(scenario.fleets.find((f) => f.name === 'Windward Islands Squadron')!, { at: 'sargasso-sea', inHarbor: false });
  const made = await createCampaign(db, { scenario, seed: 'packets' });
  ({ id, slug } = made);
  for (const p of POWERS) passwords[p] = (await setPlayer(db, id, p, { name: `Player ${p}`, email: email(p) })).password;
  for (const p of POWERS) await sendOrders(db, id, p, CLEAN[p]);
  await setDespatchSettings(db, id, { despatchDelivery: 'by-packet' });
  const send = async (from: string, to: string, text: string) => {
    const r = await sendDespatch(db, id, { from: { power: from }, to: [to], text, source: 'api' });
    if (!r.ok) throw new Error(r.message);
    return r.despatch.id;
  };
  ids.taken = await send('french', 'american', TAKEN);
  ids.passed = await send('american', 'french', PASSED);
  ids.safe = await send('british', 'french', SAFE);
  // The GM's dice: a preview with ones throughout says where the packets' rolls fall in the
  // turn's canonical order (after the battles' weather); the first packet's roll is then a 6.
  const ones = Array<number>(400).fill(1);
  const preview = await resolveOpenTurn(db, id, { expectedTurn: 1, dice: ones, dryRun: true });
  const rollsOf = (e: GameEvent) => (e.roll ? e.roll.dice?.length ?? 1 : 0);
  const first = preview.events.findIndex((e) => e.type === 'packet');
  expect(first).toBeGreaterThanOrEqual(0);
  script = [...ones];
  script[preview.events.slice(0, first).reduce((n, e) => n + rollsOf(e), 0)] = 6;
  await db.prisma.outgoingMail.deleteMany({ where: { campaignId: id } });
  await resolveOpenTurn(db, id, { expectedTurn: 1, dice: script });
  app = await buildApp({ db, config: {} });
});
afterAll(async () => {
  await app?.close();
  await db?.destroy();
});

describe('a turn with packets', () => {
  it('rolls a d6 at each danger node with the turn\'s dice, logged for the GM alone: one taken on a 6, one passed; a safe route rolls nothing', async () => {
    const events = await db.prisma.event.findMany({ where: { campaignId: id, type: 'packet' }, orderBy: { seq: 'asc' } });
    const data = events.map((e) => e.data as unknown as GameEvent);
    expect(data.map((e) => [e.despatchId, e.nodeId, e.roll?.die, e.roll?.result, e.visibleTo])).toEqual([
      [ids.taken, 'sargasso-sea', 6, 'taken by Great Britain', []],
      [ids.passed, 'sargasso-sea', 1, 'passed', []],
    ]);
    const rows = await db.prisma.despatch.findMany({ where: { campaignId: id } });
    const row = (k: string) => rows.find((r) => r.id === ids[k])!;
    expect(row('taken')).toMatchObject({ interceptedBy: 'british', interceptedNode: 'sargasso-sea', deliveredTurn: 1 });
    expect(row('passed')).toMatchObject({ interceptedBy: null, deliveredTurn: 1 });
    expect(row('safe')).toMatchObject({ interceptedBy: null, deliveredTurn: 1 });
  });

  it('the taker reads it as intercepted; its recipient never; its sender reads it on its way, without the taker', async () => {
    const british = await readDespatches(db, id, { role: 'player', power: 'british' });
    expect(british.find((d) => d.id === ids.taken)).toMatchObject({ direction: 'intercepted', interceptedBy: 'british', interceptedNode: null });
    expect((await readDespatches(db, id, { role: 'player', power: 'american' })).map((d) => d.text)).not.toContain(TAKEN);
    const french = (await readDespatches(db, id, { role: 'player', power: 'french' })).find((d) => d.id === ids.taken)!;
    expect(french).toMatchObject({ direction: 'sent', deliveredAt: null, interceptedBy: null, interceptedNode: null });
    expect((await readDespatches(db, id, { role: 'gm' })).find((d) => d.id === ids.taken)).toMatchObject({ interceptedBy: 'british', interceptedNode: 'sargasso-sea' });
  });

  it('the mailed reports: the taker\'s says intercepted, the recipients\' have what passed and nothing taken', async () => {
    const smtp = await loopbackSmtp();
    try {
      await sendDueMail(db, smtp.transport, { now: () => new Date(Date.now() + 60_000) });
      const report = (p: string) => smtp.received.filter((m) => recipients(m).includes(email(p))).map((m) => m.text ?? '').join('\n');
      expect(report('british')).toContain(`Intercepted at sea: from France, to the United States:\n${TAKEN}`);
      expect(report('british')).not.toContain(PASSED);
      expect(report('american')).not.toContain(TAKEN);
      expect(report('french')).toContain(`From the United States, to France:\n${PASSED}`);
      expect(report('french')).toContain(`From Great Britain, to France:\n${SAFE}`);
      expect(`${report('french')}${report('american')}`).not.toMatch(/Intercepted|Sargasso Sea|Windward/);
    } finally {
      await smtp.close();
    }
  });

  it('the web report of turn 1: the taker\'s lists it as intercepted, the recipient\'s does not have it', async () => {
    const page = async (p: string) => {
      const browser = new PageBrowser(() => app);
      await browser.post(`/c/${slug}/login`, { _csrf: await browser.csrf(`/c/${slug}/login`), password: passwords[p]! });
      return (await browser.get(`/c/${slug}/reports/1`)).body;
    };
    const british = await page('british');
    expect(british).toContain('Intercepted at sea: from France, to the United States:');
    expect(british).toContain(TAKEN);
    const american = await page('american');
    expect(american).not.toContain(TAKEN);
    expect(await page('french')).toContain(PASSED);
  });

  it('replays "same": the packets are stored with the turn, and their rolls come from its dice', async () => {
    const audit = await db.prisma.auditEntry.findFirstOrThrow({ where: { campaignId: id, action: 'turn.resolved' } });
    expect((audit.details as { packets?: { id: string }[] }).packets?.map((p) => p.id)).toEqual([ids.taken, ids.passed, ids.safe]);
    const r = await replayTurn(db, slug, 1);
    expect(r.difference).toBeNull();
    expect(r.same).toBe(true);
  });

  it('a roll-back puts every packet of the turn on its way again, the taken one too (the mails sent stay sent)', async () => {
    const out = await rollbackLastTurn(db, id, 'gm', { turn: 1 });
    expect(out.despatchesOnTheirWayAgain).toBe(3);
    const rows = await db.prisma.despatch.findMany({ where: { campaignId: id } });
    for (const r of rows) expect(r).toMatchObject({ deliveredAt: null, deliveredTurn: null, interceptedBy: null, interceptedNode: null });
    expect((await readDespatches(db, id, { role: 'player', power: 'british' })).map((d) => d.text)).toEqual([SAFE]);
  });
});
