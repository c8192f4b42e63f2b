/**
 * WS&IM ship logs as a printable PDF (pdfkit): a first page with the battle (date, place,
 * sides, weather, victory conditions), then the logs of the ships and the fort, two to a page
 * (A4 or US Letter: paper.ts) like the HTML; every page carries the campaign, battle and turn at its head and the
 * ships it holds at its foot. Boxes
 * are drawn; lost boxes are crossed out. Made from the same logs as the HTML (wsim.ts).
 * The standard PDF fonts cover Western European text only: other characters print as "?".
 */
import type { BattlePackage } from './json.js';
import type { BoxRow } from './common.js';
import { roleOf, sightedText } from './common.js';
import { wsimFortLog, wsimLogs, type WsimLog } from './wsim.js';
import { PDF_SIZE, type Paper } from './paper.js';

export const MARGIN = 40;
const BOX = 9;
const GAP = 2;
const LABEL_WIDTH = 130;

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

export function heading(doc: Doc, text: string, size = 16): void {
  doc.font('Helvetica-Bold').fontSize(size).text(pdfText(text), MARGIN, doc.y, { width: right(doc) - MARGIN });
  doc.font('Helvetica').fontSize(10);
}

export function para(doc: Doc, text: string, opts: { size?: number; bold?: boolean } = {}): void {
  doc.font(opts.bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(opts.size ?? 10)
    .text(pdfText(text), MARGIN, doc.y, { width: right(doc) - MARGIN });
  doc.font('Helvetica').fontSize(10);
}

/** Box rows a log needs, in order. */
function rowsOf(log: WsimLog): BoxRow[] {
  return [log.hull, ...log.crew, ...log.broadsides.flatMap((b) => (b.carronades ? [b.guns, b.carronades] : [b.guns])), ...log.rigging];
}

function boxesPerLine(doc: Doc): number {
  return Math.max(1, Math.floor((right(doc) - MARGIN - LABEL_WIDTH) / (BOX + GAP)));
}

const ROW_LINE = BOX + GAP;
const SMALL_LINE = 9;
const PLOT_LINE = 10;
const LOG_HEAD = 17;

/**
 * Height of a log in points, from the same constants the drawing uses: two logs share an A4
 * page when both fit, as the HTML prints them.
 */
export function logHeight(doc: Doc, log: WsimLog): number {
  const perLine = boxesPerLine(doc);
  const boxes = rowsOf(log).reduce((h, r) => h + Math.max(1, Math.ceil(r.boxes.length / perLine)) * ROW_LINE + 1, 0);
  const movement = log.sections.length > 0 ? Math.max(movementHeadHeight(doc, log), 2 * SMALL_LINE) + SMALL_LINE * (1 + log.movement.length) + 4 : 0;
  const ranges = log.ranges.length > 0
    ? doc.font('Helvetica').fontSize(8.5).heightOfString(pdfText(`Gun ranges: ${log.ranges.join('; ')}`), { width: right(doc) - MARGIN })
    : 0;
  const loads = log.loads.length * ROW_LINE + ROW_LINE;
  const plot = log.plot.length > 0 ? PLOT_LINE * (1 + log.plotRows.length) + 4 : 0;
  const notes = log.notes.reduce((h, n) => h + Math.ceil(n.length / 110) * SMALL_LINE, 0);
  return LOG_HEAD + 2 * SMALL_LINE + 3 + movement + boxes + ranges + loads + plot + notes;
}

/** One row of boxes: the label (with left/capacity) then the boxes, lost ones crossed. */
function boxRow(doc: Doc, row: BoxRow): void {
  const x0 = MARGIN + LABEL_WIDTH;
  const perLine = boxesPerLine(doc);
  const lines = Math.max(1, Math.ceil(row.boxes.length / perLine));
  const height = lines * ROW_LINE + 1;
  const y0 = doc.y;
  doc.font('Helvetica').fontSize(8).text(pdfText(`${row.label} ${row.left}/${row.capacity}`), MARGIN, y0 + 1, { width: LABEL_WIDTH - 6, lineBreak: false });
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

/** A line of empty boxes with their names after them. */
function tickBoxes(doc: Doc, label: string, names: readonly string[]): void {
  const y = doc.y;
  doc.font('Helvetica').fontSize(8).text(pdfText(label), MARGIN, y + 1, { lineBreak: false });
  let x = MARGIN + LABEL_WIDTH;
  for (const name of names) {
    emptyBox(doc, x, y);
    doc.text(pdfText(name), x + BOX + 2, y + 1, { lineBreak: false });
    x += BOX + 8 + doc.widthOfString(pdfText(name));
  }
  doc.x = MARGIN;
  doc.y = y + ROW_LINE;
}

const MOVE_LABEL_W = 170;

function movementColumns(doc: Doc, log: WsimLog): { xs: number[]; colW: number } {
  const colW = Math.min(110, (right(doc) - MARGIN - MOVE_LABEL_W) / Math.max(1, log.sections.length));
  return { xs: log.sections.map((_, i) => MARGIN + MOVE_LABEL_W + i * colW), colW };
}

/**
 * The movement table's head: a column's label ("3 rigging sections standing (now)") wraps within
 * its column, so the head is as tall as its longest label and the first row starts below it.
 */
function movementHeadHeight(doc: Doc, log: WsimLog): number {
  const { colW } = movementColumns(doc, log);
  doc.font('Helvetica-Bold').fontSize(8);
  const tallest = Math.max(SMALL_LINE, ...log.sections.map((c) => doc.heightOfString(pdfText(c.label), { width: colW - 4 })));
  doc.font('Helvetica');
  return Math.ceil(tallest) + 1;
}

function movementTable(doc: Doc, log: WsimLog): void {
  const top = doc.y;
  const { xs, colW } = movementColumns(doc, log);
  const head = movementHeadHeight(doc, log);
  doc.font('Helvetica-Bold').fontSize(8);
  doc.text('Movement allowance (hexes,', MARGIN, top, { lineBreak: false });
  doc.text('full / battle sail)', MARGIN, top + SMALL_LINE, { lineBreak: false });
  log.sections.forEach((c, i) => doc.text(pdfText(c.label), xs[i]!, top, { width: colW - 4 }));
  doc.font('Helvetica').fontSize(8);
  let y = top + Math.max(head, 2 * SMALL_LINE);
  log.movement.forEach((m, r) => {
    doc.text(pdfText(m.label), MARGIN, y, { lineBreak: false });
    log.sections.forEach((c, i) => {
      const cell = c.cells[r]!;
      doc.font(c.now ? 'Helvetica-Bold' : 'Helvetica').text(`${cell.fullSail} / ${cell.battleSail}`, xs[i]!, y, { lineBreak: false });
    });
    doc.font('Helvetica');
    y += SMALL_LINE;
  });
  doc.fontSize(7.5).text('A rigging section (a mast\'s rigging row) goes when all its boxes are crossed; then use the next column. None standing: the ship drifts.', MARGIN, y, { lineBreak: false });
  doc.x = MARGIN;
  doc.y = y + SMALL_LINE + 4;
}

function plotGrid(doc: Doc, log: WsimLog): void {
  const top = doc.y;
  const labelW = 110;
  const colW = (right(doc) - MARGIN - labelW) / log.plot.length;
  doc.font('Helvetica-Bold').fontSize(8).text('Turn', MARGIN, top + 2, { lineBreak: false });
  log.plot.forEach((t, i) => doc.text(String(t), MARGIN + labelW + i * colW + 3, top + 2, { lineBreak: false }));
  doc.font('Helvetica').fontSize(8);
  log.plotRows.forEach((r, j) => {
    const y = top + PLOT_LINE * (j + 1);
    doc.text(pdfText(r), MARGIN, y + 2, { lineBreak: false });
    log.plot.forEach((_, i) => doc.lineWidth(0.5).rect(MARGIN + labelW + i * colW, y, colW, PLOT_LINE).stroke());
  });
  doc.x = MARGIN;
  doc.y = top + PLOT_LINE * (1 + log.plotRows.length) + 4;
}

function shipLog(doc: Doc, log: WsimLog, sideLabel: string): void {
  const top = doc.y;
  heading(doc, log.name, 13);
  doc.font('Helvetica').fontSize(8).text(pdfText(sideLabel), MARGIN, top + 3, { width: right(doc) - MARGIN, align: 'right', lineBreak: false });
  doc.x = MARGIN;
  doc.y = top + LOG_HEAD;
  para(doc, `${log.guns} guns  |  ${log.nationality}  |  ${log.className} (${log.typeLabel})  |  Crew quality: ${log.crewQuality}${log.points !== null ? `  |  Points: ${log.points}` : ''}  |  Supplies: ${log.supplies}`, { size: 8.5 });
  doc.y += 3;
  if (log.sections.length > 0) movementTable(doc, log);
  boxRow(doc, log.hull);
  for (const c of log.crew) boxRow(doc, c);
  for (const b of log.broadsides) {
    boxRow(doc, b.guns);
    if (b.carronades) boxRow(doc, b.carronades);
  }
  if (log.ranges.length > 0) para(doc, `Gun ranges: ${log.ranges.join('; ')}`, { size: 8.5 });
  for (const r of log.rigging) boxRow(doc, r);
  for (const l of log.loads) tickBoxes(doc, `${l.side} loaded:`, l.loads);
  tickBoxes(doc, 'Markers:', log.markers);
  if (log.plot.length > 0) plotGrid(doc, log);
  for (const n of log.notes) para(doc, `- ${n}`, { size: 8 });
}

/** The running head of every page: campaign, battle, turn and date. */
function pageHead(doc: Doc, pkg: BattlePackage): void {
  doc.font('Helvetica').fontSize(8).fillColor('#444')
    .text(pdfText(`${pkg.campaign}: battle ${pkg.battleId}, turn ${pkg.turn}, ${pkg.date}  |  Wooden Ships & Iron Men ship logs`), MARGIN, MARGIN - 22, { lineBreak: false });
  doc.fillColor('#000');
  doc.x = MARGIN;
  doc.y = MARGIN;
}

/** The ships on a page, at its foot (a page cut from the rest still says whose logs it holds). */
function pageFoot(doc: Doc, names: string[]): void {
  if (names.length === 0) return;
  const y = doc.y;
  // Below the bottom margin: lift it while writing, or pdfkit would start a new page.
  const margin = doc.page.margins.bottom;
  doc.page.margins.bottom = 0;
  doc.font('Helvetica').fontSize(8).fillColor('#444')
    .text(pdfText(`Ship logs on this page: ${names.join('; ')}`), MARGIN, doc.page.height - MARGIN + 8, { lineBreak: false });
  doc.fillColor('#000');
  doc.page.margins.bottom = margin;
  doc.y = y;
}

function summary(doc: Doc, pkg: BattlePackage): void {
  heading(doc, 'Wooden Ships & Iron Men: ship logs', 18);
  para(doc, `${pkg.campaign}: battle ${pkg.battleId}, turn ${pkg.turn}, ${pkg.date}, ${pkg.location.description}.`, { bold: true });
  if (pkg.attacker) para(doc, `${pkg.attacker.powerName} attacks.`);
  doc.moveDown(0.5);
  for (const side of pkg.sides) {
    if (side.seen === 'sighted') {
      // The enemy as seen across the water only (sideView.ts): no fleets, boxes or convoy routes.
      para(doc, `${side.powerName} (${roleOf(side)}), ${side.points} points`, { bold: true });
      para(doc, `  ${sightedText(side)}`, { size: 9 });
      continue;
    }
    para(doc, `${side.powerName} (${roleOf(side)}), ${side.points} points: ${side.fleets.map((f) => f.name).join(', ')}`, { bold: true });
    for (const s of side.ships) para(doc, `  ${s.name}, ${s.className}, ${s.crewQuality} crew, hull ${s.hull.left}/${s.hull.capacity}`, { size: 9 });
    for (const c of side.convoys) para(doc, `  Escorting a convoy of ${c.merchantmen} merchantmen, ${c.fromName} to ${c.toName}.`, { size: 9 });
  }
  if (pkg.fort) {
    doc.moveDown(0.5);
    para(doc, `The fort of ${pkg.fort.portName} (${pkg.fort.ownerName}) fights with the defenders: hull ${pkg.fort.hull.left}/${pkg.fort.hull.capacity}, guns ${pkg.fort.guns.left}/${pkg.fort.guns.capacity} in all arcs. ${pkg.fort.placement}`);
  } else if (pkg.fortInSight) {
    doc.moveDown(0.5);
    para(doc, `The fort of ${pkg.fortInSight.portName} (${pkg.fortInSight.ownerName}) fights with the defenders, its guns firing in all arcs. ${pkg.fortInSight.placement}`);
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
export async function renderWsimPdf(pkg: BattlePackage, opts: { paper?: Paper } = {}): Promise<Buffer> {
  // Loaded on the first PDF, not at start: pdfkit and its fonts cost a third of a second (docs/performance.md, "Start-up").
  const { default: PDFDocument } = await import('pdfkit');
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: PDF_SIZE[opts.paper ?? 'a4'], margin: MARGIN,
      info: { Title: pdfText(`${pkg.campaign}: battle ${pkg.battleId} (WS&IM ship logs)`), Author: 'Steady as She Goes!' },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    try {
      pageHead(doc, pkg);
      summary(doc, pkg);
      const logs: { log: WsimLog; side: string }[] = wsimLogs(pkg).flatMap(({ side, logs: l }) => l.map((log) => ({ log, side: `${side.powerName} (${roleOf(side)})` })));
      if (pkg.fort) {
        const owner = pkg.sides.find((s) => s.power === pkg.fort!.owner);
        logs.push({ log: wsimFortLog(pkg.fort), side: owner ? `${owner.powerName} (${roleOf(owner)})` : 'The fort' });
      }
      // Logs fill pages top to bottom, two to a page (A4 or Letter) when both fit, as the HTML prints them.
      let names: string[] = [];
      let onPage = 0;
      const bottom = doc.page.height - MARGIN;
      for (const { log, side } of logs) {
        const h = logHeight(doc, log);
        if (onPage === 0 || onPage >= 2 || doc.y + h > bottom) {
          pageFoot(doc, names);
          doc.addPage();
          pageHead(doc, pkg);
          names = [];
          onPage = 0;
        } else {
          doc.lineWidth(0.5).moveTo(MARGIN, doc.y + 2).lineTo(right(doc), doc.y + 2).dash(3, { space: 3 }).stroke().undash();
          doc.y += 8;
        }
        shipLog(doc, log, side);
        names.push(log.name);
        onPage += 1;
      }
      pageFoot(doc, names);
      doc.end();
    } catch (err) {
      reject(err);
    }
  });
}
