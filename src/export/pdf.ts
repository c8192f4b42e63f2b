/**
 * WS&IM ship logs as a printable PDF (pdfkit): a first page with the battle (date, place,
 * sides, weather, victory conditions), then one page per ship and one for the fort. Boxes
 * are drawn; lost boxes are crossed out. Made from the same logs as the HTML (wsim.ts).
 * The standard PDF fonts cover Western European text only: other characters print as "?".
 */
import type { BattlePackage } from './json.js';
import type { BoxRow } from './common.js';
import { roleOf } from './common.js';
import { wsimFortLog, wsimLogs, type WsimLog } from './wsim.js';

const MARGIN = 40;
const BOX = 11;
const GAP = 3;
const LABEL_WIDTH = 150;

const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Text the standard fonts can print: Latin-1 and the WinAnsi extras; anything else becomes "?". */
export function pdfText(s: string): string {
  let out = '';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    out += (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch) || ch === '\n' ? ch : '?';
  }
  return out;
}

type Doc = PDFKit.PDFDocument;

function right(doc: Doc): number {
  return doc.page.width - MARGIN;
}

function heading(doc: Doc, text: string, size = 16): void {
  doc.font('Helvetica-Bold').fontSize(size).text(pdfText(text), MARGIN, doc.y, { width: right(doc) - MARGIN });
  doc.font('Helvetica').fontSize(10);
}

