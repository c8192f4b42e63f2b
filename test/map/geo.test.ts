// The map over the real Caribbean: coasts from Natural Earth under nodes placed by their
// lat/lon, labels that never overlap (the Lesser Antilles is the test), fleet markers that
// say the kind and number of ships. The land is checked by drawing it (resvg) and reading
// pixels where Cuba and the open Caribbean are.
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { escapeXml, mapFromState, mapFromView, renderMapSvg, type MapInput } from '../../src/map/svg.js';
import { seededDice } from '../../src/rules/dice.js';
import { openTurn } from '../../src/rules/resolve.js';
import type { CampaignState } from '../../src/rules/state.js';
import { viewFor } from '../../src/rules/view.js';
import { builtInScenario } from '../../src/scenario/builtin.js';
import { scenarioToState } from '../../src/scenario/toState.js';
import { validateScenario } from '../../src/scenario/validate.js';
import { labelBoxes, overlapping } from './labelBoxes.js';

function caribbean(): CampaignState {
  const checked = validateScenario(builtInScenario('caribbean'));
  if (!checked.ok) throw new Error('scenario');
  const opened = openTurn(scenarioToState(checked.scenario), seededDice('map'));
  if (!opened.ok) throw new Error('open');
  return opened.state;
}

const LESSER_ANTILLES = ['st-kitts', 'antigua', 'guadeloupe', 'martinique', 'barbados'];

/** Where a node was drawn (its port circle or sea dot), found by its name. */
function nodeAt(svg: string, name: string): { x: number; y: number } {
  const m = new RegExp(`<title>${escapeXml(name).replace(/[.()]/g, '\\$&')}</title>(?:<circle cx="[^"]*" cy="[^"]*" r="9"[^>]*/>)?<circle class="(?:port|sea)" cx="([-\\d.]+)" cy="([-\\d.]+)"`).exec(svg);
  if (!m) throw new Error(`node ${name} not drawn`);
  return { x: Number(m[1]), y: Number(m[2]) };
}

/** The vertical extent of a marker's outline (path data with M, h, v, l, a, z as written by the map). */
function markHeight(d: string): number {
  const nums = [...d.matchAll(/([MhvlLaz])([^MhvlLaz]*)/g)];
  let y = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const [, c, args] of nums) {
    const v = (args ?? '').trim().split(/[\s,]+/).filter(Boolean).map(Number);
    if (c === 'M') y = v[1]!;
    else if (c === 'v') y += v[0]!;
    else if (c === 'l') y += v[1]!;
    else if (c === 'a') { min = Math.min(min, y - v[0]!); max = Math.max(max, y + v[0]!); }
    min = Math.min(min, y);
    max = Math.max(max, y);
  }
  return max - min;
}

