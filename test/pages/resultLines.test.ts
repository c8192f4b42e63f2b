// The GM's result as the result sheet's lines, in one field of the result page (docs/battle-desk.md,
// "The GM's result as the sheet's lines"), on a real database: the field opens with the sheet's
// shape; each bad line comes back with its problem beside it and nothing is stored, whether the
// reader, the conversion or the import's checks refuse it; good lines are stored as the import
// stores them, and the page they lead to shows the battle's result mail on its way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignState } from '../../src/campaign/readCampaign.js';
import { battleCode } from '../../src/export/battleCode.js';
import { battlePackage } from '../../src/export/index.js';
import { buildApp, type App } from '../../src/http/app.js';
import { campaignWithBattle } from '../support/battleCampaign.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { csrfOf, PageBrowser } from '../support/pageBrowser.js';

let db: TestDatabase;
let app: App;
let c: { id: string; battle: string; gm: PageBrowser; french: PageBrowser; code: string; ships: { id: string; name: string; hull: number }[] };
const SLUG = 'result-lines';
const url = () => `/c/${SLUG}/gm/battles/${c.battle}/result`;

/** As the page's templates escape text. */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;', '`': '&#x60;', '=': '&#x3D;' };
const esc = (s: string) => s.replace(/[&<>"'`=]/g, (ch) => ESCAPES[ch]!);

/** The problems the page shows beside line `n` (empty: none). */
function besideLine(html: string, n: number): string {
  const m = new RegExp(`<li value="${n}" data-line="${n}" class="has-problems"><code>[^<]*</code> <ul class="errors">(.*?)</ul></li>`).exec(html);
  return m ? m[1]! : '';
}

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
  const made = await campaignWithBattle(app, 'result-lines', { slug: SLUG });
  const signIn = async (secret: string) => {
    const b = new PageBrowser(() => app);
    const res = await b.post(`/c/${SLUG}/login`, { _csrf: csrfOf((await b.get(`/c/${SLUG}/login`)).body), password: secret });
    expect(res.statusCode).toBe(303);
    return b;
  };
  const pkg = battlePackage(await campaignState(db, made.id), made.battle);
  c = {
    id: made.id, battle: made.battle, gm: await signIn(made.gm), french: await signIn(made.pw.french!), code: battleCode(made.id, made.battle),
    ships: pkg.sides.flatMap((s) => s.ships).map((s) => ({ id: s.id, name: s.name, hull: s.hull.left })),
  };
});
afterAll(async () => { await app?.close(); await db?.destroy(); });

async function post(lines: string) {
  const page = await c.gm.get(url());
  return c.gm.post(`${url()}/lines`, { _csrf: csrfOf(page.body), lines });
}

async function nothingStored() {
  expect((await db.prisma.battle.findFirstOrThrow({ where: { campaignId: c.id, key: c.battle } })).status).toBe('pending');
  const ship = await db.prisma.ship.findFirstOrThrow({ where: { campaignId: c.id, key: c.ships[0]!.id } });
  expect(ship.hull).toBe(c.ships[0]!.hull);
  expect(await db.prisma.outgoingMail.count({ where: { campaignId: c.id, headers: { path: ['__battleMail'], equals: c.battle } } })).toBe(0);
}

