/**
 * The paper a PDF sheet is laid out for: A4 (ISO 216, 595 x 842 pt) or US Letter (612 x 792 pt).
 * Clubs print on what their printer holds; a sheet laid out for the other size runs off the
 * page or prints shrunk. A campaign setting picks it, and a download link may ask for the other.
 */
export const PAPERS = ['a4', 'letter'] as const;
export type Paper = (typeof PAPERS)[number];

export const PAPER_NAMES: Record<Paper, string> = { a4: 'A4', letter: 'US Letter' };

/** pdfkit's name of the size. */
export const PDF_SIZE: Record<Paper, string> = { a4: 'A4', letter: 'LETTER' };

export function isPaper(s: unknown): s is Paper {
  return typeof s === 'string' && (PAPERS as readonly string[]).includes(s);
}
