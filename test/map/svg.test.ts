// The SVG map: well-formed XML, everything escaped, the right things drawn for the reader.
import { describe, expect, it } from 'vitest';
import { escapeXml, mapFromState, mapFromView, renderMapSvg, type MapInput } from '../../src/map/svg.js';
import { seededDice } from '../../src/rules/dice.js';
import { openTurn } from '../../src/rules/resolve.js';
import type { CampaignState } from '../../src/rules/state.js';
import { viewFor } from '../../src/rules/view.js';
import { builtInScenario } from '../../src/scenario/builtin.js';
import { scenarioToState } from '../../src/scenario/toState.js';
import { validateScenario } from '../../src/scenario/validate.js';

/**
 * A small XML well-formedness check (no parser package): tags balanced and properly
 * nested, attributes quoted and unique, no raw '<' or stray '&' in text or values.
 * Returns the element names in document order.
 */
function checkXml(xml: string): string[] {
  const stack: string[] = [];
  const elements: string[] = [];
  let i = 0;
  const entity = /^&(?:[a-zA-Z]+|#[0-9]+|#x[0-9a-fA-F]+);/;
  const checkText = (t: string, where: string) => {
    for (let k = 0; k < t.length; k++) {
      if (t[k] === '<') throw new Error(`raw '<' in ${where}`);
      if (t[k] === '&' && !entity.test(t.slice(k))) throw new Error(`stray '&' in ${where}: ${t.slice(k, k + 12)}`);
    }
  };
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    if (lt < 0) { checkText(xml.slice(i), 'trailing text'); break; }
    checkText(xml.slice(i, lt), 'text');
    if (xml.startsWith('<!--', lt)) { i = xml.indexOf('-->', lt) + 3; continue; }
    if (xml.startsWith('<?', lt)) { i = xml.indexOf('?>', lt) + 2; continue; }
    // Find the end of the tag, skipping quoted attribute values.
    let j = lt + 1;
    let quote: string | null = null;
    while (j < xml.length) {
      const c = xml[j]!;
      if (quote) { if (c === quote) quote = null; } else if (c === '"' || c === "'") quote = c; else if (c === '>') break;
      j++;
    }
    if (j >= xml.length) throw new Error('unterminated tag');
    const body = xml.slice(lt + 1, j);
    i = j + 1;
    if (body.startsWith('/')) {
      const name = body.slice(1).trim();
      const open = stack.pop();
      if (open !== name) throw new Error(`</${name}> closes <${open}>`);
      continue;
    }
    const selfClosing = body.endsWith('/');
    const inner = selfClosing ? body.slice(0, -1) : body;
    const m = /^([A-Za-z_][\w.:-]*)/.exec(inner);
    if (!m) throw new Error(`bad tag <${body}>`);
    const name = m[1]!;
    let rest = inner.slice(name.length);
    const seen = new Set<string>();
    while (rest.trim()) {
      const a = /^\s+([A-Za-z_][\w.:-]*)\s*=\s*("([^"]*)"|'([^']*)')/.exec(rest);
      if (!a) throw new Error(`bad attributes in <${name}>: ${rest.slice(0, 40)}`);
      if (seen.has(a[1]!)) throw new Error(`duplicate attribute ${a[1]} in <${name}>`);
      seen.add(a[1]!);
      checkText(a[3] ?? a[4] ?? '', `attribute ${a[1]}`);
      rest = rest.slice(a[0].length);
    }
    elements.push(name);
    if (!selfClosing) stack.push(name);
  }
  if (stack.length) throw new Error(`unclosed <${stack.join('> <')}>`);
  return elements;
}

function caribbean(): CampaignState {
  const checked = validateScenario(builtInScenario('caribbean'));
  if (!checked.ok) throw new Error('scenario');
  const opened = openTurn(scenarioToState(checked.scenario), seededDice('map'));
  if (!opened.ok) throw new Error('open');
  return opened.state;
}

function count(s: string, re: RegExp): number {
  return (s.match(re) ?? []).length;
}

