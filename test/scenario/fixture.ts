/**
 * A small valid scenario for the validator tests. Each call returns a fresh object, so a
 * test can break one thing in it and expect exactly the problem that thing causes.
 * `setPath`/`deletePath` take the validator's own path syntax (`nodes[0].owner`), so a
 * test can put a value of the wrong type anywhere without casts.
 */
import type { Scenario } from '../../src/scenario/types.js';

const table = ['idle', 'convoy', 'patrol', 'patrol', 'raid', 'blockade'] as const;

export function smallScenario(): Scenario {
  return {
    name: 'Test Sea',
    start: { year: 1805, month: 1 },
    vpGoal: 10,
    powers: [
      { key: 'british', name: 'Great Britain', color: '#c8102e', crewQuality: 'crack', playable: true,
        ordersTable: [...table],
        convoyTable: [['kingston', 'box-1'], ['box-1', 'kingston'], ['kingston', 'box-1'], ['box-1', 'kingston'], ['kingston', 'box-1'], ['box-1', 'kingston']] },
      { key: 'french', name: 'France', color: '#002395', crewQuality: 'average', playable: true,
        ordersTable: [...table],
        convoyTable: [['martinique', 'box-1'], ['box-1', 'martinique'], ['martinique', 'havana'], ['havana', 'martinique'], ['martinique', 'box-1'], ['box-1', 'martinique']] },
      { key: 'spanish', name: 'Spain', color: '#f1bf00', playable: false },
    ],
    nodes: [
      { id: 'kingston', name: 'Kingston', kind: 'port', owner: 'british', x: 10, y: 10,
        rating: { hull: 3, rigging: 18, guns: 6, crew: 'd6-2' }, fort: { hull: 20, crewSections: [6, 6, 6], guns: 10 } },
      { id: 'martinique', name: 'Martinique', kind: 'port', owner: 'french', x: 50, y: 10,
        rating: { hull: 2, rigging: 12, guns: 4, crew: 'd6-3' }, fort: { hull: 20, crewSections: [6, 6, 6], guns: 10 } },
      { id: 'havana', name: 'Havana', kind: 'port', owner: 'spanish', x: 10, y: 0,
        rating: { hull: 3, rigging: 18, guns: 6, crew: 'd6-2' }, fort: { hull: 20, crewSections: [6, 6, 6], guns: 10 } },
      { id: 'channel', name: 'The Channel', kind: 'sea', x: 20, y: 10 },
      { id: 'open-sea', name: 'Open Sea', kind: 'sea', x: 40, y: 10 },
      { id: 'box-1', name: 'Box 1 (Atlantic)', kind: 'box' },
    ],
    edges: [
      { a: 'kingston', b: 'channel' },
      { a: 'channel', b: 'open-sea', wind: 'b>a' },
      { a: 'open-sea', b: 'martinique' },
      { a: 'channel', b: 'havana' },
      { a: 'open-sea', b: 'box-1', wind: 'b>a' },
    ],
    shipClasses: [
      { key: 'sol-74', name: '74', type: 'ship-of-the-line', mp: 4, hull: 13, rigging: [6, 6, 5], guns: 11, carronades: 2, crewSections: [6, 6, 6] },
      { key: 'frigate-28', name: '28', type: 'frigate', mp: 5, hull: 5, rigging: [4, 4, 3], guns: 4, crewSections: [2, 2, 2] },
    ],
    fleets: [
      { power: 'british', name: 'Jamaica Squadron', at: 'kingston', inHarbor: true,
        ships: [{ name: 'HMS Bellerophon', class: 'sol-74' }, { name: 'HMS Circe', class: 'frigate-28' }] },
      { power: 'french', name: 'Escadre', at: 'open-sea', stance: 'avoid',
        ships: [{ name: 'Redoutable', class: 'sol-74', supplies: 2, hullLost: 3, riggingLost: [1, 0, 0], crewLost: [0, 1, 0] }] },
    ],
    vp: { portCaptured: 5, convoyArrived: 1, frigateSunk: 2, shipOfTheLineSunk: 3, captureMultiplier: 2, convoyCaptured: 2 },
    missions: [{ power: 'british', type: 'blockade', target: 'martinique' }],
  };
}

type Container = Record<string, unknown> | unknown[];

function steps(path: string): (string | number)[] {
  return [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] !== undefined ? Number(m[2]) : m[1]!));
}

function parentOf(root: unknown, path: string): { parent: Container; last: string | number } {
  const all = steps(path);
  const last = all.pop();
  if (last === undefined) throw new Error(`empty path '${path}'`);
  let cur: unknown = root;
  for (const step of all) {
    cur = (cur as Record<string | number, unknown>)[step];
    if (typeof cur !== 'object' || cur === null) throw new Error(`path '${path}' runs into a non-object at '${step}'`);
  }
  return { parent: cur as Container, last };
}

/** `setPath(s, 'nodes[0].owner', 5)` */
export function setPath(root: object, path: string, value: unknown): void {
  const { parent, last } = parentOf(root, path);
  (parent as Record<string | number, unknown>)[last] = value;
}

/** Remove a field, or an array entry (the entries after it move up). */
export function deletePath(root: object, path: string): void {
  const { parent, last } = parentOf(root, path);
  if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
  else delete (parent as Record<string | number, unknown>)[last];
}
