// The GM can download a whole-campaign archive, and it restores into the same or another
// service; this round trip checks that every table is equal.
// A campaign plays two turns with orders and a battle fought on the abstract table, is
// downloaded, restored into a second, empty service, and every row of every table is
// compared (through Prisma and as PostgreSQL's own JSON of the row). Nothing is ignored;
// the mail queued in the archive comes back cancelled (a restore never sends mail).
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARCHIVED_MODELS, EXCLUDED_MODELS, scopeColumn, UNARCHIVED_COLUMNS } from '../../src/campaign/archive/tables.js';
import { resolveBattleWithTable } from '../../src/campaign/battles.js';
import { proposeTableDates } from '../../src/campaign/battleDeskWrite.js';
import { addAssistant } from '../../src/campaign/addAssistant.js';
import { fileAbsence } from '../../src/campaign/fileAbsence.js';
import { nameStandIn } from '../../src/campaign/nameStandIn.js';
import { linesOf, setStandingOrders } from '../../src/campaign/setStandingOrders.js';
import { sendDespatch } from '../../src/campaign/sendDespatch.js';
import { sendRumour } from '../../src/campaign/sendRumour.js';
import { writeGazette } from '../../src/campaign/writeGazette.js';
import { resolveOpenTurn } from '../../src/campaign/resolveTurn.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { buildApp, type App } from '../../src/http/app.js';
import { makeCampaign, sendOrders } from '../campaign/helpers.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { asRestored } from './restored.js';

let source: TestDatabase;
let target: TestDatabase;
let from: App;
let to: App;
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  source = await testDatabase();
  target = await testDatabase();
  from = await buildApp({ db: source, config: {} });
  to = await buildApp({ db: target, config: {} });
});
afterAll(async () => {
  await from?.close(); await to?.close();
  await source?.destroy(); await target?.destroy();
});

/**
 * Every row of the campaign in one table, read through Prisma. Columns an archive leaves out
 * on purpose (Campaign.stateVersion: a restore takes a fresh number, tables.ts says why) are
 * dropped from the comparison; every other column must be equal.
 */
async function viaPrisma(db: TestDatabase, model: string, id: string) {
  const delegate = (db.prisma as unknown as Record<string, { findMany(a: object): Promise<Record<string, unknown>[]> }>)[model[0]!.toLowerCase() + model.slice(1)]!;
  const rows = await delegate.findMany({ where: { [scopeColumn(model)]: id }, orderBy: { id: 'asc' } });
  return rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !(UNARCHIVED_COLUMNS[model] ?? []).includes(k))));
}

/** The same rows as PostgreSQL renders them (text of every column, not via our archive code). */
async function viaSql(db: TestDatabase, model: string, id: string) {
  const left = (UNARCHIVED_COLUMNS[model] ?? []).map((c) => ` - '${c}'`).join('');
  return db.sql.query(`SELECT (to_jsonb(t)${left})::text AS row FROM "${model}" t WHERE t."${scopeColumn(model)}" = $1 ORDER BY t.id`, [id]);
}

/** A campaign with two turns played, a battle fought, a mail received with orders. */
async function playedCampaign() {
  const c = await makeCampaign(source, { seed: 'archive', battle: true, missions: [{ power: 'british', type: 'idle' }, { power: 'french', type: 'patrol' }] });
  // A crushing victory at the table must not end the campaign before turn 3.
  await source.prisma.campaign.update({ where: { id: c.id }, data: { vpGoal: 1000 } });
  await sendOrders(source, c.id, 'british', 'POWER british\nFORM "Inshore Squadron" FROM HMS Mars, HMS Theseus\nFLEET "Jamaica Squadron": HOLD');
  await sendOrders(source, c.id, 'french', 'POWER french\nFLEET "Escadre de la Martinique": HOLD');
  const first = await resolveOpenTurn(source, c.id, { expectedTurn: 1 });
  expect(first.battles.length).toBeGreaterThan(0);
  // Scripted dice: the action is decided (a winner, prizes and VP), so every table has rows.
  // A table date proposed at the battle desk: its row must travel with the archive.
  await proposeTableDates(source, c.id, first.battles[0]!.id, 'british', [`${new Date().getUTCFullYear() + 1}-01-09 14:00`]);
  // A despatch between powers: its row (text array of recipients included) travels too.
  expect((await sendDespatch(source, c.id, { from: { power: 'british' }, to: ['french'], text: 'Sir, a word.\nÉté 1805.', source: 'api' })).ok).toBe(true);
  // The Gazette (published with turn 2's reports; turn 3's a draft) and a rumour with the GM's note travel too.
  await writeGazette(source, c.id, { text: 'The *Gazette*: news of turn 2.' });
  expect((await sendRumour(source, c.id, { power: 'french', text: 'A rumour.', truth: 'false', basis: 'the GM\'s note' })).power).toBe('french');
  for (const b of first.battles) await resolveBattleWithTable(source, c.id, b.id, { dice: Array.from({ length: 400 }, (_, i) => (i % 2 ? 1 : 6)) });
  // A stored inbound mail (raw bytes, a non-ASCII byte among them) belonging to the campaign.
  await source.prisma.inboundMessage.create({
    data: { campaignId: c.id, messageId: '<archive-test@example.org>', source: 'webhook', raw: Buffer.from('Subject: orders\r\n\r\nPOWER french \xe9\u0000', 'latin1'), sender: 'french@example.org', status: 'handled', handledAt: new Date() },
  });
  await sendOrders(source, c.id, 'american', 'POWER american\nFLEET "Chesapeake Squadron": LEAVE HARBOR');
  // An absence and standing orders (docs/absences.md) travel with the campaign.
  await fileAbsence(source, c.id, 'french', { from: `${new Date().getUTCFullYear() + 1}-02-01`, to: `${new Date().getUTCFullYear() + 1}-02-20`, note: 'at sea' }, 'player:french');
  expect((await setStandingOrders(source, c.id, 'french', linesOf('FLEET "Escadre de la Guadeloupe": STAY IN PORT'), 'player:french')).ok).toBe(true);
  // A stand-in for that absence and an assistant GM (docs/absences.md, docs/gm-guide.md) travel too.
  await nameStandIn(source, c.id, 'french', { email: 'stand-in@example.org' });
  await addAssistant(source, c.id, { email: 'umpire@example.org', role: 'umpire' });
  await resolveOpenTurn(source, c.id, { expectedTurn: 2, seed: 'turn-two' });
  await writeGazette(source, c.id, { text: 'A draft of turn 3.', format: 'plain' });
  return c;
}