const tiny: MapInput = {
  nodes: [
    { id: 'a', name: 'Port A', kind: 'port', x: 0, y: 0 },
    { id: 'b', name: 'Sea B', kind: 'sea', x: 100, y: 0 },
    { id: 'c', name: 'Sea C', kind: 'sea', x: 100, y: 50 },
    { id: 'box-1', name: 'Box 1 (Atlantic)', kind: 'box' },
  ],
  edges: [{ a: 'a', b: 'b', wind: 'b>a' }, { a: 'b', b: 'c', wind: null }, { a: 'c', b: 'box-1' }],
  ports: [{ node: 'a', owner: 'red' }],
  powers: [{ key: 'red', name: 'Red', color: '#c8102e' }],
};

describe('renderMapSvg', () => {
  it('draws the Caribbean as well-formed SVG: a circle per port in its owner\'s colour, a dot per sea node', () => {
    const state = caribbean();
    const svg = renderMapSvg(mapFromState(state, { title: 'GM map' }));
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    const elements = checkXml(svg);
    expect(elements[0]).toBe('svg');
    // The whole map, then the detail inset of the Lesser Antilles, each with its own marks.
    const insetAt = svg.indexOf('<g class="inset"');
    expect(insetAt).toBeGreaterThan(0);
    const whole = svg.slice(0, insetAt);
    const inset = svg.slice(insetAt);
    expect(count(whole, /<circle class="port"/g)).toBe(state.ports.length);
    expect(count(whole, /<circle class="sea"/g)).toBe(state.nodes.filter((n) => n.kind === 'sea').length);
    expect(count(whole, /<line x1=/g)).toBe(state.edges.length);
    for (const name of ['St. Kitts', 'Antigua (English Harbour)', 'Guadeloupe (Pointe-à-Pitre)', 'Martinique (Fort-de-France)', 'Barbados (Bridgetown)']) {
      expect(inset).toContain(`>${escapeXml(name)}</text>`);
    }
    expect(count(svg, /<polygon class="wind"/g)).toBe(state.edges.filter((e) => e.wind).length);
    const kingston = state.ports.find((p) => p.node === 'kingston')!;
    const british = state.powers.find((p) => p.key === kingston.owner)!;
    expect(svg).toMatch(new RegExp(`<circle class="port" [^>]*fill="${british.color}"`));
    // Port names are written out; every sea area is named in its tooltip, and on the map
    // where the name fits (whole or without its bracketed part).
    expect(svg).toContain('>Kingston (Jamaica)</text>');
    const seas = state.nodes.filter((n) => n.kind === 'sea');
    for (const sea of seas) expect(svg).toContain(`<title>${escapeXml(sea.name)}</title>`);
    const written = seas.filter((sea) => svg.includes(`>${escapeXml(sea.name)}</text>`) || svg.includes(`>${escapeXml(sea.name.replace(/\s*\([^)]*\)/g, ''))}</text>`));
    expect(written.length).toBeGreaterThan(seas.length / 2);
    expect(svg).toContain('>Western Atlantic</text>');
    expect(svg).toContain('>Sargasso Sea</text>');
    // The GM sees every fleet.
    for (const f of state.fleets) expect(svg).toContain(escapeXml(f.name));
  });

  it('makes every node clickable with data-node and class="node" when asked, and not otherwise', () => {
    const state = caribbean();
    const input = mapFromState(state);
    const plain = renderMapSvg(input);
    expect(plain).not.toContain('data-node=');
    const svg = renderMapSvg(input, { clickable: true });
    checkXml(svg);
    const ids = [...svg.matchAll(/<g class="node" data-node="([^"]+)"/g)].map((m) => m[1]);
    expect(ids.sort()).toEqual(state.nodes.map((n) => n.id).sort());
    // Fleet labels do not catch the clicks meant for the nodes under them.
    expect(svg).toContain('<g class="fleets" pointer-events="none">');
  });

  it('escapes every text and refuses a colour that is not a colour', () => {
    const svg = renderMapSvg({
      ...tiny,
      title: 'Map & <co>',
      nodes: [...tiny.nodes.slice(0, 3), { id: 'x"y', name: 'Bay of <script>alert(1)</script> & "quotes"', kind: 'port', x: 50, y: 50 }],
      ports: [{ node: 'a', owner: 'red' }, { node: 'x"y', owner: 'evil' }],
      powers: [{ key: 'red', name: 'Red', color: '#c8102e' }, { key: 'evil', name: 'Evil', color: '#fff" onload="alert(1)' }],
      fleets: [{ id: 'f1', name: '<b>x</b>', power: 'red', at: 'a', inHarbor: true }],
    }, { clickable: true });
    checkXml(svg);
    expect(svg).not.toContain('<script>');
    expect(svg).not.toContain('<b>');
    expect(svg).not.toContain('onload');
    expect(svg).toContain('&lt;b&gt;x&lt;/b&gt; (in harbor)');
    expect(svg).toContain('Bay of &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;');
    expect(svg).toContain('data-node="x&quot;y"');
    expect(svg).toContain('<title>Map &amp; &lt;co&gt;</title>');
  });

  it('places a node without x, y at the margin, and points the wind arrow the way the wind blows', () => {
    const svg = renderMapSvg(tiny, { width: 600, clickable: true });
    checkXml(svg);
    const box = /<g class="node" data-node="box-1"[^>]*>.*?<rect class="box" x="([\d.]+)" y="([\d.]+)"/.exec(svg);
    expect(box).not.toBeNull();
    const bx = Number(box![1]) + 10;
    expect(bx).toBeGreaterThan(600 - 150);
    expect(bx).toBeLessThan(600);
    // The lane to the box is dashed (it leads off the map).
    expect(count(svg, /stroke-dasharray="4 3"/g)).toBe(1);
    // wind "b>a": blows from b (east) toward a (west): the arrow's tip is its westmost point.
    const wind = /<polygon class="wind" points="([^"]+)"/.exec(svg)!;
    const pts = wind[1]!.split(' ').map((p) => p.split(',').map(Number) as [number, number]);
    const tipX = pts[0]![0];
    expect(tipX).toBeLessThan(pts[1]![0]);
    expect(tipX).toBeLessThan(pts[2]![0]);
  });

  it('draws a route and rings highlighted nodes', () => {
    const svg = renderMapSvg({ ...tiny, route: ['a', 'b', 'c'], highlight: ['c'] });
    checkXml(svg);
    expect(count(svg, /<polyline class="route" points="[^"]+"/g)).toBe(1);
    expect(/<polyline class="route" points="([^"]+)"/.exec(svg)![1]!.split(' ')).toHaveLength(3);
    expect(count(svg, /<circle class="highlight"/g)).toBe(1);
  });

  it("a player's map shows their fleets, enemies seen now, and older sightings greyed with their age", () => {
    const state = caribbean();
    const french = state.fleets.filter((f) => f.power === 'french');
    // One French fleet seen last turn (turn - 1 = "now"), one last seen long ago.
    state.turn = 4;
    state.sightings = [
      { observer: 'british', fleetId: french[0]!.id, power: 'french', fleetName: french[0]!.name, node: french[0]!.at, turn: 3, phase: 2, ships: [] },
      { observer: 'british', fleetId: french[1]!.id, power: 'french', fleetName: french[1]!.name, node: 'kingston', turn: 1, phase: 5, ships: [] },
    ];
    const view = viewFor(state, 'british');
    const svg = renderMapSvg(mapFromView(view), { clickable: true });
    checkXml(svg);
    for (const f of state.fleets.filter((x) => x.power === 'british')) expect(svg).toContain(`>${escapeXml(f.name)}`);
    // Where a label would be crowded the name is shortened, but the tooltip always says it all.
    expect(svg).toContain(`<g class="fleet enemy"`);
    expect(svg).toContain(`<title>${escapeXml(french[0]!.name)} (France), seen now:`);
    expect(svg).toContain(`<title>${escapeXml(french[1]!.name)} (France), last seen here on turn 1`);
    expect(svg).toMatch(/<g class="fleet sighting" [^>]*opacity="0.75">/);
    // Fleets this power never saw are not on its map.
    for (const f of state.fleets.filter((x) => x.power === 'american')) expect(svg).not.toContain(escapeXml(f.name));
  });
});

describe('the XML check itself', () => {
  it('catches what it should', () => {
    expect(() => checkXml('<a><b></a></b>')).toThrow();
    expect(() => checkXml('<a>x < y</a>')).toThrow();
    expect(() => checkXml('<a t="1" t="2"/>')).toThrow();
    expect(() => checkXml('<a>fish & chips</a>')).toThrow();
    expect(() => checkXml('<a>')).toThrow();
    expect(checkXml('<a x="1"><b/>&amp;<c></c></a>')).toEqual(['a', 'b', 'c']);
  });
});
