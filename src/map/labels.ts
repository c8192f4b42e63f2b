/**
 * Deterministic label placement (docs/web-pages.md, "The map"): every label is a box; the
 * boxes are placed one at a time, in order of importance (ports, then fleets, then sea
 * names), each at the first candidate spot that stays on the map and overlaps nothing
 * placed before it. Ports and fleets that find no spot next to their node move further
 * out, on rings of growing radius, with a leader line back to the node. A sea name that
 * finds no spot is shortened (its bracketed part dropped, when the shorter name is still
 * the node's own), and failing that goes out on the rings too (src/map/base.ts).
 *
 * Text widths are estimated, not measured (no font metrics on the server): a fixed
 * CHAR_EM of the font size per character, which is wider than the average character of
 * the serif fonts the map asks for (Georgia, DejaVu Serif), so real text fits its box.
 */

export interface Box { x0: number; y0: number; x1: number; y1: number }

/** Estimated advance of one character, as a fraction of the font size. */
export const CHAR_EM = 0.63;
/** Estimated text height, as a fraction of the font size (cap height plus descenders). */
export const LINE_EM = 1.15;

export function textWidth(text: string, size: number): number {
  return [...text].length * size * CHAR_EM + 2;
}

/**
 * How wide the text may really be drawn (for the box the PNG copies, not for placing):
 * by character class, on the wide side of DejaVu Serif (bold is wider still). Capitals
 * and W, M run past CHAR_EM, so a fixed width per character would cut them off.
 */
