// Exports read back for the tests: an HTML page's visible text; a PDF's text (pdfjs), and its text runs with positions.
import { fileURLToPath } from 'node:url';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** Each page's text, runs joined by spaces. */
export async function pdfPages(buf: Buffer): Promise<string[]> {
  const standardFontDataUrl = fileURLToPath(new URL('../../node_modules/pdfjs-dist/standard_fonts/', import.meta.url));
  const doc = await getDocument({ data: new Uint8Array(buf), standardFontDataUrl, isEvalSupported: false }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(content.items.map((it) => ('str' in it ? it.str : '')).join(' ').replace(/\s+/g, ' '));
  }
  await doc.destroy();
  return pages;
}

/** Each page's size and its text runs with their positions (PDF units, y from the bottom). */
export async function pdfGeometry(buf: Buffer): Promise<{ width: number; height: number; items: { str: string; x: number; y: number; w: number }[] }[]> {
  const standardFontDataUrl = fileURLToPath(new URL('../../node_modules/pdfjs-dist/standard_fonts/', import.meta.url));
  const doc = await getDocument({ data: new Uint8Array(buf), standardFontDataUrl, isEvalSupported: false }).promise;
  const out = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const [, , width, height] = page.view as [number, number, number, number];
    const content = await page.getTextContent();
    const items = content.items.flatMap((it) => ('str' in it && it.str.trim() !== '' ? [{ str: it.str, x: it.transform[4] as number, y: it.transform[5] as number, w: it.width }] : []));
    out.push({ width, height, items });
  }
  await doc.destroy();
  return out;
}

/** The visible text of a page: tags dropped, entities decoded, spaces squeezed. */
export function text(html: string): string {
  const entities: Record<string, string> = {
    amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'", '#x3D': '=', '#x60': '`', middot: '·', rsquo: '’', ldquo: '“', rdquo: '”',
    times: '×', minus: '−', nbsp: ' ',
  };
  return html.replace(/<style[\s\S]*?<\/style>/g, '').replace(/<[^>]+>/g, ' ')
    .replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (m, e: string) => entities[e] ?? m).replace(/\s+/g, ' ');
}

/** A text run's box on the page (PDF units, y from the bottom): from the descender to the ascender. */
export interface TextBox { page: number; str: string; x0: number; x1: number; y0: number; y1: number }

/**
 * Every text run of a PDF as a box, for the overprint check. Helvetica's ascender is 0.718 of
 * the font size and its descender 0.207: a box is the run's width by that height.
 */
export async function pdfTextBoxes(buf: Buffer): Promise<{ width: number; height: number; boxes: TextBox[] }[]> {
  const standardFontDataUrl = fileURLToPath(new URL('../../node_modules/pdfjs-dist/standard_fonts/', import.meta.url));
  const doc = await getDocument({ data: new Uint8Array(buf), standardFontDataUrl, isEvalSupported: false }).promise;
  const out = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const [, , width, height] = page.view as [number, number, number, number];
    const content = await page.getTextContent();
    const boxes = content.items.flatMap((it) => {
      if (!('str' in it) || it.str.trim() === '') return [];
      const [, , c, d, x, y] = it.transform as number[];
      const size = Math.hypot(c!, d!);
      return [{ page: i, str: it.str, x0: x!, x1: x! + it.width, y0: y! - 0.207 * size, y1: y! + 0.718 * size }];
    });
    out.push({ width, height, boxes });
  }
  await doc.destroy();
  return out;
}

/** Pairs of text boxes on a page that print over each other (by more than a hair: 0.3 pt each way). */
export function overlaps(boxes: readonly TextBox[]): string[] {
  const hits: string[] = [];
  const eps = 0.3;
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i]!;
      const b = boxes[j]!;
      if (Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > eps && Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) > eps) {
        hits.push(`page ${a.page}: "${a.str}" at (${a.x0.toFixed(0)}, ${a.y0.toFixed(0)}) over "${b.str}" at (${b.x0.toFixed(0)}, ${b.y0.toFixed(0)})`);
      }
    }
  }
  return hits;
}

/** Text boxes that are not wholly on the page. */
export function offPage(page: { width: number; height: number; boxes: readonly TextBox[] }): string[] {
  return page.boxes.filter((b) => b.x0 < 0 || b.y0 < 0 || b.x1 > page.width || b.y1 > page.height)
    .map((b) => `page ${b.page}: "${b.str}" at (${b.x0.toFixed(0)}..${b.x1.toFixed(0)}, ${b.y0.toFixed(0)}..${b.y1.toFixed(0)}) on a ${page.width.toFixed(0)}x${page.height.toFixed(0)} page`);
}
