// Watch the turn happen: a resolved turn drawn from the reader's cut of the event log.
// A player's drawing holds their own tracks and what their power sighted, nothing else;
// the GM's holds every track of the same turn.
import { describe, expect, it } from 'vitest';
import { escapeXml, FLEETS_NOT_SHOWN, mapFromState, mapFromView, renderMapSvg } from '../../src/map/svg.js';
import { turnFromEvents } from '../../src/map/turnLayer.js';
import type { GameEvent } from '../../src/rules/events.js';
import { seededDice } from '../../src/rules/dice.js';
import type { PowerOrders } from '../../src/rules/orders.js';
import { openTurn, resolveTurn } from '../../src/rules/resolve.js';
import type { CampaignState } from '../../src/rules/state.js';
import { eventsFor, viewFor } from '../../src/rules/view.js';
import { builtInScenario } from '../../src/scenario/builtin.js';
import { scenarioToState } from '../../src/scenario/toState.js';
import { validateScenario } from '../../src/scenario/validate.js';

function caribbean(): CampaignState {
  const checked = validateScenario(builtInScenario('caribbean'));
  if (!checked.ok) throw new Error('scenario');
  const opened = openTurn(scenarioToState(checked.scenario), seededDice('turn-map'));
  if (!opened.ok) throw new Error('open');
  return opened.state;
}

/** The shortest chain of lanes from a to b (both ends included). */
function path(state: CampaignState, a: string, b: string): string[] {
  const prev = new Map<string, string | null>([[a, null]]);
  const queue = [a];
  while (queue.length) {
    const at = queue.shift()!;
    if (at === b) break;
    for (const e of state.edges) {
      const next = e.a === at ? e.b : e.b === at ? e.a : null;
      if (next && !prev.has(next) && state.nodes.find((nd) => nd.id === next)?.kind === 'sea') { prev.set(next, at); queue.push(next); }
    }
  }
  const out = [b];
  while (prev.get(out[0]!)) out.unshift(prev.get(out[0]!)!);
  return out;
}

function move(state: CampaignState, fleetName: string, to: string): { power: string; fleet: { fleetId: string; move: { leaveHarbor: boolean; route: string[]; enterHarbor: boolean }; stance: 'avoid' } } {
  const f = state.fleets.find((x) => x.name === fleetName)!;
  return { power: f.power, fleet: { fleetId: f.id, move: { leaveHarbor: f.inHarbor, route: path(state, f.at, to).slice(1), enterHarbor: false }, stance: 'avoid' } };
}

function ordersOf(moves: ReturnType<typeof move>[]): PowerOrders[] {
  const by = new Map<string, PowerOrders>();
  for (const m of moves) {
    const o = by.get(m.power) ?? { power: m.power, fleets: [], forms: [] };
    // Each power's first fleet carries out its mission (rules VI: orders "in keeping with the orders they receive").
    o.fleets.push(o.fleets.length === 0 ? { ...m.fleet, mission: true } : m.fleet);
    by.set(m.power, o);
  }
  return [...by.values()];
}

