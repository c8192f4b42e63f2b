/**
 * One entry point for the route: a battle package in one of the export formats, with the
 * content type and a file name to serve it under.
 */
import type { BattlePackage } from './json.js';
import { renderJson } from './json.js';
import { exportFilename } from './common.js';
import { renderWsimHtml } from './wsim.js';
import { renderWsimPdf } from './pdf.js';
import { renderBtqHtml } from './btq.js';
import { renderGngHtml } from './gng.js';
import { renderCogsHtml } from './cogs.js';
import { renderCardsHtml } from './cards.js';
import { renderCardsPdf } from './cardsPdf.js';
import { renderPage } from './html.js';
import { setupSheet } from './setup.js';
import { diagramSvg } from './setupDiagram.js';
import { renderSetupPdf } from './setupPdf.js';
import type { Paper } from './paper.js';

export const EXPORT_FORMATS = [
  'setup-html', 'setup-pdf', 'wsim-html', 'wsim-pdf', 'btq-html', 'gng-html', 'gng-cards-html', 'gng-cards-pdf', 'cogs-html', 'cogs-cards-html', 'cogs-cards-pdf', 'json',
] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface RenderedExport {
  contentType: string;
  body: string | Buffer;
  filename: string;
}

export function isExportFormat(s: string): s is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(s);
}

const HTML = 'text/html; charset=utf-8';

/** The setup sheet as an HTML page: the diagram is SVG drawn server-side, every value escaped by the template. */
export function renderSetupHtml(pkg: BattlePackage, opts: { shoalDepth?: number | null } = {}): string {
  const sheet = setupSheet(pkg, opts);
  return renderPage('setup', pkg, { sheet, svg: diagramSvg(sheet) });
}

/**
 * `shoalDepth`: the depth the defender declared, for the setup sheet (checked by the caller:
 * checkShoalDepth). `paper`: the PDFs' paper (A4 unless told).
 */
export async function renderBattle(pkg: BattlePackage, format: ExportFormat, opts: { shoalDepth?: number | null; paper?: Paper } = {}): Promise<RenderedExport> {
  const paper = { paper: opts.paper ?? 'a4' } as const;
  switch (format) {
    case 'setup-html': return { contentType: HTML, body: renderSetupHtml(pkg, opts), filename: exportFilename(pkg, 'setup', 'html') };
    case 'setup-pdf': return { contentType: 'application/pdf', body: await renderSetupPdf(setupSheet(pkg, opts), paper), filename: exportFilename(pkg, 'setup', 'pdf') };
    case 'wsim-html': return { contentType: HTML, body: renderWsimHtml(pkg), filename: exportFilename(pkg, 'wsim', 'html') };
    case 'wsim-pdf': return { contentType: 'application/pdf', body: await renderWsimPdf(pkg, paper), filename: exportFilename(pkg, 'wsim', 'pdf') };
    case 'btq-html': return { contentType: HTML, body: renderBtqHtml(pkg), filename: exportFilename(pkg, 'btq', 'html') };
    case 'gng-html': return { contentType: HTML, body: renderGngHtml(pkg), filename: exportFilename(pkg, 'gng', 'html') };
    case 'gng-cards-html': return { contentType: HTML, body: renderCardsHtml(pkg, 'gng'), filename: exportFilename(pkg, 'gng-cards', 'html') };
    case 'gng-cards-pdf': return { contentType: 'application/pdf', body: await renderCardsPdf(pkg, 'gng', paper), filename: exportFilename(pkg, 'gng-cards', 'pdf') };
    case 'cogs-cards-html': return { contentType: HTML, body: renderCardsHtml(pkg, 'cogs'), filename: exportFilename(pkg, 'cogs-cards', 'html') };
    case 'cogs-cards-pdf': return { contentType: 'application/pdf', body: await renderCardsPdf(pkg, 'cogs', paper), filename: exportFilename(pkg, 'cogs-cards', 'pdf') };
    case 'cogs-html': return { contentType: HTML, body: renderCogsHtml(pkg), filename: exportFilename(pkg, 'cogs', 'html') };
    case 'json': return { contentType: 'application/json; charset=utf-8', body: renderJson(pkg), filename: exportFilename(pkg, 'package', 'json') };
    default: {
      const never: never = format;
      throw new RangeError(`unknown export format ${String(never)}`);
    }
  }
}
