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
