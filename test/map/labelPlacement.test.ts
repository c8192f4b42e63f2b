// Every node of the built-in Caribbean is named on the map, no two labels overlap, and a
// name that stands away from its mark has a leader line back to it: what a reader checks
// when looking for a place on the page's map and on the mailed PNG (the same SVG).
import { describe, expect, it } from 'vitest';
import { mapFromState, renderMapSvg } from '../../src/map/svg.js';
import { builtInScenario } from '../../src/scenario/builtin.js';
import { scenarioToState } from '../../src/scenario/toState.js';
import { validateScenario } from '../../src/scenario/validate.js';
import { labelBoxes, overlapping } from './labelBoxes.js';

/** A label this close to its mark (map units, box edge to mark centre) reads as the mark's own. */
const NEAR = 18;

function caribbeanSvg(): string {
  const v = validateScenario(builtInScenario('caribbean'));
  if (!v.ok) throw new Error('the built-in scenario does not validate');
  return renderMapSvg(mapFromState(scenarioToState(v.scenario)), { width: 900 });
}

interface NodeDrawn { name: string; x: number; y: number; labels: ReturnType<typeof labelBoxes>; leader: { x: number; y: number } | null }

function nodesDrawn(svg: string, group = '<g data-kind='): NodeDrawn[] {
  const nodes: NodeDrawn[] = [];
  const open = group.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const m of svg.matchAll(new RegExp(`${open}"(\\w+)"[^>]*><title>([^<]*)</title>(.*?)</g>`, 'g'))) {
    const body = m[3]!;
    const mark = /<circle class="(?:port|sea)" cx="([-\d.]+)" cy="([-\d.]+)"/.exec(body);
    const box = /<rect class="box" x="([-\d.]+)" y="([-\d.]+)" width="([-\d.]+)"/.exec(body);
    const x = mark ? Number(mark[1]) : Number(box![1]) + Number(box![3]) / 2;
    const y = mark ? Number(mark[2]) : Number(box![2]) + Number(box![3]) / 2;
    const line = /<line class="leader" x1="[-\d.]+" y1="[-\d.]+" x2="([-\d.]+)" y2="([-\d.]+)"/.exec(body);
    nodes.push({ name: m[2]!.replace(/&amp;/g, '&'), x, y, labels: labelBoxes(body), leader: line ? { x: Number(line[1]), y: Number(line[2]) } : null });
  }
  return nodes;
}

/** Distance from a point to a box (0 inside). */
function distance(x: number, y: number, b: { x0: number; y0: number; x1: number; y1: number }): number {
  return Math.hypot(Math.max(b.x0 - x, 0, x - b.x1), Math.max(b.y0 - y, 0, y - b.y1));
}

describe('labels of the built-in Caribbean map', () => {
  const svg = caribbeanSvg();
  const nodes = nodesDrawn(svg);

  it('names all 95 nodes, ports, sea areas and boxes alike', () => {
    expect(nodes).toHaveLength(95);
    expect(nodes.filter((nd) => nd.labels.length !== 1).map((nd) => nd.name)).toEqual([]);
    // Passages that once had no name on the map.
    const named = new Set(nodes.flatMap((nd) => nd.labels.map((l) => l.text)));
    for (const name of ['Dominica Passage', 'Guadeloupe Passage', 'Martinique Passage', 'Anegada Passage', 'Windward Passage', 'Jamaica Channel']) {
      expect(named.has(name), name).toBe(true);
    }
  });

  it('overlaps no label with another, fleets included', () => {
    const boxes = labelBoxes(svg);
    expect(boxes.length).toBeGreaterThan(95);
    expect(overlapping(boxes)).toEqual([]);
  });

  it('draws the Lesser Antilles again, larger, each of its nodes named once, by its mark or on a leader line', () => {
    const inset = nodesDrawn(svg, '<g class="inset-node" data-kind=');
    const names = inset.map((nd) => nd.name);
    for (const name of ['Anegada Passage', 'St. Kitts', 'Antigua (English Harbour)', 'Guadeloupe Passage', 'Dominica Passage', 'Martinique Passage', 'St. Lucia Channel', 'Barbados (Bridgetown)', 'Off Tobago']) {
      expect(names, name).toContain(name);
    }
    expect(inset.filter((nd) => nd.labels.length !== 1).map((nd) => nd.name)).toEqual([]);
    expect(inset.filter((nd) => distance(nd.x, nd.y, nd.labels[0]!) > NEAR && (!nd.leader || distance(nd.leader.x, nd.leader.y, nd.labels[0]!) > 2)).map((nd) => nd.name)).toEqual([]);
    expect(/The Lesser Antilles, (\d+\.\d) times larger/.exec(svg)?.[1]).toMatch(/^[3-9]/);
  });

  it('puts each name by its mark, or draws a leader line from the mark to the name', () => {
    const far = nodes.filter((nd) => {
      const label = nd.labels[0]!;
      if (distance(nd.x, nd.y, label) <= NEAR) return false;
      // The leader line ends on the label's box.
      return !nd.leader || distance(nd.leader.x, nd.leader.y, label) > 2;
    });
    expect(far.map((nd) => nd.name)).toEqual([]);
  });
});
