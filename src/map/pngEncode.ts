/**
 * A palette PNG (colour type 3, 8 bits a pixel) written with Node's own zlib, and the
 * palette it needs. A map is a few flat colours and their anti-aliased edges, so 256
 * colours keep it sharp; a byte a pixel instead of three makes the file about half the
 * size of a true-colour one and much quicker to compress (the deflate runs on libuv's
 * thread pool, beside the other maps of the turn).
 *
 * Colours are 0xRRGGBB numbers. The nearest palette colour is found with a weighted RGB
 * distance (green counts most, as the eye sees it).
 */
import { promisify } from 'node:util';
import { constants, crc32, deflate } from 'node:zlib';

const deflateAsync = promisify(deflate);

/**
 * Run-length matching only (zlib's Z_RLE strategy): a map's rows are long runs of one
 * colour, and on the built-in map it is both the quickest and the smallest of levels 1-6
 * with the default strategy (about 100 kB at 1100 px; level 6: 8 % bigger, twice as long).
 */
const DEFLATE = { level: 3, strategy: constants.Z_RLE, memLevel: 9 };

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * The PNG of `rows`: per row a filter byte (0, none: the best for a palette image) then a
 * palette index per pixel.
 */
export async function encodePalettePng(width: number, height: number, palette: readonly number[], rows: Buffer): Promise<Buffer> {
  if (palette.length < 1 || palette.length > 256) throw new Error(`a PNG palette holds 1 to 256 colours, not ${palette.length}`);
  if (rows.length !== height * (width + 1)) throw new Error(`expected ${height} rows of ${width + 1} bytes, got ${rows.length} bytes`);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bits per index
  ihdr[9] = 3; // colour type: palette
  const plte = Buffer.alloc(palette.length * 3);
  palette.forEach((c, i) => { plte[i * 3] = (c >> 16) & 255; plte[i * 3 + 1] = (c >> 8) & 255; plte[i * 3 + 2] = c & 255; });
  const idat = await deflateAsync(rows, DEFLATE);
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('PLTE', plte), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}

export function distance(a: number, b: number): number {
  const dr = ((a >> 16) & 255) - ((b >> 16) & 255);
  const dg = ((a >> 8) & 255) - ((b >> 8) & 255);
  const db = (a & 255) - (b & 255);
  return 3 * dr * dr + 4 * dg * dg + 2 * db * db;
}

/** The index of the palette colour nearest to `c`. */
export function nearest(palette: readonly number[], c: number): number {
  let best = 0;
  let bestD = Infinity;
  for (let i = 0; i < palette.length; i++) {
    const d = distance(palette[i]!, c);
    if (d < bestD) { bestD = d; best = i; if (d === 0) break; }
  }
  return best;
}

/**
 * A palette of at most `size` colours for the colours counted in an image: first the most
 * used ones (the flat fills, the commonest edge shades), then, one at a time, the colour
 * drawn worst so far (its distance to the nearest entry times its use), so that a small
 * but distinct colour (a power's, on a marker's edge) is kept too. Every other colour is
 * drawn with its nearest entry. Returns the palette and each counted colour's index.
 */
export function choosePalette(counts: ReadonlyMap<number, number>, size: number): { palette: number[]; indexOf: Map<number, number> } {
  const byUse = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const first = Math.min(byUse.length, Math.ceil(size / 2));
  const palette = byUse.slice(0, first).map(([c]) => c);
  const rest = byUse.slice(first);
  const best = rest.map(([c]) => distance(c, palette[nearest(palette, c)]!));
  while (palette.length < size && rest.length > 0) {
    let pick = -1;
    let worst = 0;
    for (let i = 0; i < rest.length; i++) {
      const err = best[i]! * rest[i]![1];
      if (err > worst) { worst = err; pick = i; }
    }
    if (pick < 0) break;
    const c = rest[pick]![0];
    palette.push(c);
    for (let i = 0; i < rest.length; i++) best[i] = Math.min(best[i]!, distance(rest[i]![0], c));
  }
  const indexOf = new Map<number, number>();
  palette.forEach((c, i) => indexOf.set(c, i));
  for (const [c] of byUse) if (!indexOf.has(c)) indexOf.set(c, nearest(palette, c));
  return { palette, indexOf };
}
