// The turn report mail is one read: the summary, the map, then each battle and sighting
// once; the phase-by-phase log goes as an attachment. Measured as a reader sees it: the
// HTML of a Caribbean turn-2 report (the golden orders: a battle in the Windward Islands)
// drawn by Debian's Chromium at 600 px wide, its map PNG in place of the cid: link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { renderTurnReport } from '../../src/mail/render/index.js';
import { eventsFor, viewFor } from '../../src/rules/view.js';
import { launchChromium, noChromium, why } from '../support/chromium.js';
import { playGolden } from '../support/goldenCaribbean.js';

/** Height of this report before it was cut to one read (measured the same way, at 600 px). */
const BEFORE_PX = 3246;

describe('the turn report mail, read in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => { if (!noChromium) browser = await launchChromium(); });
  afterAll(async () => { await browser?.close(); });

  it.skipIf(noChromium)(`says each battle and sighting once, the log attached, in under half the old height at 600 px (${noChromium ? why : 'chromium found'})`, async () => {
    const { state, events } = playGolden().turns[1]!;
    const mine = eventsFor(events, { role: 'player', power: 'british' });
    expect(state.battles.some((b) => b.turn === 2), 'the typical turn has a battle').toBe(true);
    const mail = await renderTurnReport({
      campaignName: state.name, turn: 2, date: 'February 1805', power: 'british', view: viewFor(state, 'british'), events: mine,
      rerun: false, vpTable: state.vpTable,
      next: { campaignSlug: 'golden', turn: 3, deadline: new Date('2027-03-01T18:00:00Z'), timeZone: 'UTC', ordersAddress: 'orders@sasg.test', webUrl: 'https://sasg.test/c/golden/map' },
    });
    // Each battle and each enemy fleet is named once in the body; the phase log is the attachment.
    const body = mail.html.replace(/<[^>]+>/g, ' ');
    for (const b of state.battles.filter((x) => x.turn === 2)) expect(body.split(`${b.id}:`).length - 1, b.id).toBe(1);
    for (const e of mine.filter((x) => x.type === 'spot' || x.type === 'battle')) expect(body).not.toContain(e.text);
    expect(body).not.toContain('Phase 1');
    const log = mail.attachments.find((a) => a.filename === 'turn-2-log.txt')!;
    const logText = Buffer.from(log.contentBase64, 'base64').toString('utf8');
    for (const e of mine) expect(logText).toContain(e.text);
    expect(mail.text).not.toContain('When the campaign opened');
    // The summary comes before the map, the battles after it.
    expect(mail.html.indexOf('class="summary"')).toBeLessThan(mail.html.indexOf('cid:'));
    expect(mail.html.indexOf('cid:')).toBeLessThan(mail.html.indexOf('>Battles<'));

    const map = mail.attachments[0]!;
    const html = mail.html.replace(`cid:${map.cid}`, `data:image/png;base64,${map.contentBase64}`);
    const page = await browser.newPage({ viewport: { width: 600, height: 800 } });
    await page.setContent(html, { waitUntil: 'load' });
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    await page.close();
    console.log(`turn report at 600 px: ${height} px high (before: ${BEFORE_PX} px)`);
    expect(width).toBeLessThanOrEqual(600);
    expect(height).toBeLessThan(BEFORE_PX / 2);
  });
});