describe('a turn on the map', () => {
  it("draws a player's own tracks and sightings only; the GM's map of the same turn draws every track", () => {
    // The British Windward Islands Squadron and the French Escadre de la Martinique both make
    // for the Martinique Passage; the American Gulf Squadron sails the Gulf, far from both.
    // The first seed under which the British sight the French is used (the dice decide sightings).
    let found: { state: CampaignState; events: GameEvent[]; start: CampaignState } | null = null;
    for (let i = 0; i < 60 && !found; i++) {
      const start = caribbean();
      const orders = ordersOf([
        move(start, 'Windward Islands Squadron', 'martinique-passage'),
        move(start, 'Escadre de la Martinique', 'martinique-passage'),
        move(start, 'Gulf Squadron', 'gulf-central'),
        move(start, 'Jamaica Squadron', 'jamaica-channel'),
      ]);
      const r = resolveTurn(start, orders, seededDice(`turn-map-${i}`));
      if (!r.ok) throw new Error(r.error.message);
      const britishSaw = eventsFor(r.events, { role: 'player', power: 'british' })
        .some((e) => e.type === 'spot' && Array.isArray(e['sighted']) && (e['sighted'] as { power: string }[]).some((s) => s.power === 'french'));
      if (britishSaw) found = { state: r.state, events: r.events, start };
    }
    expect(found, 'no seed of 60 gave a British sighting of the French').not.toBeNull();
    const { state, events, start } = found!;
    const gulf = start.fleets.find((f) => f.name === 'Gulf Squadron')!;
    const jamaica = start.fleets.find((f) => f.name === 'Jamaica Squadron')!;
    const escadre = start.fleets.find((f) => f.name === 'Escadre de la Martinique')!;
    // The British never sighted the Gulf Squadron (it stayed in the Gulf).
    const britishEvents = eventsFor(events, { role: 'player', power: 'british' });
    expect(britishEvents.some((e) => e.fleetIds?.includes(gulf.id))).toBe(false);

    const player = renderMapSvg(mapFromView(viewFor(state, 'british'), {
      turn: turnFromEvents(britishEvents, { names: new Map(state.fleets.map((f) => [f.id, f.name])) }),
    }));
    const gm = renderMapSvg(mapFromState(state, { turn: turnFromEvents(events, { names: new Map(state.fleets.map((f) => [f.id, f.name])), sightings: false }) }));

    // The GM sees the Gulf Squadron's track; the British map has no element for it at all.
    expect(gm).toContain(`<g class="track" data-fleet="${gulf.id}"`);
    expect(player).not.toContain(`data-fleet="${gulf.id}"`);
    expect(player).not.toContain(escapeXml(gulf.name));
    // Nor the French track: only where and when the French were sighted.
    expect(gm).toContain(`<g class="track" data-fleet="${escadre.id}"`);
    expect(player).not.toContain(`<g class="track" data-fleet="${escadre.id}"`);
    const spotted = britishEvents.filter((e) => e.type === 'spot' && Array.isArray(e['sighted']))
      .flatMap((e) => (e['sighted'] as { fleetId: string; node: string }[]).filter((s) => s.fleetId === escadre.id).map(() => e.phase));
    expect(spotted.length).toBeGreaterThan(0);
    expect(player).toContain(`<g class="sighted" data-fleet="${escadre.id}" data-phase="${spotted[0]}">`);

    // The British map draws each step of the Jamaica Squadron's track, in the phase it was sailed.
    const steps = britishEvents.filter((e) => e.type === 'move' && e.fleetIds?.[0] === jamaica.id);
    expect(steps.length).toBeGreaterThan(0);
    const drawnPhases = [...(player.split(`<g class="track" data-fleet="${jamaica.id}"`)[1]!.split('<g class="track"')[0]!.split('\n</g>')[0]!)
      .matchAll(/<g class="step" data-phase="(\d)">/g)].map((m) => Number(m[1]));
    expect(drawnPhases).toEqual(steps.map((e) => e.phase));
    // Battles the British fought are drawn on both maps.
    const battles = britishEvents.filter((e) => e.type === 'battle').length;
    expect((player.match(/<g class="battle"/g) ?? []).length).toBe(battles);
  });

  it('draws captured ports and escapes every name that comes from events', () => {
    const state = caribbean();
    const events: GameEvent[] = [
      { type: 'move', phase: 2, visibleTo: ['french'], fleetIds: ['f9'], power: 'french', from: 'martinique', to: 'lee-of-martinique', text: '<script>x</script> moved from Martinique to Leeward of Martinique (phase 2)' },
      { type: 'portCaptured', phase: 0, visibleTo: ['french', 'british'], power: 'french', nodeId: 'barbados', text: 'Barbados & "Bridgetown" surrenders to France' },
    ];
    const svg = renderMapSvg(mapFromState(state, { turn: turnFromEvents(events) }));
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;x&lt;/script&gt;: 1 step');
    expect(svg).toContain(`<g class="captured" data-phase="7"><title>Barbados &amp; &quot;Bridgetown&quot; surrenders to France</title><circle`);
  });

  it("draws each power's plotted moves as arrows on the GM's map", () => {
    const state = caribbean();
    const jamaica = state.fleets.find((f) => f.name === 'Jamaica Squadron')!;
    const route = path(state, jamaica.at, 'jamaica-channel');
    const svg = renderMapSvg(mapFromState(state, { plotted: [{ fleetId: jamaica.id, fleetName: jamaica.name, power: 'british', route }] }));
    const arrow = new RegExp(`<g class="plotted-order" data-fleet="${jamaica.id}" data-power="british" data-route="${route.join(' ')}"><title>Jamaica Squadron: plotted move</title><polyline points="([^"]+)"[^>]*/><polygon points="[^"]+" fill="#c8102e"/></g>`).exec(svg);
    expect(arrow).not.toBeNull();
    expect(arrow![1]!.split(' ')).toHaveLength(route.length);
    expect(svg).not.toContain('class="phase-mark"'); // the GM's arrows carry no phases
  });

  it("marks each place of a player's own plotted move with the phase the fleet reaches it in", () => {
    const state = caribbean();
    const jamaica = state.fleets.find((f) => f.name === 'Jamaica Squadron')!;
    const route = [jamaica.at, 'off-morant-point', 'south-of-jamaica'];
    // Waits in phases 1-2, reaches Off Morant Point in 3 and South of Jamaica in 4, then stays.
    const phases = [jamaica.at, jamaica.at, 'off-morant-point', 'south-of-jamaica', 'south-of-jamaica', 'south-of-jamaica'].map((node, i) => ({ phase: i + 1, node }));
    const svg = renderMapSvg(mapFromState(state, { plotted: [{ fleetId: jamaica.id, fleetName: jamaica.name, power: 'british', route, phases }] }));
    const marks = [...svg.matchAll(/<g class="phase-mark" data-node="([^"]+)"><title>Jamaica Squadron: phase ([^<]+)<\/title>.*?<text[^>]*>([^<]+)<\/text><\/g>/g)].map((m) => [m[1], m[3]]);
    expect(marks).toEqual([['off-morant-point', '3'], ['south-of-jamaica', '4']]);
  });
});

