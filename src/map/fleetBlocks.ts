/**
 * Fleets on the map: a block of markers and names beside the fleets' node, one row per
 * fleet (own fleets, enemies seen now, then older sightings). Placed after the port and
 * sea names (src/map/labels.ts), so those stay where they are whatever the fleets.
 */
import { fleetShape, kindWords, markPath, markSize, markWidth, type FleetShape } from './fleetMarks.js';
import type { Placed } from './frame.js';
import { type Box, inkWidth, type Labels, LINE_EM, type Spot, textWidth } from './labels.js';
import { type Part, pad } from './parts.js';
import { escapeXml, GREY, n } from './xml.js';
import type { MapFleetInput, MapSightingInput } from './svg.js';

const INK = '#1d2b36';
const HALO = '#dce9f2';
const FLEET_FONT = 9.5;
/** How far (px) a fleet's name may stand from it, on a leader line, before the marker goes alone. */
const NAME_REACH = 80;

interface Marker {
  label: string;
  /** The name alone, for a crowded spot. */
  short: string;
  color: string;
  kind: 'own' | 'enemy' | 'sighting';
  title: string;
  shape: FleetShape;
}

export interface FleetBlock {
  p: Placed;
  list: Marker[];
  texts: string[];
  spot: Spot;
  w: number;
  rows: number[];
  markW: number;
}

export interface FleetsInput {
  fleets?: readonly MapFleetInput[];
  enemyFleets?: readonly MapFleetInput[];
  sightings?: readonly MapSightingInput[];
}

/** Collects the markers by node and finds each block a spot (taking it in `labels`). */
export function placeFleets(
  input: FleetsInput,
  placed: ReadonlyMap<string, Placed>,
  labels: Labels,
  colorOf: ReadonlyMap<string, string>,
  powerName: ReadonlyMap<string, string>,
  types: ReadonlyMap<string, string>,
): FleetBlock[] {
  const markers = new Map<string, Marker[]>();
  const add = (node: string, m: Marker) => {
    if (!placed.has(node)) return;
    const list = markers.get(node) ?? [];
    list.push(m);
    markers.set(node, list);
  };
  for (const f of input.fleets ?? []) {
    const shape = fleetShape(f.ships, f.convoy, types);
    add(f.at, { kind: 'own', shape, color: colorOf.get(f.power) ?? GREY, label: f.name + (f.inHarbor ? ' (in harbor)' : ''), short: f.name, title: `${f.name} (${powerName.get(f.power) ?? f.power}): ${kindWords(shape)}` });
  }
  const seenNow = new Set((input.enemyFleets ?? []).map((f) => f.id));
  for (const f of input.enemyFleets ?? []) {
    const shape = fleetShape(f.ships, f.convoy, types);
    add(f.at, { kind: 'enemy', shape, color: colorOf.get(f.power) ?? GREY, label: `${f.name} (${powerName.get(f.power) ?? f.power})`, short: f.name, title: `${f.name} (${powerName.get(f.power) ?? f.power}), seen now: ${kindWords(shape)}` });
  }
  for (const s of input.sightings ?? []) {
    if (seenNow.has(s.fleetId)) continue;
    const shape = fleetShape(s.ships, null, types);
    add(s.node, { kind: 'sighting', shape, color: GREY, label: `${s.fleetName} (seen turn ${s.turn})`, short: s.fleetName, title: `${s.fleetName} (${powerName.get(s.power) ?? s.power}), last seen here on turn ${s.turn}: ${kindWords(shape)}` });
  }
  // A crowded spot (the Lesser Antilles) first tries the names beside the node, then the
  // bare names (no "(in harbor)", no power); then the same a little further out, with a
  // leader line (a mailed map has no tooltips: a name is worth a short line); then the
  // markers alone beside the node (the names stay in their tooltips); and only then
  // further out, ring by ring: a short name close by is better than a whole name far away.
  const blocks: FleetBlock[] = [];
  for (const [node, list] of markers) {
    const p = placed.get(node)!;
    const rows = list.map((m) => Math.max(FLEET_FONT * LINE_EM, markSize(m.shape) + 2));
    const markW = Math.max(...list.map((m) => markWidth(m.shape)));
    const h = rows.reduce((a, b) => a + b, 0);
    const variants = [list.map((m) => m.label), list.map((m) => m.short), list.map(() => '')];
    const widthOf = (texts: string[]) => markW + (texts.some((t) => t) ? 4 + Math.max(...texts.map((t) => textWidth(t, FLEET_FONT))) : 2);
    const near = (texts: string[]) => {
      const spot = labels.place(p.x, p.y, widthOf(texts), h, 6);
      return spot ? { texts, spot } : null;
    };
    const rings = (choices: string[][], maxRadius: number) => {
      const far = labels.placeOnRings(p.x, p.y, choices.map((texts) => ({ w: widthOf(texts), h })), 6, maxRadius);
      return far ? { texts: choices[far.index]!, spot: far.spot } : null;
    };
    const chosen = near(variants[0]!) ?? near(variants[1]!) ?? rings(variants.slice(0, 2), NAME_REACH) ?? rings(variants.slice(0, 2), 160) ?? near(variants[2]!) ?? rings(variants, 150);
    const texts = chosen?.texts ?? variants[2]!;
    const w = widthOf(texts);
    const spot = chosen?.spot ?? labels.force(p.x, p.y, w, h, 6);
    blocks.push({ p, list, texts, spot, w, rows, markW });
  }
  return blocks;
}

