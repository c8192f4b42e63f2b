/**
 * Turns a validated scenario (SPEC §2) into the engine's starting state, and a state
 * back into a scenario (the campaign export, so a campaign can be copied).
 */
import { relationsOf } from './relations.js';
import type { CampaignState, Fleet, PortState, PowerState, Ship, ShipClass } from '../rules/state.js';
import { DEFAULT_SETTINGS } from '../rules/state.js';
import type { Scenario, ScenarioFleet, ScenarioNode, ScenarioShip } from './types.js';

function shipFromScenario(s: ScenarioShip, id: string, power: PowerState, cls: ShipClass, fullSupplies: number): Ship {
  const minus = (have: number[], lost: number[] | undefined) => have.map((v, i) => Math.max(0, v - (lost?.[i] ?? 0)));
  return {
    id, name: s.name, classKey: cls.key, power: power.key, crewQuality: s.crewQuality ?? power.crewQuality,
    hull: Math.max(0, cls.hull - (s.hullLost ?? 0)),
    rigging: minus(cls.rigging, s.riggingLost),
    guns: Math.max(0, cls.guns - (s.gunsLost ?? 0)),
    carronades: Math.max(0, cls.carronades - (s.carronadesLost ?? 0)),
    crew: minus(cls.crewSections, s.crewLost),
    supplies: s.supplies ?? fullSupplies,
    status: 'afloat', capturedBy: null,
  };
}

export function scenarioToState(sc: Scenario): CampaignState {
  const settings = { ...DEFAULT_SETTINGS, ...(sc.settings ?? {}) };
  // Relations live with the settings (no table of their own): the GM may change them in play.
  const relations = relationsOf(sc.relations);
  if (Object.keys(relations).length > 0) settings.relations = relations;
  const powers: PowerState[] = sc.powers.map((p) => ({
    key: p.key, name: p.name, color: p.color, crewQuality: p.crewQuality ?? 'average', playable: p.playable,
    ordersTable: p.ordersTable ?? null, convoyTable: p.convoyTable ?? null, mission: null, vp: 0,
  }));
  for (const m of sc.missions ?? []) {
    const p = powers.find((x) => x.key === m.power);
    if (p) p.mission = { type: m.type, target: m.target ?? null, from: m.from ?? null, to: m.to ?? null, since: 1, progress: null };
  }
  const shipClasses: ShipClass[] = sc.shipClasses.map((c) => ({
    key: c.key, name: c.name, type: c.type, mp: c.mp, hull: c.hull, rigging: [...c.rigging], guns: c.guns,
    carronades: c.carronades ?? 0, crewSections: [...c.crewSections], rate: c.rate ?? null, points: c.points ?? null,
  }));
  const ports: PortState[] = sc.nodes.filter((n): n is ScenarioNode & Required<Pick<ScenarioNode, 'owner' | 'rating' | 'fort'>> => n.kind === 'port')
    .map((n) => ({
      node: n.id, owner: n.owner, originalOwner: n.owner, rating: { ...n.rating },
      fort: { hull: n.fort.hull, crewSections: [...n.fort.crewSections], guns: n.fort.guns }, attackedBy: [],
      fortBuilt: { hull: n.fort.hull, crewSections: [...n.fort.crewSections], guns: n.fort.guns },
      ...(n.ratingNote ? { ratingNote: n.ratingNote } : {}),
      ...(n.approaches?.length ? { approaches: [...n.approaches] } : {}),
    }));
  let shipSeq = 0;
  const fleets: Fleet[] = sc.fleets.map((f: ScenarioFleet, i) => {
    const power = powers.find((p) => p.key === f.power)!;
    return {
      id: `f${i + 1}`, power: f.power, name: f.name, at: f.at, inHarbor: f.inHarbor ?? false,
      stance: f.stance ?? 'engage-if-stronger', dropSlow: false, onMission: f.onMission ?? false,
      convoy: f.convoy ? { from: f.convoy.from, to: f.convoy.to, merchantmen: f.convoy.merchantmen ?? 6, pickedUp: f.convoy.pickedUp ?? true } : null,
      ships: f.ships.map((s) => shipFromScenario(s, `s${++shipSeq}`, power, shipClasses.find((c) => c.key === s.class)!, settings.fullSupplies)),
    };
  });
  return {
    name: sc.name, turn: 1, start: sc.start ?? { year: 1805, month: 1 }, vpGoal: sc.vpGoal, vpTable: { ...sc.vp }, settings,
    powers,
    nodes: sc.nodes.map((n) => ({
      id: n.id, name: n.name, kind: n.kind, x: n.x ?? null, y: n.y ?? null,
      ...(n.lat !== undefined && n.lon !== undefined ? { lat: n.lat, lon: n.lon } : {}),
    })),
    edges: sc.edges.map((e) => ({ a: e.a, b: e.b, wind: e.wind ?? null })),
    ports, shipClasses, fleets, battles: [], sightings: [],
    seq: { fleet: fleets.length, ship: shipSeq, battle: 0 }, winner: null,
  };
}

