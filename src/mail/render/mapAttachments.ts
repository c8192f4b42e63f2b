/**
 * The map of a mail as PNGs (every mail client shows a PNG; Gmail and Outlook show no SVG),
 * drawn from the same input and code as the pages' SVG (src/map/png.ts):
 * - the picture in the body, shown by the HTML as <img src="cid:...">, is the whole map
 *   without the Lesser Antilles inset: at a mail's 600 px the inset would double its
 *   height in a report meant to be read at one go;
 * - the attached file, `map-turn-N.png`, is the same map with the inset under the legend,
 *   the one a player opens to study the islands where the campaign crowds together
 *   (docs/web-pages.md, "The map").
 */
import { mapToPng } from '../../map/png.js';
import type { MapInput } from '../../map/svg.js';
import type { MailAttachment } from '../transport.js';

export interface MapAttachments {
  /** The body's picture (inline, with its Content-ID). */
  inline: MailAttachment & { cid: string };
  /** The attached file, with the inset. */
  file: MailAttachment;
}

export async function mapAttachments(map: MapInput, turn: number, who: string): Promise<MapAttachments> {
  const slug = who.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'map';
  const [{ png: body }, { png: whole }] = [await mapToPng({ ...map, inset: false }), await mapToPng({ ...map, inset: true })];
  return {
    inline: {
      filename: `map-turn-${turn}-${slug}.png`,
      contentType: 'image/png',
      contentBase64: body.toString('base64'),
      cid: `map-turn-${turn}-${slug}@sasg`,
    },
    file: { filename: `map-turn-${turn}.png`, contentType: 'image/png', contentBase64: whole.toString('base64') },
  };
}
