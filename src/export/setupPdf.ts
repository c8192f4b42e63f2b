/**
 * The setup sheet as a PDF (pdfkit, A4 or US Letter): the same words as the HTML and the table diagram drawn
 * as vector shapes from the same list (setupDiagram.ts), so the two never disagree.
 */
import { arrowHead, diagramShapes, DIAGRAM_HEIGHT, type Shape } from './setupDiagram.js';
import { heading, MARGIN, para, pdfText } from './pdf.js';
import type { SetupSheet } from './setup.js';
import { PDF_SIZE, type Paper } from './paper.js';

type Doc = PDFKit.PDFDocument;

function drawShape(doc: Doc, s: Shape, x0: number, y0: number, k: number): void {
  const p = (q: readonly [number, number]): [number, number] => [x0 + q[0] * k, y0 + q[1] * k];
  if (s.kind === 'poly') {
    const [first, ...rest] = s.points.map(p);
    if (!first) return;
    doc.save().moveTo(first[0], first[1]);
    for (const q of rest) doc.lineTo(q[0], q[1]);
    doc.closePath().lineWidth(0.7).fillOpacity(s.opacity ?? 1).fillAndStroke(s.fill, s.stroke).restore();
  } else if (s.kind === 'line') {
    const a = p(s.from);
    const b = p(s.to);
    doc.save().lineWidth(s.width * k).strokeColor(s.stroke);
    if (s.dash) doc.dash(5, { space: 3 });
    doc.moveTo(a[0], a[1]).lineTo(b[0], b[1]).stroke().undash();
    if (s.arrow) {
      const [h, l, r] = arrowHead(s.from, s.to, 10 + s.width * 2).map(p);
      doc.moveTo(h![0], h![1]).lineTo(l![0], l![1]).lineTo(r![0], r![1]).closePath().fill(s.stroke);
    }
    doc.restore();
  } else {
    const [x, y] = p(s.at);
    const text = pdfText(s.text);
    const size = s.size * k;
    doc.font(s.bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(size).fillColor(s.color ?? '#222222');
    const w = doc.widthOfString(text);
    const left = s.anchor === 'middle' ? x - w / 2 : s.anchor === 'end' ? x - w : x;
    // SVG places text by its baseline; pdfkit by its top.
    doc.text(text, left, y - size * 0.8, { lineBreak: false });
    doc.fillColor('#000000');
  }
}

/** The setup sheet of a battle as a PDF file. */
export async function renderSetupPdf(sheet: SetupSheet, opts: { paper?: Paper } = {}): Promise<Buffer> {
  const { pkg } = sheet;
  const { default: PDFDocument } = await import('pdfkit');
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: PDF_SIZE[opts.paper ?? 'a4'], margin: MARGIN,
      info: { Title: pdfText(`${pkg.campaign}: battle ${pkg.battleId} (setup sheet)`), Author: 'Steady as She Goes!' },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    try {
      heading(doc, `Setup sheet: battle ${pkg.battleId}`, 18);
      para(doc, `${pkg.campaign}: battle ${pkg.battleId}, turn ${pkg.turn}, ${pkg.date}, ${pkg.location.description}.`, { bold: true });
      para(doc, pkg.sides.map((s) => `${s.powerName}${s.attacker ? ' (attacking)' : ''}: ${s.sighted.map((x) => x.name).join(', ') || 'no ships'}`).join('. ') + '.', { size: 9 });
      para(doc, sheet.contactText, { size: 9 });
      doc.moveDown(0.5);
      const k = 0.85;
      const y0 = doc.y;
      for (const s of diagramShapes(sheet)) drawShape(doc, s, MARGIN, y0, k);
      doc.x = MARGIN;
      doc.y = y0 + DIAGRAM_HEIGHT * k + 8;
      para(doc, `${sheet.wind.text}. ${sheet.weatherText}`, { size: 9 });
      if (sheet.gauge) para(doc, `Weather gauge: ${sheet.gauge.text}`, { size: 9 });
      for (const z of sheet.zones) para(doc, `${z.text} Ships: ${z.ships.join(', ')}.`, { size: 9 });
      para(doc, sheet.range.text, { size: 9, bold: true });
      for (const r of sheet.starts) para(doc, r.text, { size: 9 });
      if (sheet.harbor) para(doc, `${sheet.harbor.fort} ${sheet.harbor.shore}`, { size: 9 });
      para(doc, sheet.nightfall.text, { size: 9, bold: true });
      for (const r of sheet.nightfall.rulesets) para(doc, r.text, { size: 9 });
      doc.addPage();
      heading(doc, 'Shoals and drafts', 14);
      para(doc, sheet.shoals.text, { size: 9 });
      para(doc, `"${sheet.shoals.rule}"`, { size: 9 });
      para(doc, `Galleys & Galleons house rules, Sinking: "${sheet.shoals.gng}"`, { size: 9 });
      doc.moveDown(0.3);
      for (const s of sheet.shoals.ships) para(doc, `${s.name} (${s.powerName}, ${s.className}), draft ${s.draft} ft: ${s.text}`, { size: 9 });
      doc.moveDown(0.5);
      para(doc, `Cogs of Valor: "${sheet.cogs}"`, { size: 8 });
      para(doc, sheet.rolls, { size: 8 });
      doc.end();
    } catch (err) {
      reject(err);
    }
  });
}