function para(doc: Doc, text: string, opts: { size?: number; bold?: boolean } = {}): void {
  doc.font(opts.bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(opts.size ?? 10)
    .text(pdfText(text), MARGIN, doc.y, { width: right(doc) - MARGIN });
  doc.font('Helvetica').fontSize(10);
}

/** One row of boxes: the label (with left/capacity) then the boxes, lost ones crossed. */
function boxRow(doc: Doc, row: BoxRow): void {
  const x0 = MARGIN + LABEL_WIDTH;
  const perLine = Math.max(1, Math.floor((right(doc) - x0) / (BOX + GAP)));
  const lines = Math.max(1, Math.ceil(row.boxes.length / perLine));
  const height = lines * (BOX + GAP) + 2;
  if (doc.y + height > doc.page.height - MARGIN) doc.addPage();
  const y0 = doc.y;
  doc.font('Helvetica').fontSize(9).text(pdfText(`${row.label} ${row.left}/${row.capacity}`), MARGIN, y0 + 1, { width: LABEL_WIDTH - 6, lineBreak: false });
  row.boxes.forEach((b, i) => {
    const x = x0 + (i % perLine) * (BOX + GAP);
    const y = y0 + Math.floor(i / perLine) * (BOX + GAP);
    doc.lineWidth(0.8).rect(x, y, BOX, BOX).stroke();
    if (b.lost) {
      doc.lineWidth(1.2).moveTo(x + 1, y + 1).lineTo(x + BOX - 1, y + BOX - 1).moveTo(x + BOX - 1, y + 1).lineTo(x + 1, y + BOX - 1).stroke();
    }
  });
  doc.x = MARGIN;
  doc.y = y0 + height;
}

function emptyBox(doc: Doc, x: number, y: number): void {
  doc.lineWidth(0.8).rect(x, y, BOX - 2, BOX - 2).stroke();
}

function shipLog(doc: Doc, log: WsimLog, sideLabel: string): void {
  doc.addPage();
  para(doc, sideLabel, { size: 9 });
  heading(doc, log.name, 18);
  para(doc, `${log.guns} guns  |  ${log.nationality}  |  ${log.className} (${log.typeLabel})`);
  para(doc, `Crew quality: ${log.crewQuality}${log.points !== null ? `  |  Points: ${log.points}` : ''}  |  Supplies: ${log.supplies}`, { bold: true });
  doc.moveDown(0.5);
  if (log.movement.length > 0) {
    para(doc, 'Movement allowance (hexes)', { bold: true, size: 10 });
    const cols = [MARGIN, MARGIN + 200, MARGIN + 270];
    const header = doc.y;
    doc.font('Helvetica-Bold').fontSize(9);
    doc.text('Wind attitude', cols[0], header, { lineBreak: false });
    doc.text('Full sail', cols[1], header, { lineBreak: false });
    doc.text('Battle sail', cols[2], header, { lineBreak: false });
    doc.font('Helvetica').fontSize(9);
    let y = header + 12;
    for (const m of log.movement) {
      doc.text(m.label, cols[0], y, { lineBreak: false });
      doc.text(String(m.fullSail), cols[1], y, { lineBreak: false });
      doc.text(String(m.battleSail), cols[2], y, { lineBreak: false });
      y += 12;
    }
    doc.x = MARGIN;
    doc.y = y + 6;
  }
  boxRow(doc, log.hull);
  for (const c of log.crew) boxRow(doc, c);
  for (const b of log.broadsides) {
    boxRow(doc, b.guns);
    if (b.carronades) boxRow(doc, b.carronades);
  }
  for (const r of log.rigging) boxRow(doc, r);
  doc.moveDown(0.3);
  for (const l of log.loads) {
    const y = doc.y;
    doc.font('Helvetica').fontSize(9).text(pdfText(`${l.side} loaded:`), MARGIN, y + 1, { lineBreak: false });
    let x = MARGIN + LABEL_WIDTH;
    for (const name of l.loads) {
      emptyBox(doc, x, y);
      doc.text(name, x + BOX + 2, y + 1, { lineBreak: false });
      x += BOX + 8 + doc.widthOfString(name);
    }
    doc.x = MARGIN;
    doc.y = y + BOX + GAP + 2;
  }
  if (log.notes.length > 0) {
    doc.moveDown(0.5);
    for (const n of log.notes) para(doc, `- ${n}`, { size: 9 });
  }
}

function summary(doc: Doc, pkg: BattlePackage): void {
  heading(doc, 'Wooden Ships & Iron Men: ship logs', 18);
  para(doc, `${pkg.campaign}: battle ${pkg.battleId}, turn ${pkg.turn}, ${pkg.date}, ${pkg.location.description}.`, { bold: true });
  if (pkg.attacker) para(doc, `${pkg.attacker.powerName} attacks.`);
  doc.moveDown(0.5);
  for (const side of pkg.sides) {
    para(doc, `${side.powerName} (${roleOf(side)}), ${side.points} points: ${side.fleets.map((f) => f.name).join(', ')}`, { bold: true });
    for (const s of side.ships) para(doc, `  ${s.name}, ${s.className}, ${s.crewQuality} crew, hull ${s.hull.left}/${s.hull.capacity}`, { size: 9 });
    for (const c of side.convoys) para(doc, `  Escorting a convoy of ${c.merchantmen} merchantmen, ${c.fromName} to ${c.toName}.`, { size: 9 });
  }
  if (pkg.fort) {
    doc.moveDown(0.5);
    para(doc, `The fort of ${pkg.fort.portName} (${pkg.fort.ownerName}) fights with the defenders: hull ${pkg.fort.hull.left}/${pkg.fort.hull.capacity}, guns ${pkg.fort.guns.left}/${pkg.fort.guns.capacity} in all arcs. ${pkg.fort.placement}`);
  }
  if (pkg.shoals) para(doc, `Shoals: ${pkg.shoals.chooserName} (defending) declares one map colour as shoals of ${pkg.shoals.depth}. "${pkg.shoals.rule}"`);
  doc.moveDown(0.5);
  para(doc, 'Weather', { bold: true, size: 12 });
  para(doc, `Wind ${pkg.weather.wind.description}. Sea: ${pkg.weather.seaState.description}. Time of day: ${pkg.weather.timeOfDay.description}.`);
  if (pkg.weather.wind.change) {
    para(doc, `How the wind may shift (${pkg.weather.wind.change.rule}):`, { size: 9 });
    for (const q of pkg.weather.wind.change.quote) para(doc, `  ${q}`, { size: 9 });
  }
  doc.moveDown(0.5);
  para(doc, 'Victory conditions', { bold: true, size: 12 });
  for (const c of pkg.victory.conditions) para(doc, `- ${c}`, { size: 9 });
  for (const s of pkg.victory.stakes) para(doc, `- ${s}`, { size: 9 });
}

/** The WS&IM logs of a battle as a PDF file. */
export async function renderWsimPdf(pkg: BattlePackage): Promise<Buffer> {
  // Loaded on the first PDF, not at start: pdfkit and its fonts cost a third of a second (docs/startup.md).
  const { default: PDFDocument } = await import('pdfkit');
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4', margin: MARGIN,
      info: { Title: pdfText(`${pkg.campaign}: battle ${pkg.battleId} (WS&IM ship logs)`), Author: 'Steady as She Goes!' },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    try {
      summary(doc, pkg);
      for (const { side, logs } of wsimLogs(pkg)) {
        for (const log of logs) shipLog(doc, log, `${side.powerName} (${roleOf(side)})`);
      }
      if (pkg.fort) {
        const owner = pkg.sides.find((s) => s.power === pkg.fort!.owner);
        shipLog(doc, wsimFortLog(pkg.fort), owner ? `${owner.powerName} (${roleOf(owner)})` : 'The fort');
      }
      doc.end();
    } catch (err) {
      reject(err);
    }
  });
}
