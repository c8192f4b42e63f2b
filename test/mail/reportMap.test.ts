// A turn's reports are queued without the campaign's map (nodes, lanes, ship classes: the
// same for every reader, never changed in play) and the mail worker reads it from the
// campaign when it draws them (src/mail/campaignMap.ts). Each player and the GM must get
// exactly the mail they got when every report carried its own copy of the map: the same
// subject, text, HTML and PNG map. Reports queued the old way (a database upgraded with
// mail still queued) are still drawn, and drawn the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveOpenTurn } from '../../src/campaign/resolveTurn.js';
import { loadState } from '../../src/db/campaignStore.js';
import { drawQueuedMail } from '../../src/mail/deferred.js';
import { enqueueMails, type MailToSend } from '../../src/mail/enqueue.js';
import type { CampaignState } from '../../src/rules/state.js';
import { viewFor } from '../../src/rules/view.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { allReady, makeCampaign } from '../campaign/helpers.js';

let db: TestDatabase;
beforeAll(async () => { db = await testDatabase(); });
afterAll(async () => { await db?.destroy(); });

interface Row { id: string; to: string; subject: string; renderKind: string | null; renderInput: unknown; text: string; html: string | null; attachments: unknown }

const rowsOf = async (campaignId: string) => (await db.sql.query<Row>(
  `SELECT id, "to", subject, "renderKind", "renderInput"::text AS "renderInput", text, html, attachments::text AS attachments
     FROM "OutgoingMail" WHERE "campaignId" = $1 AND headers->>'__turnMail' IS NOT NULL ORDER BY "to", subject`, [campaignId]))
  .map((r) => ({ ...r, renderInput: r.renderInput === null ? null : JSON.parse(r.renderInput as string), attachments: JSON.parse(r.attachments as string) }));
const copy = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;
const map = (s: CampaignState) => copy({ nodes: s.nodes, edges: s.edges, shipClasses: s.shipClasses });

describe('turn reports queued without the map', () => {
  it('are drawn for every reader exactly as the reports that carried their map, and such old rows still draw', async () => {
    const c = await makeCampaign(db, { seed: 'report-map', battle: true });
    await db.prisma.campaign.update({ where: { id: c.id }, data: { gmEmail: 'gm@example.org' } });
    await allReady(db, c.id);
    const mapBefore = map(await loadState(db.prisma, c.id));
    const outcome = await resolveOpenTurn(db, c.id, { expectedTurn: 1 });
    expect(outcome.battles.length).toBeGreaterThan(0);
    const state = copy(await loadState(db.prisma, c.id));
    // The turn changed no node, lane or ship class: the map a report is drawn with is the turn's.
    expect(map(state)).toEqual(mapBefore);

    const queued = (await rowsOf(c.id)).filter((r) => r.renderKind === 'turn-report' || r.renderKind === 'gm-report');
    expect(queued.map((r) => r.to)).toEqual(['american@example.org', 'british@example.org', 'french@example.org', 'gm@example.org']);
    // What the old code queued for the same turn: the reader's whole view (the GM: the whole state), map included.
    const old: MailToSend[] = queued.map((r) => {
      const { campaignMap, ...input } = r.renderInput as { campaignMap?: { campaignId: string }; power?: string; view?: Record<string, unknown>; state?: Record<string, unknown> };
      expect(campaignMap).toEqual({ campaignId: c.id });
      if (r.renderKind === 'turn-report') {
        const full = copy(viewFor(state, input.power!));
        expect(input.view).not.toHaveProperty('nodes');
        // Nothing but the map is left out: the rest of the queued view is the reader's view.
        const { nodes: _n, edges: _e, shipClasses: _s, ...rest } = full;
        expect(input.view).toEqual(rest);
        return { campaignId: c.id, to: `old-${r.to}`, subject: r.subject, text: 'old', render: { kind: 'turn-report', input: { ...input, view: full } as never } };
      }
      expect(input.state).not.toHaveProperty('nodes');
      return { campaignId: c.id, to: `old-${r.to}`, subject: r.subject, text: 'old', render: { kind: 'gm-report', input: { ...input, state } as never } };
    });
    // Each queued report is less than half the old one for the built-in campaign.
    for (const [i, r] of queued.entries()) {
      expect(JSON.stringify(r.renderInput).length).toBeLessThan(JSON.stringify(old[i]!.render!.input).length / 1.5);
    }
    await db.prisma.$transaction((tx) => enqueueMails(tx, old.map((m) => ({ ...m, headers: { __turnMail: 'old rows' } }))));

    expect(await drawQueuedMail(db, { campaignId: c.id, kinds: ['turn-report', 'gm-report'] })).toBe(8);
    const drawn = await rowsOf(c.id);
    for (const r of queued) {
      const now = drawn.find((d) => d.id === r.id)!;
      const before = drawn.find((d) => d.to === `old-${r.to}`)!;
      expect(now.renderKind).toBeNull();
      expect(before.renderKind).toBeNull();
      expect(now.text).not.toBe('old');
      expect(now.text).toContain('Turn 1');
      expect(now.subject).toBe(before.subject);
      expect(now.text).toBe(before.text);
      expect(now.html).toBe(before.html);
      // The map PNG (inline and attached) and anything else sent with it, byte for byte.
      expect(now.attachments).toEqual(before.attachments);
      expect(JSON.stringify(now.attachments)).toContain('image/png');
    }
  }, 180_000);
});
