/**
 * The ship cards as a PDF (pdfkit, A4 or US Letter): two cards a row, each in a ruled border,
 * a card never split across pages; every page has the campaign and battle at its head.
 */
import type { BattlePackage } from './json.js';
import { CARD_TITLES, sightedNotes, vesselCards, type CardRuleset, type VesselCard } from './cards.js';
import { MARGIN, pdfText } from './pdf.js';
import { PDF_SIZE, type Paper } from './paper.js';

type Doc = PDFKit.PDFDocument;

const GUTTER = 12;
const PAD = 6;
const BOX = 9;

function head(doc: Doc, pkg: BattlePackage, ruleset: CardRuleset): void {
  doc.font('Helvetica').fontSize(8).fillColor('#444')
    .text(pdfText(`${pkg.campaign}: battle ${pkg.battleId}, turn ${pkg.turn}, ${pkg.date}  |  ${CARD_TITLES[ruleset]}`), MARGIN, MARGIN - 22, { lineBreak: false });
  doc.fillColor('#000');
}

/** Draw (or, with `draw` false, only measure) one card at (x, y), `w` wide; returns its height. */
function card(doc: Doc, c: VesselCard, x: number, y: number, w: number, draw: boolean): number {
  const inner = w - 2 * PAD;
  let cy = y + PAD;
  const line = (text: string, font: string, size: number) => {
    doc.font(font).fontSize(size);
    const t = pdfText(text);
    const h = doc.heightOfString(t, { width: inner });
    if (draw) doc.text(t, x + PAD, cy, { width: inner });
    cy += h + 1;
  };
  line(c.side, 'Helvetica', 7);
  line(c.name, 'Helvetica-Bold', 12);
  line(c.subtitle, 'Helvetica', 8);
  line(c.stats.map((s) => `${s.label} ${s.value}`).join('    '), 'Helvetica-Bold', 11);
  for (const t of c.tracks) {
    doc.font('Helvetica').fontSize(8);
    const label = pdfText(`${t.label} ${t.left}/${t.capacity}`);
    const labelW = Math.min(inner * 0.55, doc.widthOfString(label) + 4);
    const perLine = Math.max(1, Math.floor((inner - labelW) / (BOX + 2)));
    const lines = Math.max(1, Math.ceil(t.boxes.length / perLine));
    const textH = doc.heightOfString(label, { width: labelW });
    if (draw) {
      doc.text(label, x + PAD, cy, { width: labelW });
      t.boxes.forEach((b, i) => {
        const bx = x + PAD + labelW + (i % perLine) * (BOX + 2);
        const by = cy + Math.floor(i / perLine) * (BOX + 2);
        doc.lineWidth(0.6).rect(bx, by, BOX, BOX).stroke();
        if (b.lost) doc.moveTo(bx, by).lineTo(bx + BOX, by + BOX).moveTo(bx + BOX, by).lineTo(bx, by + BOX).stroke();
      });
    }
    cy += Math.max(textH, lines * (BOX + 2)) + 2;
  }
  for (const l of c.lines) line(`- ${l}`, 'Helvetica', 7.5);
  const h = cy - y + PAD - 1;
  if (draw) doc.lineWidth(1.2).rect(x, y, w, h).stroke();
  return h;
}

export async function renderCardsPdf(pkg: BattlePackage, ruleset: CardRuleset, opts: { paper?: Paper } = {}): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: PDF_SIZE[opts.paper ?? 'a4'], margin: MARGIN,
      info: { Title: pdfText(`${pkg.campaign}: battle ${pkg.battleId} (${CARD_TITLES[ruleset]})`), Author: 'Steady as She Goes!' },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (ch: Buffer) => chunks.push(ch));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    try {
      const width = doc.page.width - 2 * MARGIN;
      const w = (width - GUTTER) / 2;
      const bottom = doc.page.height - MARGIN;
      head(doc, pkg, ruleset);
      doc.font('Helvetica-Bold').fontSize(16).text(pdfText(CARD_TITLES[ruleset]), MARGIN, MARGIN, { width });
      doc.font('Helvetica').fontSize(9).text(pdfText(`${pkg.campaign}: battle ${pkg.battleId}, turn ${pkg.turn}, ${pkg.date}, ${pkg.location.description}. One card per vessel: cut along the borders.`), MARGIN, doc.y, { width });
      for (const note of sightedNotes(pkg)) doc.text(pdfText(note), MARGIN, doc.y, { width });
      let y = doc.y + 8;
      const cards = vesselCards(pkg, ruleset);
      for (let i = 0; i < cards.length; i += 2) {
        const row = cards.slice(i, i + 2);
        const h = Math.max(...row.map((c) => card(doc, c, 0, 0, w, false)));
        if (y + h > bottom) {
          doc.addPage();
          head(doc, pkg, ruleset);
          y = MARGIN;
        }
        row.forEach((c, k) => card(doc, c, MARGIN + k * (w + GUTTER), y, w, true));
        y += h + GUTTER;
      }
      doc.end();
    } catch (err) {
      reject(err);
    }
  });
}