describe("the GM's result as the sheet's lines", () => {
  it('opens with the sheet\'s shape: the battle, its code, a line a ship, the winner', async () => {
    const page = await c.gm.get(url());
    expect(page.statusCode).toBe(200);
    const text = /<textarea name="lines"[^>]*>([^<]*)<\/textarea>/.exec(page.body)![1]!;
    const lines = text.split('\n');
    expect(lines[0]).toBe(`BATTLE ${c.battle} RESULT ${c.code} WSIM`);
    for (const s of c.ships) expect(lines).toContain(`${esc(s.name)}: `);
    expect(lines.slice(-2)).toEqual(['Winner: ', 'END BATTLE']);
    // The per-ship form is still there, below.
    expect(page.body).toContain('name="s0.hull"');
  });

  it('puts each problem of the reader beside its line, and stores nothing', async () => {
    const [a, b] = c.ships;
    const res = await post([
      `BATTLE ${c.battle} RESULT ${c.code} WSIM`,
      `${a!.name}: hull x, crew 1`,
      'HMS Nowhere: hull 1',
      `${b!.name}: hull 1, boarded`,
      'Winner: nobody',
      'END BATTLE',
      'Thanks, see you next month',
    ].join('\n'));
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('The result was not stored. Each problem is beside its line below.');
    expect(besideLine(res.body, 1)).toBe('');
    expect(besideLine(res.body, 2)).toContain(`${esc(a!.name)}: ${esc("'x' is not a number of boxes")}`);
    expect(besideLine(res.body, 3)).toContain(esc("there is no ship 'HMS Nowhere'"));
    expect(besideLine(res.body, 4)).toContain(esc("'boarded' is not a measure of the sheet"));
    expect(besideLine(res.body, 5)).toBe('');
    expect(besideLine(res.body, 7)).toContain('this line is outside the result');
    // What was typed comes back in the field, to be put right.
    expect(res.body).toContain('Winner: nobody\nEND BATTLE\nThanks, see you next month</textarea>');
    await nothingStored();
  });

  it('the opening line: another battle, a wrong code, no ruleset, never closed', async () => {
    const rest = [`${c.ships[0]!.name}: hull 1`, 'Winner: nobody', 'END BATTLE'];
    const other = await post([`BATTLE b99 RESULT ${c.code} WSIM`, ...rest].join('\n'));
    expect(other.statusCode).toBe(400);
    expect(besideLine(other.body, 1)).toContain(`these lines are the result of battle b99; this is the result of battle ${c.battle}`);
    const code = await post([`BATTLE ${c.battle} RESULT ZZ-ZZZZ WSIM`, ...rest].join('\n'));
    expect(code.statusCode).toBe(400);
    expect(besideLine(code.body, 1)).not.toBe('');
    expect(besideLine(code.body, 2)).toBe('');
    const ruleset = await post([`BATTLE ${c.battle} RESULT ${c.code}`, ...rest].join('\n'));
    expect(besideLine(ruleset.body, 1)).toContain('write the battle, its code');
    const open = await post([`BATTLE ${c.battle} RESULT ${c.code} WSIM`, ...rest.slice(0, 2)].join('\n'));
    expect(besideLine(open.body, 1)).toContain('never closed with END BATTLE');
    const none = await post('hull 2 for the flagship');
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain(`write the result sheet${esc("'")}s lines, opening with BATTLE ${c.battle} RESULT`);
    await nothingStored();
  });

  it("the import's own checks: a ship losing more than she had, a winner left out", async () => {
    const a = c.ships[0]!;
    const res = await post([`BATTLE ${c.battle} RESULT ${c.code} WSIM`, `${a.name}: hull ${a.hull + 5}`, 'Winner: ', 'END BATTLE'].join('\n'));
    expect(res.statusCode).toBe(400);
    expect(besideLine(res.body, 3)).toContain(esc("write who won after 'Winner:'"));
    const over = await post([`BATTLE ${c.battle} RESULT ${c.code} WSIM`, `${a.name}: hull ${a.hull + 5}`, 'Winner: nobody', 'END BATTLE'].join('\n'));
    expect(over.statusCode).toBe(400);
    expect(besideLine(over.body, 2)).toContain(esc(a.name));
    expect(besideLine(over.body, 3)).toBe('');
    await nothingStored();
  });

  it('stores good lines as the import does, and the page it leads to follows the result mail', async () => {
    expect((await c.french.get(`/c/${SLUG}/gm/mail/progress?turn=1`)).statusCode).toBe(403);
    const a = c.ships[0]!;
    const res = await post([`BATTLE ${c.battle} RESULT ${c.code} WSIM`, `- ${a.name}: hull 1`, '', 'Winner: nobody', 'END BATTLE'].join('\n'));
    expect(res.statusCode, res.body.slice(0, 800)).toBe(303);
    expect(res.headers.location).toBe(`/c/${SLUG}/gm/battles/${c.battle}?imported=1`);
    const state = await campaignState(db, c.id);
    const battle = state.battles.find((b) => b.id === c.battle)!;
    expect(battle.status).toBe('resolved');
    expect(battle.result?.winner).toBeNull();
    expect(battle.result?.ships.find((s) => s.shipId === a.id)).toMatchObject({ hullLost: 1 });
    const audit = await db.prisma.auditEntry.findFirstOrThrow({ where: { campaignId: c.id, action: 'battle.result_imported' } });
    expect(audit.actor).toBe('gm');

    const shown = await c.gm.get(res.headers.location as string);
    const queued = await db.prisma.outgoingMail.count({ where: { campaignId: c.id, headers: { path: ['__battleMail'], equals: c.battle } } });
    expect(queued).toBe(2); // the two sides that fought
    expect(shown.body).toMatch(new RegExp(`<p class="battle-mail" data-sent="0" data-total="2" data-failed="0">The result of battle ${c.battle} to the players who fought: <strong>0 of 2 sent</strong>, 2 still to send`));
    expect(shown.body).toContain(`data-mail-progress="${esc(`/c/${SLUG}/gm/mail/progress?turn=1&battle=${c.battle}`)}" data-done="no"`);
    // The line the page asks for again until the worker has sent it all (its sending, live,
    // is the browser test's: test/pages/gmMonthlyTurn.browser.test.ts).
    const again = await c.gm.get(`/c/${SLUG}/gm/mail/progress?turn=1&battle=${c.battle}`);
    expect(again.statusCode).toBe(200);
    expect(again.body.trim()).toMatch(/^<div class="mail-progress" data-mail-progress="[^"]+" data-done="no"/);
    expect(again.body).toContain('<strong>0 of 2 sent</strong>');
    expect(again.body).not.toContain('<html');
    // Stored: the lines form is gone (a correction is the per-ship form's).
    const result = await c.gm.get(url());
    expect(result.body).not.toContain('name="lines"');
    expect((await c.gm.post(`${url()}/lines`, { _csrf: csrfOf(result.body), lines: 'x' })).statusCode).toBe(409);
  });
});