describe("a past turn's map", () => {
  it('says on the map that its fleets are not shown, and still draws the tracks', () => {
    const state = caribbean();
    const jamaica = state.fleets.find((f) => f.name === 'Jamaica Squadron')!;
    const route = path(state, jamaica.at, 'jamaica-channel');
    const turn = { tracks: [{ fleetId: jamaica.id, fleetName: jamaica.name, power: 'british', steps: route.slice(1).map((to, i) => ({ phase: i + 1, from: route[i]!, to })) }], sighted: [], battles: [], captures: [] };
    const svg = renderMapSvg({ ...mapFromState(state, { turn }), fleets: [], note: FLEETS_NOT_SHOWN });
    expect(svg).toContain(`<text class="map-note"`);
    expect(svg).toContain(`>${escapeXml(FLEETS_NOT_SHOWN)}</text>`);
    expect(svg).toContain(`<g class="track" data-fleet="${jamaica.id}"`);
    expect(svg).not.toContain('<g class="fleet own"');
  });
});

describe('battles on the map', () => {
  it('draws two battles at neighbouring nodes side by side, not on top of each other (the Lesser Antilles)', () => {
    const state = caribbean();
    const pairs = [['guadeloupe', 'guadeloupe-passage'], ['martinique', 'lee-of-martinique'], ['st-kitts', 'lee-of-st-kitts'], ['martinique', 'martinique-passage'], ['kingston', 'off-morant-point']];
    for (const [a, b] of pairs) {
      expect(state.nodes.some((nd) => nd.id === a) && state.nodes.some((nd) => nd.id === b), `${a}, ${b}`).toBe(true);
      const turn = { tracks: [], sighted: [], captures: [], battles: [{ node: a!, phase: 2, text: `Battle at ${a}` }, { node: b!, phase: 3, text: `Battle at ${b}` }] };
      const svg = renderMapSvg({ ...mapFromState(state, { turn }), fleets: [] });
      // Each cross's ink: its path's extent plus half its stroke width.
      const crosses = [...svg.matchAll(/<g class="battle"[^>]*><title>[^<]*<\/title><path d="M([-\d.]+) ([-\d.]+)l([-\d.]+) [-\d.]+[^"]*" stroke="[^"]+" stroke-width="([\d.]+)"/g)]
        .map((m) => { const x = Number(m[1]); const y = Number(m[2]); const s = Number(m[3]); const w = Number(m[4]) / 2; return { x0: x - w, y0: y - w, x1: x + s + w, y1: y + s + w }; });
      expect(crosses).toHaveLength(2);
      const [p, q] = crosses as [typeof crosses[0], typeof crosses[0]];
      const overlap = p.x0 < q.x1 && p.x1 > q.x0 && p.y0 < q.y1 && p.y1 > q.y0;
      expect(overlap, `${a} / ${b}: ${JSON.stringify(crosses)}`).toBe(false);
      // Still big enough to see.
      for (const c of crosses) expect(c.x1 - c.x0).toBeGreaterThanOrEqual(5);
    }
  });
});