/** The map's land drawn alone (green on blue) at `width` px; tells land from sea at a map point. */
function landRaster(svg: string, width: number): (x: number, y: number) => 'land' | 'sea' | 'edge' {
  const land = /<path class="land" d="([^"]+)"/.exec(svg)![1]!;
  const view = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg)!;
  const k = width / Number(view[1]);
  const height = Math.round(Number(view[2]) * k);
  const img = new Resvg(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${view[1]} ${view[2]}" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#0000ff"/><path d="${land}" fill="#00ff00"/></svg>`).render();
  // Read the pixels once: resvg hands out a fresh copy on each read.
  const px = img.pixels;
  return (x, y) => {
    const i = (Math.round(y * k) * img.width + Math.round(x * k)) * 4;
    return px[i + 1]! > 200 ? 'land' : px[i + 2]! > 200 ? 'sea' : 'edge';
  };
}

describe('the geographic map', () => {
  it('projects the nodes from their real lat/lon and draws the land of Natural Earth under them', () => {
    const state = caribbean();
    const svg = renderMapSvg(mapFromState(state), { width: 900 });
    const land = /<path class="land" d="([^"]+)"/.exec(svg);
    expect(land).not.toBeNull();
    // Clipped and thinned: small enough to send with every page and mail.
    expect(land![1]!.length).toBeLessThan(60_000);
    expect(svg.length).toBeLessThan(150_000);
    // Geography: Havana west of Kingston, Barbados the eastmost port, Norfolk the northmost.
    const at = (id: string) => nodeAt(svg, state.nodes.find((nd) => nd.id === id)!.name);
    expect(at('havana').x).toBeLessThan(at('kingston').x);
    const ports = state.ports.map((p) => at(p.node));
    expect(Math.max(...ports.map((p) => p.x))).toBe(at('barbados').x);
    expect(Math.min(...ports.map((p) => p.y))).toBe(at('norfolk').y);

    // Draw the land alone and read it: central Cuba and Martinique are land, the Caribbean
    // between Jamaica and Venezuela and the Gulf of Mexico are sea.
    const view = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg)!;
    const width = 2700;
    const k = width / Number(view[1]);
    const height = Math.round(Number(view[2]) * k);
    const alone = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${view[1]} ${view[2]}" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#0000ff"/><path d="${land![1]}" fill="#00ff00"/></svg>`;
    const img = new Resvg(alone).render();
    // The same Mercator fit the map uses, from the nodes' extent: find it from two ports.
    const lonLat = new Map(state.nodes.map((nd) => [nd.id, [nd.lon!, nd.lat!] as [number, number]]));
    const [hx, hy] = [at('havana').x, at('havana').y];
    const [bx] = [at('barbados').x];
    const px = (lon: number, lat: number): [number, number] => {
      // Linear in lon; Mercator in lat: anchor on Havana, scale from Havana–Barbados.
      const scale = (bx - hx) / ((lonLat.get('barbados')![0] - lonLat.get('havana')![0]) * Math.PI / 180);
      const merc = (l: number) => Math.log(Math.tan(Math.PI / 4 + (l * Math.PI) / 360));
      return [hx + (lon - lonLat.get('havana')![0]) * Math.PI / 180 * scale, hy - (merc(lat) - merc(lonLat.get('havana')![1])) * scale];
    };
    const pixels = img.pixels;
    const colour = (lon: number, lat: number) => {
      const [x, y] = px(lon, lat);
      const i = (Math.round(y * k) * img.width + Math.round(x * k)) * 4;
      return pixels[i + 1]! > 200 ? 'land' : pixels[i + 2]! > 200 ? 'sea' : 'edge';
    };
    expect(colour(-79.0, 21.9)).toBe('land'); // Cuba, near Camagüey
    expect(colour(-77.3, 18.15)).toBe('land'); // Jamaica, inland of Kingston
    expect(colour(-61.0, 14.65)).toBe('land'); // Martinique
    expect(colour(-72.0, 15.0)).toBe('sea'); // Caribbean Sea
    expect(colour(-90.0, 25.5)).toBe('sea'); // Gulf of Mexico
  });

  it('places the built-in ports and sea areas at real coordinates: every sea area at sea, every port on a coast', () => {
    const state = caribbean();
    const svg = renderMapSvg(mapFromState(state), { width: 900 });
    const at = landRaster(svg, 2700);
    for (const nd of state.nodes.filter((x) => x.kind !== 'box')) {
      expect(nd.lat, nd.id).toBeTypeOf('number');
      const c = nodeAt(svg, nd.name);
      if (nd.kind === 'sea') {
        expect(at(c.x, c.y), `${nd.id} should be at sea`).toBe('sea');
      } else {
        // A port is on the coast: land and sea within about 15 km (a map px is about 6 km here).
        const r = 2.7;
        const near: string[] = [];
        for (let dx = -r; dx <= r; dx += 0.34) for (let dy = -r; dy <= r; dy += 0.34) near.push(at(c.x + dx, c.y + dy));
        expect(near, `${nd.id} should be by land`).toContain('land');
        expect(near, `${nd.id} should be by the sea`).toContain('sea');
      }
    }
  });

  it('keeps the plain drawing for a scenario without lat/lon (no land)', () => {
    const input: MapInput = {
      nodes: [{ id: 'a', name: 'A', kind: 'port', x: 0, y: 0 }, { id: 'b', name: 'B', kind: 'sea', x: 100, y: 50 }],
      edges: [{ a: 'a', b: 'b' }], ports: [{ node: 'a', owner: 'red' }], powers: [{ key: 'red', color: '#c8102e' }],
    };
    const svg = renderMapSvg(input, { width: 600 });
    expect(svg).not.toContain('class="land"');
    expect(nodeAt(svg, 'A').x).toBeCloseTo(28, 0);
    expect(nodeAt(svg, 'B').x).toBeCloseTo(600 - 28, 0);
    // One node without lat/lon is enough to keep the plain drawing.
    const mixed = renderMapSvg({ ...input, nodes: [{ ...input.nodes[0]!, lat: 17, lon: -62 }, input.nodes[1]!] }, { width: 600 });
    expect(mixed).not.toContain('class="land"');
  });

  it('labels every port of the Lesser Antilles, and no two labels on the map overlap (GM and player maps)', () => {
    const state = caribbean();
    for (const svg of [
      renderMapSvg(mapFromState(state), { width: 900 }),
      renderMapSvg(mapFromView(viewFor(state, 'british')), { width: 900, clickable: true }),
      renderMapSvg(mapFromView(viewFor(state, 'french')), { width: 900 }),
    ]) {
      const boxes = labelBoxes(svg);
      for (const id of LESSER_ANTILLES) {
        const name = state.nodes.find((nd) => nd.id === id)!.name;
        expect(boxes.some((b) => b.cls === 'place' && b.text === name), name).toBe(true);
      }
      expect(overlapping(boxes)).toEqual([]);
      // Nor does a label cover a port.
      for (const p of state.ports) {
        const c = nodeAt(svg, state.nodes.find((nd) => nd.id === p.node)!.name);
        const under = boxes.filter((b) => b.x0 < c.x + 6 && b.x1 > c.x - 6 && b.y0 < c.y + 6 && b.y1 > c.y - 6);
        expect(under.map((b) => b.text), p.node).toEqual([]);
      }
      // The Lesser Antilles' own labels were checked among all of them above; there are plenty.
      const la = LESSER_ANTILLES.map((id) => nodeAt(svg, state.nodes.find((nd) => nd.id === id)!.name));
      const near = boxes.filter((b) => la.some((c) => Math.hypot((b.x0 + b.x1) / 2 - c.x, (b.y0 + b.y1) / 2 - c.y) < 120));
      expect(near.length).toBeGreaterThanOrEqual(8);
    }
  });

  it('draws each fleet as a marker whose shape says its kind and whose size its number of ships', () => {
    const state = caribbean();
    const jamaica = state.fleets.find((f) => f.name === 'Jamaica Squadron')!;
    const gulf = state.fleets.find((f) => f.name === 'Gulf Squadron')!;
    // One of the Windward Islands Squadron's frigates escorts a convoy on its own.
    const windward = state.fleets.find((f) => f.name === 'Windward Islands Squadron')!;
    const escort = { ...windward, id: 'f99', name: 'Convoy <escort>', ships: windward.ships.slice(3), convoy: { from: 'barbados', to: 'kingston', merchantmen: 3, pickedUp: true } };
    state.fleets.push(escort);
    jamaica.ships[4]!.status = 'sunk';
    const svg = renderMapSvg(mapFromState(state), { width: 900 });
    const mark = (name: string) => {
      const m = new RegExp(`<g class="fleet own" data-kind="(\\w+)" data-ships="(\\d+)"><title>${name}[^<]*</title><path class="mark" d="([^"]+)"`).exec(svg);
      if (!m) throw new Error(`no marker for ${name}`);
      return { kind: m[1], ships: Number(m[2]), height: markHeight(m[3]!) };
    };
    const j = mark('Jamaica Squadron');
    expect(j).toMatchObject({ kind: 'line', ships: 4 }); // the sunk ship is not counted
    const g = mark('Gulf Squadron');
    expect(g).toMatchObject({ kind: 'frigates', ships: gulf.ships.length });
    const c = mark('Convoy &lt;escort&gt;');
    expect(c).toMatchObject({ kind: 'convoy', ships: 1 });
    const m = mark('Escadre de la Martinique');
    expect(m).toMatchObject({ kind: 'line', ships: 6 });
    expect(m.height).toBeGreaterThan(j.height);
    expect(j.height).toBeGreaterThan(c.height);
    // The legend explains the shapes.
    expect(svg).toContain('>with ships of the line</text>');
    expect(svg).toContain('>frigates only</text>');
    expect(svg).toContain('>convoy</text>');
  });
});
