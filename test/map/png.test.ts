// The mailed map (a PNG drawn as a cached base with each reader's overlay over it) is the
// same picture as the page's SVG drawn whole: so it shows exactly what the SVG shows, and
// the fog tests of the SVG (turn.test.ts) hold for the mail too.
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { mapToPng } from '../../src/map/png.js';
import { mapFromState, mapFromView, renderMapLayers, renderMapSvg, type MapInput } from '../../src/map/svg.js';
import { turnFromEvents } from '../../src/map/turnLayer.js';
import { seededDice } from '../../src/rules/dice.js';
import type { PowerOrders } from '../../src/rules/orders.js';
import { openTurn, resolveTurn } from '../../src/rules/resolve.js';
import type { CampaignState } from '../../src/rules/state.js';
import { eventsFor, viewFor } from '../../src/rules/view.js';
import { builtInScenario } from '../../src/scenario/builtin.js';
import { scenarioToState } from '../../src/scenario/toState.js';
import { validateScenario } from '../../src/scenario/validate.js';

const FONT = {
  loadSystemFonts: false, defaultFontFamily: 'DejaVu Serif', serifFamily: 'DejaVu Serif',
  fontFiles: ['DejaVuSerif.ttf', 'DejaVuSerif-Bold.ttf', 'DejaVuSerif-Italic.ttf', 'DejaVuSerif-BoldItalic.ttf'].map((f) => `/usr/share/fonts/truetype/dejavu/${f}`),
};

/** Turn 1 with every fleet sailing up to three lanes: tracks, fleets away from their ports. */
function sailedTurn(): { state: CampaignState; events: ReturnType<typeof resolveTurn> & { ok: true } } {
  const checked = validateScenario(builtInScenario('caribbean'));
  if (!checked.ok) throw new Error('scenario');
  const opened = openTurn(scenarioToState(checked.scenario), seededDice('png'));
  if (!opened.ok) throw new Error('open');
  const start = opened.state;
  const sea = new Set(start.nodes.filter((nd) => nd.kind === 'sea').map((nd) => nd.id));
  const orders: PowerOrders[] = start.powers.filter((p) => p.playable).map((p) => ({
    power: p.key, forms: [],
    // The power's first fleet carries out its mission (rules VI: orders "in keeping with the orders they receive").
    fleets: start.fleets.filter((f) => f.power === p.key).map((f, i) => {
      const route: string[] = [];
      let at = f.at;
      for (let i = 0; i < 3; i++) {
        const next = start.edges.map((e) => (e.a === at ? e.b : e.b === at ? e.a : null)).find((x) => x && sea.has(x) && !route.includes(x) && x !== f.at);
        if (!next) break;
        route.push(next);
        at = next;
      }
      return { fleetId: f.id, move: { leaveHarbor: f.inHarbor, route, enterHarbor: false }, stance: 'avoid' as const, ...(i === 0 ? { mission: true } : {}) };
    }),
  }));
  const r = resolveTurn(start, orders, seededDice('png-1'));
  if (!r.ok) throw new Error(r.error.message);
  return { state: r.state, events: r };
}

/** A PNG's pixels, read back by resvg (drawn 1:1 as an image). */
function decode(png: Buffer, width: number, height: number): Buffer {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${width}" height="${height}"><image xlink:href="data:image/png;base64,${png.toString('base64')}" width="${width}" height="${height}" image-rendering="optimizeSpeed"/></svg>`;
  return new Resvg(svg).render().pixels;
}

/** How the mailed PNG differs from resvg's drawing of the whole SVG, pixel by pixel. */
async function compare(input: MapInput): Promise<{ width: number; off: number; far: number }> {
  const png = await mapToPng(input);
  expect(png.png.subarray(1, 4).toString('latin1')).toBe('PNG');
  expect(png.png[25]).toBe(3); // colour type 3: a palette
  const whole = new Resvg(renderMapSvg(input, { width: 900 }), { fitTo: { mode: 'width', value: png.width }, font: FONT, background: '#ffffff' }).render();
  expect([whole.width, whole.height]).toEqual([png.width, png.height]);
  const a = decode(png.png, png.width, png.height);
  const b = whole.pixels;
  let off = 0;
  let far = 0;
  for (let i = 0; i < a.length; i += 4) {
    const d = Math.abs(a[i]! - b[i]!) + Math.abs(a[i + 1]! - b[i + 1]!) + Math.abs(a[i + 2]! - b[i + 2]!);
    if (d > 30) off++;
    if (d > 150) far++;
  }
  return { width: png.width, off: off / (a.length / 4), far };
}

describe('the map as a PNG for mail', () => {
  it("draws a player's map, tracks and all, as resvg draws the page's SVG (only palette rounding differs)", async () => {
    const { state, events } = sailedTurn();
    const view = viewFor(state, 'british');
    const input = mapFromView(view, {
      title: 'British after turn 1',
      turn: turnFromEvents(eventsFor(events.events, { role: 'player', power: 'british' }), { names: new Map(view.fleets.map((f) => [f.id, f.name])) }),
      highlight: ['kingston'],
    });
    const layers = renderMapLayers(input, { width: 900 });
    expect(layers.overlay.some((p) => typeof p !== 'string' && p.svg.includes('class="step"'))).toBe(true);
    expect(layers.overlay.some((p) => typeof p !== 'string' && p.svg.includes('class="label fleet-name'))).toBe(true);
    const { width, off, far } = await compare(input);
    expect(width).toBe(1100);
    // A missing fleet name, track or ring would be hundreds of pixels off; palette rounding of edges a few.
    expect(off).toBeLessThan(0.002);
    expect(far).toBeLessThan(60);
  });

  it("draws the GM's map (every fleet) the same way, every sea name kept (fleets stand clear of them), the inset included", async () => {
    const { state } = sailedTurn();
    const input = mapFromState(state, { title: 'GM' });
    const layers = renderMapLayers(input, { width: 900 });
    expect(layers.hidden).toEqual([]);
    const seaNames = (s: string) => (s.match(/class="label sea-name"/g) ?? []).length;
    // Every sea node on the whole map, and again those of the Lesser Antilles in the inset.
    expect(seaNames(layers.page)).toBeGreaterThan(state.nodes.filter((nd) => nd.kind === 'sea').length);
    expect(layers.page).toContain('The Lesser Antilles');
    const { off, far } = await compare(input);
    expect(off).toBeLessThan(0.002);
    expect(far).toBeLessThan(60);
  });
});
