// The paper of the PDF sheets through the API, the GM's pages and the database: A4 unless the
// GM sets US Letter for the campaign (audited, GM only, a bad size refused with the sizes and
// nothing changed); any download link may ask for the other size (?paper=); every PDF of a
// real campaign's battle read back for its page size, nothing off the page, nothing overlapping.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import { auth, campaignWithBattle } from '../support/battleCampaign.js';
import { testDatabase, type TestDatabase } from '../support/db.js';
import { csrfOf, PageBrowser } from '../support/pageBrowser.js';
import { offPage, overlaps, pdfTextBoxes } from '../export/readBack.js';

let db: TestDatabase;
let app: App;

beforeAll(async () => {
  db = await testDatabase();
  app = await buildApp({ db, config: {} });
});
afterAll(async () => { await app?.close(); await db?.destroy(); });

const A4 = [595, 842];
const LETTER = [612, 792];

/** Every page's size (portrait order: short side first), after checking nothing runs off it or prints over other text. */
async function pagesOf(pdf: Buffer): Promise<number[][]> {
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  const pages = await pdfTextBoxes(pdf);
  for (const p of pages) {
    expect(offPage(p)).toEqual([]);
    expect(overlaps(p.boxes)).toEqual([]);
  }
  return pages.map((p) => [p.width, p.height].map(Math.round).sort((a, b) => a - b));
}

describe('the paper of the PDF sheets', () => {
  it('A4 by default; the GM sets Letter for the campaign (audited); a link asks for the other size; a bad size is refused, nothing changed', async () => {
    const c = await campaignWithBattle(app, 'paper-api');
    const pkg = (format: string, who: string, q = '') => app.inject({ url: `/api/campaigns/${c.id}/battles/${c.battle}/package?format=${format}${q}`, headers: auth(who) });
    const sheet = (who: string, q = '') => app.inject({ url: `/api/campaigns/${c.id}/battles/${c.battle}/result-sheet?ruleset=wsim&format=pdf${q}`, headers: auth(who) });

    for (const format of ['wsim-pdf', 'setup-pdf']) {
      const res = await pkg(format, c.gm);
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      for (const size of await pagesOf(res.rawPayload)) expect(size).toEqual(A4);
      const letter = await pkg(format, c.pw.british!, '&paper=letter');
      expect(letter.statusCode, letter.body.slice(0, 200)).toBe(200);
      for (const size of await pagesOf(letter.rawPayload)) expect(size).toEqual(LETTER);
    }
    for (const size of await pagesOf((await sheet(c.pw.french!, '&paper=letter')).rawPayload)) expect(size).toEqual(LETTER);

    const bad = await pkg('wsim-pdf', c.gm, '&paper=legal');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('paper/unknown');
    expect(bad.json().message).toContain('paper: the sheets print on a4 (A4) or letter (US Letter)');
    expect((await sheet(c.gm, '&paper=A5')).statusCode).toBe(400);

    // Only the GM sets the campaign's paper; a bad size changes nothing.
    const put = (who: string, paper: string) => app.inject({ method: 'PUT', url: `/api/campaigns/${c.id}/sheet-paper`, headers: auth(who), payload: { paper } });
    expect((await put(c.pw.british!, 'letter')).statusCode).toBe(403);
    const refused = await put(c.gm, 'tabloid');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('paper/unknown');
    expect((await db.prisma.campaign.findUniqueOrThrow({ where: { id: c.id } })).sheetPaper).toBe('a4');
    const set = await put(c.gm, 'letter');
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ paper: 'letter' });
    const audit = await db.prisma.auditEntry.findMany({ where: { campaignId: c.id, action: 'campaign.sheet_paper' } });
    expect(audit.map((a) => a.details)).toEqual([{ before: 'a4', after: 'letter' }]);

    // Now every sheet prints on Letter unless its link asks for A4.
    for (const size of await pagesOf((await pkg('wsim-pdf', c.pw.french!)).rawPayload)) expect(size).toEqual(LETTER);
    for (const size of await pagesOf((await sheet(c.gm)).rawPayload)) expect(size).toEqual(LETTER);
    for (const size of await pagesOf((await pkg('setup-pdf', c.gm, '&paper=a4')).rawPayload)) expect(size).toEqual(A4);
  });

  it('the GM\'s pages: the paper chosen on the battles page; each PDF link prints on it, the link beside it on the other', async () => {
    const c = await campaignWithBattle(app, 'paper-pages', { slug: 'paper-pages' });
    const gm = new PageBrowser(() => app);
    const token = csrfOf((await gm.get('/c/paper-pages/login')).body);
    expect((await gm.post('/c/paper-pages/login', { _csrf: token, password: c.gm })).statusCode).toBe(303);

    const list = await gm.get('/c/paper-pages/gm/battles');
    expect(list.body).toContain('<option value="a4" selected>A4</option>');
    // Handlebars writes "=" in an attribute as &#x3D;: read the page as a browser would.
    const page = async (url: string) => (await gm.get(url)).body.replaceAll('&#x3D;', '=');
    const show = { body: await page(`/c/paper-pages/gm/battles/${c.battle}`) };
    expect(show.body).toContain("PDFs print on A4, the campaign's paper");
    const letterLink = `/c/paper-pages/gm/battles/${c.battle}/package/wsim-pdf?paper=letter`;
    expect(show.body).toContain(`href="${letterLink}">US Letter</a>`);
    for (const size of await pagesOf((await gm.get(letterLink)).rawPayload)) expect(size).toEqual(LETTER);

    const saved = await gm.post('/c/paper-pages/gm/battles/paper', { _csrf: csrfOf(list.body), paper: 'letter' });
    expect(saved.statusCode, saved.body.slice(0, 300)).toBe(303);
    expect((await gm.get('/c/paper-pages/gm/battles')).body).toContain('<option value="letter" selected>US Letter</option>');
    const again = { body: await page(`/c/paper-pages/gm/battles/${c.battle}`) };
    expect(again.body).toContain(`href="/c/paper-pages/gm/battles/${c.battle}/sheet/btq/pdf?paper=a4">A4</a>`);
    for (const size of await pagesOf((await gm.get(`/c/paper-pages/gm/battles/${c.battle}/sheet/btq/pdf`)).rawPayload)) expect(size.reverse()).toEqual([...LETTER].reverse());

    const refused = await gm.post('/c/paper-pages/gm/battles/paper', { _csrf: csrfOf(list.body), paper: 'legal' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('paper: the sheets print on a4 (A4) or letter (US Letter)');
  });
});