/** The label's <text> (same halo as the other labels). */
function fleetText(cls: string, x: number, y: number, text: string, extra: string, fill: string): string {
  return `<text class="label ${cls}" x="${n(x)}" y="${n(y)}" font-size="${FLEET_FONT}" fill="${fill}" stroke="${HALO}" stroke-width="2.5" paint-order="stroke"${extra}>${escapeXml(text)}</text>`;
}

/** The blocks as parts: a leader line when the block stands away, then a row per fleet. */
export function drawFleets(blocks: readonly FleetBlock[], clickable: boolean): Part[] {
  const out: Part[] = [`<g class="fleets"${clickable ? ' pointer-events="none"' : ''}>`];
  for (const { p, list, texts, spot, w, rows, markW } of blocks) {
    if (spot.leader) {
      out.push({
        svg: `<line class="leader" x1="${n(p.x)}" y1="${n(p.y)}" x2="${n(spot.leader.x)}" y2="${n(spot.leader.y)}" stroke="${INK}" stroke-width="0.9" stroke-opacity="0.8"/>`,
        box: pad({ x0: Math.min(p.x, spot.leader.x), y0: Math.min(p.y, spot.leader.y), x1: Math.max(p.x, spot.leader.x), y1: Math.max(p.y, spot.leader.y) }, 2),
      });
    }
    // A block left of its node keeps the markers next to the node (its right end) and the
    // names running leftwards from them, so a long name never strands a marker.
    const leftOfNode = spot.x + w <= p.x;
    let y = spot.y;
    list.forEach((m, i) => {
      const mid = y + rows[i]! / 2;
      const x = leftOfNode ? spot.x + w - markW : spot.x;
      const stroke = m.kind === 'own' ? INK : m.kind === 'enemy' ? '#b00020' : GREY;
      const dash = m.kind === 'sighting' ? ' stroke-dasharray="2 1.5"' : '';
      const opacity = m.kind === 'sighting' ? ' opacity="0.75"' : '';
      const tx = leftOfNode ? x - 3 : x + markW + 3;
      const anchor = leftOfNode ? ' text-anchor="end"' : '';
      const bold = m.kind === 'own';
      const style = (bold ? ' font-weight="bold"' : ' font-style="italic"');
      const text = texts[i];
      // The ink's box: the marker and, when written, the name as wide as it may really be.
      const ink = text ? inkWidth(text, FLEET_FONT, bold) : 0;
      const box: Box = {
        x0: Math.min(x, leftOfNode ? tx - ink : x), x1: Math.max(x + markW, leftOfNode ? x + markW : tx + ink),
        y0: Math.min(y, mid - markSize(m.shape) / 2), y1: Math.max(y + rows[i]!, mid + markSize(m.shape) / 2),
      };
      out.push({
        svg: `<g class="fleet ${m.kind}" data-kind="${m.shape.kind}" data-ships="${m.shape.ships}"${opacity}><title>${escapeXml(m.title)}</title>`
          + `<path class="mark" d="${markPath(m.shape, x, mid)}" fill="${m.color}" stroke="${stroke}" stroke-width="1"${dash}/>`
          + (text ? fleetText(`fleet-name ${m.kind}`, tx, mid + FLEET_FONT * 0.35, text, `${anchor}${style}`, m.kind === 'sighting' ? GREY : INK) : '')
          + '</g>',
        box: pad(box, 3),
      });
      y += rows[i]!;
    });
  }
  out.push('</g>');
  return out;
}