function lonLat(lon: number | undefined, lat: number | undefined): { lon?: number; lat?: number } {
  return { ...(lon !== undefined ? { lon } : {}), ...(lat !== undefined ? { lat } : {}) };
}

/** The campaign as it stands now, as a scenario another campaign can start from. */
export function stateToScenario(state: CampaignState, original?: Partial<Scenario>): Scenario {
  const portOf = new Map(state.ports.map((p) => [p.node, p]));
  const origNode = new Map((original?.nodes ?? []).map((n) => [n.id, n]));
  return {
    name: state.name,
    ...(original?.description ? { description: original.description } : {}),
    start: state.start,
    vpGoal: state.vpGoal,
    powers: state.powers.map((p) => ({
      key: p.key, name: p.name, color: p.color, crewQuality: p.crewQuality, playable: p.playable,
      ...(p.ordersTable ? { ordersTable: p.ordersTable } : {}), ...(p.convoyTable ? { convoyTable: p.convoyTable } : {}),
    })),
    nodes: state.nodes.map((n) => {
      const port = portOf.get(n.id);
      const orig = origNode.get(n.id);
      return {
        id: n.id, name: n.name, kind: n.kind,
        ...(n.x !== null ? { x: n.x } : {}), ...(n.y !== null ? { y: n.y } : {}),
        ...lonLat(n.lon ?? orig?.lon, n.lat ?? orig?.lat),
        ...(port ? { owner: port.owner, rating: port.rating, fort: port.fort, ...(port.ratingNote ? { ratingNote: port.ratingNote } : {}) } : {}),
      };
    }),
    edges: state.edges.map((e) => ({ a: e.a, b: e.b, ...(e.wind ? { wind: e.wind } : {}) })),
    shipClasses: state.shipClasses.map((c) => ({
      key: c.key, name: c.name, type: c.type, mp: c.mp, hull: c.hull, rigging: c.rigging, guns: c.guns,
      carronades: c.carronades, crewSections: c.crewSections,
      ...(c.rate !== null ? { rate: c.rate } : {}), ...(c.points !== null ? { points: c.points } : {}),
    })),
    fleets: state.fleets
      .map((f) => ({ f, ships: f.ships.filter((s) => s.status === 'afloat') }))
      .filter(({ ships }) => ships.length > 0)
      .map(({ f, ships }) => {
        const cls = (k: string) => state.shipClasses.find((c) => c.key === k)!;
        return {
          power: f.power, name: f.name, at: f.at, inHarbor: f.inHarbor, stance: f.stance,
          ...(f.onMission ? { onMission: true } : {}),
          ...(f.convoy ? { convoy: f.convoy } : {}),
          ships: ships.map((s) => {
            const c = cls(s.classKey);
            const lost = (cap: number[], have: number[]) => cap.map((v, i) => v - (have[i] ?? 0));
            return {
              name: s.name, class: s.classKey, crewQuality: s.crewQuality, supplies: s.supplies,
              hullLost: c.hull - s.hull, riggingLost: lost(c.rigging, s.rigging), gunsLost: c.guns - s.guns,
              carronadesLost: c.carronades - s.carronades, crewLost: lost(c.crewSections, s.crew),
            };
          }),
        };
      }),
    vp: state.vpTable,
    missions: state.powers.filter((p) => p.mission).map((p) => ({
      power: p.key, type: p.mission!.type,
      ...(p.mission!.target ? { target: p.mission!.target } : {}),
      ...(p.mission!.from ? { from: p.mission!.from } : {}), ...(p.mission!.to ? { to: p.mission!.to } : {}),
    })),
    settings: (({ relations: _r, relationsNext: _n, ...rest }) => rest)(state.settings),
    ...(state.settings.relations ? {
      relations: Object.entries(state.settings.relations).map(([pair, relation]) => {
        const [a, b] = pair.split('|') as [string, string];
        return { a, b, relation };
      }),
    } : {}),
  };
}

/** Each port's fort as the scenario built it, by node id (read back for a stored campaign: what fort repairs restore). */
export function fortsAsBuilt(scenario: unknown): Map<string, PortState['fort']> {
  const out = new Map<string, PortState['fort']>();
  for (const n of (scenario as { nodes?: { id?: unknown; fort?: { hull?: unknown; crewSections?: unknown; guns?: unknown } }[] }).nodes ?? []) {
    const f = n.fort;
    if (typeof n.id !== 'string' || !f || typeof f.hull !== 'number' || typeof f.guns !== 'number' || !Array.isArray(f.crewSections)) continue;
    out.set(n.id, { hull: f.hull, crewSections: f.crewSections.filter((c): c is number => typeof c === 'number'), guns: f.guns });
  }
  return out;
}
