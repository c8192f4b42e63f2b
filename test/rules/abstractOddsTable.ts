/**
 * The scenarios whose exact odds docs/abstract-battle-table.md prints, and the table itself
 * (the abstract battle test checks the document against a fresh enumeration).
 */
import { abstractBattleOdds } from '../../src/rules/abstractBattle.js';
import type { Battle, CampaignState, Ship } from '../../src/rules/state.js';
import type { CrewQuality } from '../../src/scenario/types.js';
import { campaign, fleet, lineMap, port, power, ship } from './build.js';

interface Scenario {
  name: string;
  a: { cls: string; q: CrewQuality }[];
  b: { cls: string; q: CrewQuality }[];
  harbor?: boolean;
}

export const ODDS_SCENARIOS: Scenario[] = [
  { name: '74 v 74, both average', a: [{ cls: 'sol-74', q: 'average' }], b: [{ cls: 'sol-74', q: 'average' }] },
  { name: '74 crack v 74 average', a: [{ cls: 'sol-74', q: 'crack' }], b: [{ cls: 'sol-74', q: 'average' }] },
  { name: '74 elite v 74 green', a: [{ cls: 'sol-74', q: 'elite' }], b: [{ cls: 'sol-74', q: 'green' }] },
  { name: 'two 74s v one 74 (average)', a: [{ cls: 'sol-74', q: 'average' }, { cls: 'sol-74', q: 'average' }], b: [{ cls: 'sol-74', q: 'average' }] },
  { name: '74 v 40-gun frigate (average)', a: [{ cls: 'sol-74', q: 'average' }], b: [{ cls: 'frigate-40', q: 'average' }] },
  { name: 'American 44 elite v 40-gun frigate crack', a: [{ cls: 'us-frigate-44', q: 'elite' }], b: [{ cls: 'frigate-40', q: 'crack' }] },
  { name: 'harbor: 74 v 40-gun frigate + fort', a: [{ cls: 'sol-74', q: 'average' }], b: [{ cls: 'frigate-40', q: 'average' }], harbor: true },
  { name: 'harbor: two 74s v 40-gun frigate + fort', a: [{ cls: 'sol-74', q: 'average' }, { cls: 'sol-74', q: 'average' }], b: [{ cls: 'frigate-40', q: 'average' }], harbor: true },
  { name: 'harbor: three 74s v 74 + fort', a: [{ cls: 'sol-74', q: 'average' }, { cls: 'sol-74', q: 'average' }, { cls: 'sol-74', q: 'average' }], b: [{ cls: 'sol-74', q: 'average' }], harbor: true },
];

/** A campaign holding one pending battle "b1" between A (attackers) and B. */
export function scenarioState(sc: Scenario): CampaignState {
  const mk = (list: Scenario['a'], p: string): Ship[] => list.map((x) => ship(x.cls, p, { crewQuality: x.q }));
  const a = fleet('A', 'british', 'n1', mk(sc.a, 'british'));
  const b = fleet('B', 'french', 'n1', mk(sc.b, 'french'), { inHarbor: !!sc.harbor });
  const map = lineMap(2);
  const battle: Battle = {
    id: 'b1', turn: 1, phase: 0, node: 'n1', harbor: !!sc.harbor, fort: sc.harbor ? { hull: 20, crewSections: [6, 6, 6], guns: 10 } : null,
    sides: [
      { power: 'british', fleetIds: ['A'], shipIds: a.ships.map((s) => s.id), attacker: true },
      { power: 'french', fleetIds: ['B'], shipIds: b.ships.map((s) => s.id), attacker: false },
    ],
    status: 'pending', result: null,
  };
  return campaign({
    ...map, powers: [power('british'), power('french')], ports: sc.harbor ? [port('n1', 'french')] : [], fleets: [a, b], battles: [battle],
  });
}

const pct = (x: number | undefined) => `${((x ?? 0) * 100).toFixed(1)}%`;

/** The markdown rows: scenario | A wins | B wins | no winner | A loses a ship | B loses a ship | fort falls. */
export function oddsRows(): string[] {
  return ODDS_SCENARIOS.map((sc) => {
    const o = abstractBattleOdds(scenarioState(sc), 'b1');
    return `| ${sc.name} | ${pct(o.winner.british)} | ${pct(o.winner.french)} | ${pct(o.winner.none)} | ${pct(o.shipLost.british)} | ${pct(o.shipLost.french)} | ${sc.harbor ? pct(o.fortFalls) : '-'} |`;
  });
}