describe('campaign archive round trip', () => {
  it('every Prisma model is archived or excluded with a reason, and every archived table is scoped to a campaign', async () => {
    const listed = new Set<string>([...ARCHIVED_MODELS, ...Object.keys(EXCLUDED_MODELS)]);
    const missing = Object.values(Prisma.ModelName).filter((m) => !listed.has(m));
    expect(missing, 'add each new model to ARCHIVED_MODELS or EXCLUDED_MODELS in src/campaign/archive/tables.ts').toEqual([]);
    expect(ARCHIVED_MODELS.filter((m) => m in EXCLUDED_MODELS)).toEqual([]);
    const cols = await source.sql.query<{ table_name: string; column_name: string }>(
      'SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()',
    );
    for (const m of ARCHIVED_MODELS) {
      expect(cols.some((c) => c.table_name === m && c.column_name === scopeColumn(m)), `table "${m}" with column ${scopeColumn(m)}`).toBe(true);
    }
  });

  it('restores into another service with every row of every table equal, and the campaign plays on', async () => {
    const c = await playedCampaign();
    for (const m of ARCHIVED_MODELS) {
      expect((await viaPrisma(source, m, c.id)).length, `the test campaign has rows in ${m}`).toBeGreaterThan(0);
    }
    const gm = c.gmToken;

    const download = await from.inject({ url: `/api/campaigns/${c.id}/archive`, headers: auth(gm) });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/gzip');
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="[a-z0-9-]+-\d{8}T\d{9}Z\.json\.gz"$/);
    const archive = JSON.parse(gunzipSync(download.rawPayload).toString('utf8'));
    expect(archive).toMatchObject({ format: 'sasg-campaign-archive', version: 1, campaign: { id: c.id, turn: 3 } });
    expect(archive.tables.Player[0].passwordHash).toMatch(/\S{20,}/);

    const restored = await to.inject({ method: 'POST', url: '/api/campaigns/restore', payload: download.rawPayload, headers: { 'content-type': 'application/gzip' } });
    expect(restored.statusCode, restored.body).toBe(201);
    expect(restored.json()).toMatchObject({ id: c.id, slug: c.slug, turn: 3, replaced: false });

    // Equal, but for the mail that was queued: restored as cancelled, never sent (restored.ts).
    expect((await viaPrisma(source, 'OutgoingMail', c.id)).some((r) => r.status === 'queued')).toBe(true);
    for (const m of ARCHIVED_MODELS) {
      expect(await viaPrisma(target, m, c.id), m).toEqual((await viaPrisma(source, m, c.id)).map((r) => asRestored(m, r)));
      const sqlRows = async (db: TestDatabase) => (await viaSql(db, m, c.id)).map((r) => (m === 'OutgoingMail' || m === 'InboundMessage' ? asRestored(m, JSON.parse((r as { row: string }).row) as Record<string, unknown>) : r));
      expect(await sqlRows(target), m).toEqual(await sqlRows(source));
    }

    // The same GM token and passwords work there, and turn 3 resolves the same on both.
    expect((await to.inject({ url: `/api/campaigns/${c.id}`, headers: auth(gm) })).statusCode).toBe(200);
    const view = await to.inject({ url: `/api/campaigns/${c.id}/view`, headers: auth(c.passwords.french!) });
    expect(view.json().power).toBe('french');
    const pending = await source.prisma.battle.findMany({ where: { campaignId: c.id, status: 'pending' }, select: { key: true } });
    for (const db of [source, target]) for (const p of pending) await resolveBattleWithTable(db, c.id, p.key, { dice: Array(200).fill(4) });
    const a = await resolveOpenTurn(source, c.id, { expectedTurn: 3, seed: 'turn-three' });
    const b = await resolveOpenTurn(target, c.id, { expectedTurn: 3, seed: 'turn-three' });
    expect(JSON.stringify(b.events)).toBe(JSON.stringify(a.events));
  });
});