export function inkWidth(text: string, size: number, bold = false): number {
  let em = 0;
  for (const c of text) {
    if (/[WMmw@%]/.test(c)) em += 1.05;
    else if (/[A-Z0-9&]/.test(c)) em += 0.8;
    else if (/[ilj.,:;'!|()[\] ]/.test(c)) em += 0.42;
    else em += 0.66;
  }
  return em * size * (bold ? 1.12 : 1) + 4;
}

/** "Eastern Gulf of Mexico (off Tampa Bay)" → "Eastern Gulf of Mexico"; null when there is nothing shorter. */
export function shortName(name: string): string | null {
  const short = name.replace(/\s*\([^)]*\)\s*/g, ' ').trim();
  return short && short !== name ? short : null;
}

export function overlaps(a: Box, b: Box): boolean {
  return a.x0 < b.x1 && a.x1 > b.x0 && a.y0 < b.y1 && a.y1 > b.y0;
}

export interface Spot {
  /** Top-left corner of the label's box. */
  x: number;
  y: number;
  /** Set when the label stands away from its node: where the leader line meets the box. */
  leader?: { x: number; y: number };
}

export class Labels {
  private taken: Box[] = [];
  /** Boxes a label avoids when it can and covers when it must (then the box's own label is left off). */
  private soft: Box[] = [];
  constructor(private width: number, private height: number) {}

  block(b: Box): void { this.taken.push(b); }

  /** `b` may be covered, but only when no other spot is free. */
  yieldable(b: Box): void { this.soft.push(b); }

  /** A copy, to place labels in without taking their spots here. */
  clone(): Labels {
    const copy = new Labels(this.width, this.height);
    copy.taken = [...this.taken];
    copy.soft = [...this.soft];
    return copy;
  }

  free(b: Box): boolean {
    return !this.taken.some((t) => overlaps(b, t));
  }

  private clear(b: Box): boolean {
    return !this.soft.some((t) => overlaps(b, t));
  }

  /** The first free box, one clear of the yieldable boxes first. */
  private best(boxes: readonly Box[]): Box | undefined {
    const ok = boxes.filter((b) => this.inside(b) && this.free(b));
    return ok.find((b) => this.clear(b)) ?? ok[0];
  }

  private inside(b: Box): boolean {
    return b.x0 >= 1 && b.x1 <= this.width - 1 && b.y0 >= 1 && b.y1 <= this.height - 1;
  }

  private take(b: Box): Box {
    this.taken.push(b);
    return b;
  }

  /** The eight spots around a point, nearest first, right before left (labels read rightwards). */
  private around(x: number, y: number, w: number, h: number, gap: number): Box[] {
    const spots: [number, number][] = [
      [x + gap, y - h / 2], [x - gap - w, y - h / 2],
      [x + gap, y - h - gap / 2], [x + gap, y + gap / 2], [x - gap - w, y - h - gap / 2], [x - gap - w, y + gap / 2],
      [x - w / 2, y - gap - h], [x - w / 2, y + gap],
    ];
    return spots.map(([bx, by]) => ({ x0: bx, y0: by, x1: bx + w, y1: by + h }));
  }

  /**
   * A box of w × h near (x, y), clear of `gap` around the point. With `leader`, further out
   * on rings of growing radius when nothing near is free. Null when no free spot is found.
   */
  place(x: number, y: number, w: number, h: number, gap: number, opts: { leader?: boolean } = {}): Spot | null {
    const near = this.best(this.around(x, y, w, h, gap));
    if (near) { this.take(near); return { x: near.x0, y: near.y0 }; }
    if (!opts.leader) return null;
    return this.placeOnRings(x, y, [{ w, h }], gap)?.spot ?? null;
  }

  /**
   * The first of several boxes (a label whole, then shorter) that fits on rings of growing
   * radius around (x, y), with a leader line; each ring tries every box before the next
   * ring, so a shorter label near the point wins over a longer one far from it.
   */
  placeOnRings(x: number, y: number, boxes: readonly { w: number; h: number }[], gap: number, maxRadius = 150): { spot: Spot; index: number } | null {
    for (let r = gap + 14; r <= maxRadius; r += 10) {
      for (const [index, { w, h }] of boxes.entries()) {
        const ring: { b: Box; leader: { x: number; y: number } }[] = [];
        for (let k = 0; k < 16; k++) {
          // Start due east (open sea, for most ports) and go round both ways alternately.
          const step = Math.ceil(k / 2) * (k % 2 === 1 ? 1 : -1);
          const a = (step * Math.PI) / 8;
          const cx = x + Math.cos(a) * r;
          const cy = y + Math.sin(a) * r;
          // The box hangs off the ring on the side away from the node.
          const bx = Math.cos(a) >= 0 ? cx : cx - w;
          const by = cy - h / 2;
          ring.push({ b: { x0: bx, y0: by, x1: bx + w, y1: by + h }, leader: { x: Math.cos(a) >= 0 ? bx : bx + w, y: cy } });
        }
        const b = this.best(ring.map((c) => c.b));
        if (!b) continue;
        this.take(b);
        return { spot: { x: b.x0, y: b.y0, leader: ring.find((c) => c.b === b)!.leader }, index };
      }
    }
    return null;
  }

  /** A name written under or over a point (a sea area's), or beside it; null when it fits nowhere. */
  placeName(x: number, y: number, w: number, h: number): Spot | null {
    const spots: [number, number][] = [
      [x - w / 2, y + 3], [x - w / 2, y - 3 - h], [x + 4, y - h / 2], [x - 4 - w, y - h / 2],
    ];
    const b = spots.map(([bx, by]) => ({ x0: bx, y0: by, x1: bx + w, y1: by + h })).find((c) => this.inside(c) && this.free(c));
    if (!b) return null;
    this.take(b);
    return { x: b.x0, y: b.y0 };
  }

  /** Last resort: the first spot around the point that stays on the picture, overlapping or not. */
  force(x: number, y: number, w: number, h: number, gap: number): Spot {
    const boxes = this.around(x, y, w, h, gap);
    const b = boxes.find((c) => this.inside(c)) ?? boxes[0]!;
    this.take(b);
    return { x: b.x0, y: b.y0 };
  }
}
