// Mail rendering: the orders checker's reply, the turn reports, the welcome mail.
// Built from a real campaign (createCampaign, setPlayer, submitOrders) on a real database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaign } from '../../src/campaign/createCampaign.js';
import { setPlayer } from '../../src/campaign/players.js';
import { submitOrders, type OrdersCheck } from '../../src/campaign/submitOrders.js';
import { loadState } from '../../src/db/campaignStore.js';
import { renderGmReport, renderOrdersCheck, renderTurnReport, renderWelcome } from '../../src/mail/render/index.js';
import { parseOrders } from '../../src/orders/index.js';
import { seededDice } from '../../src/rules/dice.js';
import type { GameEvent } from '../../src/rules/events.js';
import { resolveTurn } from '../../src/rules/resolve.js';
import type { CampaignState } from '../../src/rules/state.js';
import { validateOrders } from '../../src/rules/validateOrders.js';
import { eventsFor, viewFor } from '../../src/rules/view.js';
import { testDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let campaignId: string;
let slug: string;
let state: CampaignState;
let password: string;

beforeAll(async () => {
  db = await testDatabase();
  const made = await createCampaign(db, { scenario: 'caribbean', seed: 'render' });
  campaignId = made.id;
  slug = made.slug;
  password = (await setPlayer(db, campaignId, 'british', { name: 'Horatio <Nelson>', email: 'horatio@example.org' })).password;
  state = await loadState(db.prisma, campaignId);
});

afterAll(async () => { await db?.destroy(); });

const nodeName = (id: string) => state.nodes.find((n) => n.id === id)?.name ?? id;
const fleetName = (id: string) => state.fleets.find((f) => f.id === id)?.name ?? id;
/** As Handlebars escapes text in HTML. */
const html = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;').replace(/`/g, '&#x60;').replace(/=/g, '&#x3D;');
const ctx = () => ({ campaignName: state.name, powerName: 'Great Britain', nodeName, fleetName });

describe('renderOrdersCheck', () => {
  let check: OrdersCheck;
  beforeAll(async () => {
    check = await submitOrders(db, campaignId, 'british', {
      source: 'email',
      text: [
        'POWER british',
        `PASSWORD ${password}`,
        'FLEET "Jamaica Squadron": MOVE off-morant-point jamaica-channel',
        'FLEET "Leeward Islands Squadron": MOVE nowhere-at-all',
        'Thanks! <script>alert(1)</script>',
        'FLEET "Jamaica Squadron": MISSION',
      ].join('\n'),
    });
  });

  it('lists each error and warning with its line, and says "has errors"', () => {
    expect(check.status).toBe('has_errors');
    const mail = renderOrdersCheck(check, ctx());
    expect(mail.subject).toMatch(/orders for turn 1: has errors \(1\)/);
    expect(mail.text).toContain('STATUS: HAS ERRORS');
    expect(check.errors.length).toBeGreaterThan(0);
    for (const e of check.errors) {
      expect(e.line).toBe(4);
      expect(mail.text).toContain(`line 4: ${e.message}`);
    }
    for (const w of check.warnings) expect(mail.text).toContain(`line ${w.line}: ${w.message}`);
    expect(mail.text).toMatch(/line 5: .*Thanks!/);
    // The password never comes back.
    expect(mail.text).not.toContain(password);
    expect(mail.html).not.toContain(password);
    expect(mail.text).toContain('PASSWORD ****');
  });

  it('shows how far each fleet gets, phase by phase, with the trade-wind step marked', () => {
    const mail = renderOrdersCheck(check, ctx());
    expect(mail.text).toContain('Jamaica Squadron (4 mp, 4 used)');
    expect(mail.text).toMatch(/phase 1: Kingston \(Jamaica\) \(in harbor\) — waits/);
    expect(mail.text).toContain('phase 3: Kingston (Jamaica) — leaves harbor');
    expect(mail.text).toContain(`phase 4: ${nodeName('off-morant-point')} — Kingston (Jamaica) → ${nodeName('off-morant-point')}`);
    // Phase 5 pays half the trade-wind step, phase 6 completes it: both marked "~".
    expect(mail.text).toMatch(new RegExp(`~ +phase 5: ${nodeName('off-morant-point')} — halfway to ${nodeName('jamaica-channel')} against the trade wind`));
    expect(mail.text).toMatch(new RegExp(`~ +phase 6: ${nodeName('jamaica-channel')} — .*against the trade wind, 2 mp`));
    expect(mail.text).toContain(`=> ends the turn at ${nodeName('jamaica-channel')} (at sea)`);
    expect(mail.html).toContain('<tr class="wind"');
  });

  it('echoes the orders as read; the HTML escapes what the player wrote', () => {
    const mail = renderOrdersCheck(check, ctx());
    expect(mail.text).toMatch(/ {3}4 {2}FLEET "Leeward Islands Squadron": MOVE nowhere-at-all +\[ERROR\]/);
    expect(mail.text).toContain('Thanks! <script>alert(1)</script>');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('Thanks! &lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('says "ready" for clean orders', async () => {
    const ok = await submitOrders(db, campaignId, 'british', { source: 'web', text: 'POWER british\nFLEET "Jamaica Squadron": HOLD\nFLEET "Jamaica Squadron": MISSION' });
    const mail = renderOrdersCheck(ok, ctx());
    expect(ok.status).toBe('ready');
    expect(mail.subject).toMatch(/orders for turn 1: ready$/);
    expect(mail.text).toContain('STATUS: READY');
    expect(mail.html).toContain('<strong>Ready.</strong>');
    expect(mail.text).not.toContain('Errors (');
  });
});

describe('renderTurnReport', () => {
  /** A turn: the Jamaica Squadron (renamed "<b>x</b>") sails to Off Morant Point; with `meet`, the Guadeloupe squadron waits there. */
  function resolved(meet = false): { after: CampaignState; events: GameEvent[] } {
    const s = structuredClone(state);
    s.fleets.find((f) => f.name === 'Jamaica Squadron')!.name = '<b>x</b>';
    if (meet) Object.assign(s.fleets.find((f) => f.name === 'Escadre de la Guadeloupe')!, { at: 'off-morant-point', inHarbor: false });
    const british = parseOrders('POWER british\nFLEET "<b>x</b>": MOVE off-morant-point\nFLEET "<b>x</b>": MISSION', s, { power: 'british' });
    const french = parseOrders('POWER french\nFLEET "Escadre de la Martinique": MOVE lee-of-martinique\nFLEET "Escadre de la Martinique": MISSION', s, { power: 'french' });
    expect(british.errors).toEqual([]);
    const r = resolveTurn(s, [british.orders!, french.orders!], seededDice('report'));
    if (!r.ok) throw new Error(r.error.message);
    return { after: r.state, events: r.events };
  }

  it('reports only the events given (cut to the reader), grouped by phase, with escaped HTML', async () => {
    const { after, events } = resolved();
    const mine = eventsFor(events, { role: 'player', power: 'british' });
    const theirs = events.filter((e) => !e.visibleTo.includes('british'));
    expect(theirs.length).toBeGreaterThan(0);
    const mail = await renderTurnReport({
      campaignName: after.name, turn: 1, date: 'January 1805', power: 'british',
      view: viewFor(after, 'british'), events: mine, rerun: false, vpTable: after.vpTable,
    });
    expect(mail.subject).toBe(`[${after.name}] Turn 1 report — Great Britain`);
    // The phase-by-phase log is the text attachment; the body says each thing once.
    const log = Buffer.from(mail.attachments.find((a) => a.filename === 'turn-1-log.txt')!.contentBase64, 'base64').toString('utf8');
    for (const e of mine) expect(log).toContain(e.text);
    for (const e of theirs) expect(log + mail.text).not.toContain(e.text);
    expect(mail.text).not.toContain('Escadre de la Martinique');
    expect(log).toMatch(/Phase 3\n {2}- <b>x<\/b> left harbor/);
    expect(log).toMatch(/Phase 4\n {2}- <b>x<\/b> moved from Kingston/);
    expect(log).toContain('After sailing');
    expect(mail.text).toContain('what happened, phase by phase, as text (turn-1-log.txt)');
    expect(mail.text).toMatch(/VICTORY POINTS \(goal 25\)/);
    expect(mail.text).toContain('MISSION');
    // HTML: the fleet's name is text, never markup.
    expect(mail.html).not.toContain('<b>x</b>');
    expect(mail.html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(mail.text).not.toContain('RE-RUN');
  });

  it('drops an event not visible to the reader even when handed one (second lock)', async () => {
    const { after } = resolved();
    const secret: GameEvent = { type: 'move', phase: 2, visibleTo: ['french'], text: 'The French slip out of Fort-de-France unseen' };
    const mail = await renderTurnReport({
      campaignName: after.name, turn: 1, date: 'January 1805', power: 'british',
      view: viewFor(after, 'british'), events: [secret], rerun: false,
    });
    expect(mail.text).not.toContain('slip out');
    expect(mail.html).not.toContain('slip out');
  });

  it('marks a re-run in the subject and the body, and attaches the map inline', async () => {
    const { after, events } = resolved();
    const mail = await renderTurnReport({
      campaignName: after.name, turn: 1, date: 'January 1805', power: 'british',
      view: viewFor(after, 'british'), events: eventsFor(events, { role: 'player', power: 'british' }), rerun: true,
    });
    expect(mail.subject).toMatch(/Turn 1 report \(RE-RUN/);
    expect(mail.text).toContain('*** RE-RUN ***');
    expect(mail.html).toContain('class="rerun"');
    expect(mail.attachments.map((a) => a.filename)).toEqual(['map-turn-1-british.png', 'map-turn-1.png', 'turn-1-log.txt']);
    const [map, file] = mail.attachments;
    // A PNG (every mail client shows one) in the body, and the same map with the Lesser
    // Antilles inset under it as the attached map-turn-1.png.
    expect(map!.contentType).toBe('image/png');
    expect(file!.contentType).toBe('image/png');
    expect(file!.cid).toBeUndefined();
    expect(mail.html).toContain(`<img src="cid:${map!.cid}"`);
    expect(mail.html).not.toContain('<svg');
    const png = Buffer.from(map!.contentBase64, 'base64');
    const whole = Buffer.from(file!.contentBase64, 'base64');
    for (const p of [png, whole]) {
      expect(p.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect(p.readUInt32BE(16)).toBe(1100);
    }
    // The inset is a band as tall as most of the map, under it.
    expect(whole.readUInt32BE(20)).toBeGreaterThan(png.readUInt32BE(20) * 1.5);
    expect(mail.text).toContain('The map of what you know is attached as a picture (map-turn-1.png)');
  });

  it("tells the player the next deadline in their own time zone and the exact first lines of their orders, never the password", async () => {
    const { after, events } = resolved();
    const mail = await renderTurnReport({
      campaignName: after.name, turn: 1, date: 'January 1805', power: 'british',
      view: viewFor(after, 'british'), events: eventsFor(events, { role: 'player', power: 'british' }), rerun: false,
      next: { campaignSlug: slug, turn: 2, deadline: new Date('2027-01-05T18:00:00Z'), timeZone: 'America/New_York', ordersAddress: 'orders@sasg.test', webUrl: 'https://sasg.test/c/x/map' },
    });
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('Orders for turn 2 are due by Tuesday, 5 January 2027 at 13:00 GMT-5 (America/New_York).');
      expect(part).toContain('https://sasg.test/c/x/map');
    }
    expect(mail.text).toContain(`    CAMPAIGN ${slug}\n    POWER british\n    PASSWORD <your password>\n    TURN 2\n`);
    expect(mail.html).toContain(`CAMPAIGN ${slug}\nPOWER british\nPASSWORD &lt;your password&gt;\nTURN 2`);
    expect(mail.text).toContain('Reply to this mail, or write to orders@sasg.test');
    expect(mail.text).not.toContain(password);

    const noDeadline = await renderTurnReport({
      campaignName: after.name, turn: 1, date: 'January 1805', power: 'british', view: viewFor(after, 'british'), events: [], rerun: false,
      next: { campaignSlug: slug, turn: 2, deadline: null, timeZone: 'UTC' },
    });
    expect(noDeadline.text).toContain('The GM has not set the deadline for turn 2 yet');
  });

  it('reports what the power sighted, and nothing of fleets it did not see', async () => {
    const { after, events } = resolved(true);
    const mine = eventsFor(events, { role: 'player', power: 'british' });
    expect(mine.some((e) => e.type === 'spot')).toBe(true);
    const mail = await renderTurnReport({
      campaignName: after.name, turn: 1, date: 'January 1805', power: 'british',
      view: viewFor(after, 'british'), events: mine, rerun: false,
    });
    // Each enemy fleet once, under Sightings (the phase log's spot lines are in the attachment).
    const sightings = mail.text.split('SIGHTINGS')[1]!.split('\n\n')[0]!;
    expect(sightings.split('Escadre de la Guadeloupe').length - 1).toBe(1);
    for (const e of mine.filter((x) => x.type === 'spot')) expect(mail.text).not.toContain(e.text);
    expect(mail.text).toContain('Escadre de la Guadeloupe');
    expect(mail.text).not.toContain('Chesapeake Squadron');
    expect(mail.text).not.toContain('Gulf Squadron');
  });

  it("the GM's report has the full log and every roll with its purpose, die, modifier and total", async () => {
    const { after, events } = resolved(true);
    const mail = await renderGmReport({ campaignName: after.name, turn: 1, date: 'January 1805', state: after, events, rerun: false, dice: { seed: 'report', source: 'gm', seedHash: null }, missingOrders: ['american'] });
    for (const e of events) expect(mail.text).toContain(e.text);
    const rolls = events.filter((e) => e.roll);
    expect(rolls.length).toBeGreaterThan(0);
    for (const e of rolls) {
      expect(mail.text).toContain(e.roll!.purpose);
      const purpose = html(e.roll!.purpose).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const mod = e.roll!.modifier >= 0 ? `\\+${e.roll!.modifier}` : String(e.roll!.modifier);
      expect(mail.html).toMatch(new RegExp(`<td[^>]*>${purpose}</td><td[^>]*>${e.roll!.die}</td><td[^>]*>${mod}</td><td[^>]*>${e.roll!.total}</td>`));
    }
    expect(mail.text).toContain('Seeded dice, seed report, given by the GM. It is not the seed whose hash was published before the turn');
    expect(mail.text).toContain('Held for want of clean orders: United States');
    expect(mail.text).toContain('Escadre de la Martinique');
    expect(mail.html).not.toContain('<b>x</b>');
  });
});

describe('renderWelcome', () => {
  it('gives the power, the password, the deadline, the orders language and every node name', async () => {
    const view = viewFor(state, 'british');
    const mail = await renderWelcome({
      campaignName: state.name, campaignSlug: slug, power: 'british', playerName: 'Horatio <Nelson>', password,
      deadline: new Date('2026-03-01T18:00:00Z'), view, ordersAddress: 'orders@sasg.test',
    });
    expect(mail.subject).toBe(`[${state.name}] Welcome: you command Great Britain`);
    expect(mail.text).toContain(`YOUR PASSWORD: ${password}`);
    expect(mail.html).toContain(password);
    expect(mail.text).toContain('1 March 2026 at 18:00 UTC');
    expect(mail.text).toContain('orders@sasg.test');
    expect(mail.text).toContain('FLEET <fleet>: MOVE <node> <node> ... [HARBOR]');
    for (const n of state.nodes) {
      expect(mail.text).toContain(`${n.name} — ${n.id}`);
    }
    expect(mail.html).toContain('Dear Horatio &lt;Nelson&gt;,');
    expect(mail.html).toContain('FLEET &lt;fleet&gt;: MOVE');
    expect(mail.attachments[0]!.contentType).toBe('image/png');
    expect(mail.html).toContain(`cid:${mail.attachments[0]!.cid}`);
  });

  it('its example orders are valid orders for this player', async () => {
    const view = viewFor(state, 'british');
    const mail = await renderWelcome({ campaignName: state.name, campaignSlug: slug, power: 'british', playerName: 'H', password, deadline: null, view });
    const block = mail.text.split('For example:\n\n')[1]!.split('\n\n')[0]!;
    const text = block.split('\n').map((l) => l.trim()).join('\n');
    expect(text).toMatch(/^CAMPAIGN /);
    const parsed = parseOrders(text, state, { power: 'british', campaign: { id: campaignId, slug } });
    expect(parsed.errors).toEqual([]);
    expect(validateOrders(state, parsed.orders!)).toEqual([]);
    expect(mail.text).toContain('The GM will tell you the deadline');
  });
});
