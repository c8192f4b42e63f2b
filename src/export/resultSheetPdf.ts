/**
 * A result sheet as a printable PDF (pdfkit, A4 or US Letter, landscape): the same model as the HTML
 * (resultSheet.ts). Every page carries the battle code at its head and its foot, so a page
 * cut from the rest still says which battle it is; signature lines for each side's captain.
 */
import type { BattlePackage } from './json.js';
import { pdfText } from './pdf.js';
import { resultSheet, type ResultSheet, type SheetRow } from './resultSheet.js';
import type { Ruleset } from './convert/index.js';
import { PDF_SIZE, type Paper } from './paper.js';

const MARGIN = 36;
const ROW = 34;
const NAME_W = 130;
const FATE_W = 150;

type Doc = PDFKit.PDFDocument;

function runningHead(doc: Doc, sheet: ResultSheet): void {
  const { x, y } = doc;
  const bottom = doc.page.margins.bottom;
  doc.page.margins.bottom = 0;
  doc.font('Helvetica').fontSize(8).fillColor('#333')
    .text(pdfText(`Battle code ${sheet.code}  |  ${sheet.head}  |  ${sheet.rulesetName} result sheet`), MARGIN, MARGIN - 20, { lineBreak: false })
    .text(pdfText(`Battle code ${sheet.code}`), MARGIN, doc.page.height - MARGIN + 8, { lineBreak: false });
  doc.fillColor('#000');
  doc.page.margins.bottom = bottom;
  doc.x = x;
  doc.y = y;
}

function ensure(doc: Doc, height: number): void {
  if (doc.y + height > doc.page.height - MARGIN) {
    doc.addPage();
    doc.y = MARGIN;
  }
}

function header(doc: Doc, columns: string[], last: string): void {
  ensure(doc, ROW * 2);
  const w = (doc.page.width - 2 * MARGIN - NAME_W - FATE_W) / Math.max(1, columns.length);
  const y = doc.y;
  doc.font('Helvetica-Bold').fontSize(7.5);
  doc.text('Ship', MARGIN + 2, y + 2, { width: NAME_W - 4 });
  columns.forEach((c, i) => doc.text(pdfText(c), MARGIN + NAME_W + i * w + 2, y + 2, { width: w - 4 }));
  doc.text(pdfText(last), MARGIN + NAME_W + columns.length * w + 2, y + 2, { width: FATE_W - 4 });
  doc.font('Helvetica');
  doc.y = y + 22;
}

function row(doc: Doc, r: SheetRow, columns: number, fates: string[]): void {
  ensure(doc, ROW);
  const w = (doc.page.width - 2 * MARGIN - NAME_W - FATE_W) / Math.max(1, columns);
  const y = doc.y;
  doc.lineWidth(0.6).rect(MARGIN, y, doc.page.width - 2 * MARGIN, ROW).stroke();
  doc.font('Helvetica-Bold').fontSize(8.5).text(pdfText(r.name), MARGIN + 2, y + 3, { width: NAME_W - 4, lineBreak: false });
  doc.font('Helvetica').fontSize(7).fillColor('#555').text(pdfText(r.detail), MARGIN + 2, y + 15, { width: NAME_W - 4, lineBreak: false }).fillColor('#000');
  r.cells.forEach((c, i) => {
    const x = MARGIN + NAME_W + i * w;
    doc.lineWidth(0.6).moveTo(x, y).lineTo(x, y + ROW).stroke();
    doc.font('Helvetica').fontSize(c.write ? 7 : 10).fillColor(c.write ? '#777' : '#000').text(pdfText(c.text), x + 3, y + 3, { width: w - 6, lineBreak: false }).fillColor('#000');
  });
  const fx = MARGIN + NAME_W + columns * w;
  doc.lineWidth(0.6).moveTo(fx, y).lineTo(fx, y + ROW).stroke();
  fates.forEach((f, i) => {
    const bx = fx + 3 + (i % 2) * (FATE_W / 2);
    const by = y + 3 + Math.floor(i / 2) * 10;
    doc.lineWidth(0.6).rect(bx, by, 6, 6).stroke();
    doc.fontSize(6.5).text(pdfText(f), bx + 9, by - 0.5, { lineBreak: false });
  });
  doc.x = MARGIN;
  doc.y = y + ROW;
}

function para(doc: Doc, text: string, size = 9, bold = false): void {
  doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(size).text(pdfText(text), MARGIN, doc.y, { width: doc.page.width - 2 * MARGIN });
  doc.font('Helvetica');
}

export async function renderResultSheetPdf(pkg: BattlePackage, ruleset: Ruleset, code: string, opts: { paper?: Paper } = {}): Promise<Buffer> {
  const sheet = resultSheet(pkg, ruleset, code);
  const { default: PDFDocument } = await import('pdfkit');
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: PDF_SIZE[opts.paper ?? 'a4'], layout: 'landscape', margin: MARGIN,
      info: { Title: pdfText(`${pkg.campaign}: battle ${pkg.battleId} (${sheet.title}, ${code})`), Author: 'Steady as She Goes!' },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.on('pageAdded', () => runningHead(doc, sheet));
    try {
      runningHead(doc, sheet);
      para(doc, sheet.title, 16, true);
      para(doc, `${sheet.head}. Battle code ${sheet.code}: the import checks it.`, 10);
      for (const side of sheet.sides) {
        doc.moveDown(0.6);
        ensure(doc, ROW * 3);
        para(doc, `${side.powerName} (${side.roleText})`, 11, true);
        header(doc, sheet.columns, 'Fate (tick one; taken: by whom)');
        for (const r of side.rows) row(doc, r, sheet.columns.length, sheet.fates);
      }
      if (sheet.fort) {
        doc.moveDown(0.6);
        ensure(doc, ROW * 3);
        para(doc, 'The fort', 11, true);
        header(doc, sheet.fort.columns, 'Surrendered');
        row(doc, sheet.fort.row, sheet.fort.columns.length, ['yes', 'no']);
      }
      doc.moveDown(0.6);
      ensure(doc, 30 + 26 * sheet.signatures.length);
      para(doc, `Winner (tick one):  ${sheet.winners.map((w) => `[  ] ${w}`).join('    ')}`, 10);
      doc.moveDown(0.6);
      para(doc, 'Signed by both captains', 11, true);
      for (const side of sheet.signatures) {
        const y = doc.y + 16;
        doc.fontSize(9).text(pdfText(`For ${side}:`), MARGIN, y - 9, { lineBreak: false });
        doc.lineWidth(0.6).moveTo(MARGIN + 140, y).lineTo(MARGIN + 400, y).stroke().moveTo(MARGIN + 420, y).lineTo(MARGIN + 560, y).stroke();
        doc.fontSize(6.5).fillColor('#555').text('captain\'s name and signature', MARGIN + 140, y + 2, { lineBreak: false }).text('date', MARGIN + 420, y + 2, { lineBreak: false }).fillColor('#000');
        doc.x = MARGIN;
        doc.y = y + 12;
      }
      doc.moveDown(0.6);
      for (const h of sheet.howTo) { ensure(doc, 24); para(doc, h, 8); }
      doc.end();
    } catch (err) {
      reject(err);
    }
  });
}
