/**
 * A small Caribbean for the orders tests: display names with spaces, dots, accents and
 * brackets; British fleets in harbor and at sea; one French fleet.
 *
 *   Kingston — Windward Passage — Mona Passage — Leeward Islands — St. Kitts
 *      |              |               |                |
 *   South of Jamaica -+- (Mona)    Cap Français      Box 1 (Atlantic)
 */
import type { CampaignState, MapNode } from '../../src/rules/state.js';
import { campaign, fleet, neutral, port, power, ship } from '../rules/build.js';

const node = (id: string, name: string, kind: MapNode['kind'] = 'sea'): MapNode => ({ id, name, kind, x: null, y: null });

export function caribbean(over: Partial<CampaignState> = {}): CampaignState {
  const named = (cls: string, p: string, name: string, id: string) => ship(cls, p, { name, id });
  return campaign({
    turn: 4,
    powers: [power('british', { name: 'Great Britain' }), power('french', { name: 'France' }), neutral('spanish')],
    nodes: [
      node('kingston', 'Kingston', 'port'),
      node('windward-passage', 'Windward Passage'),
      node('mona-passage', 'Mona Passage'),
      node('south-of-jamaica', 'South of Jamaica'),
      node('leeward-islands', 'Leeward Islands'),
      node('st-kitts', 'St. Kitts', 'port'),
      node('cap-francais', 'Cap Français', 'port'),
      node('box-1', 'Box 1 (Atlantic)', 'box'),
      node('english-harbour', 'English Harbour', 'port'),
    ],
    edges: [
      { a: 'kingston', b: 'windward-passage', wind: 'b>a' },
      { a: 'kingston', b: 'south-of-jamaica', wind: null },
      { a: 'windward-passage', b: 'mona-passage', wind: null },
      { a: 'south-of-jamaica', b: 'mona-passage', wind: null },
      { a: 'windward-passage', b: 'cap-francais', wind: null },
      { a: 'mona-passage', b: 'leeward-islands', wind: null },
      { a: 'leeward-islands', b: 'st-kitts', wind: null },
      { a: 'leeward-islands', b: 'box-1', wind: null },
      { a: 'leeward-islands', b: 'english-harbour', wind: null },
    ],
    ports: [port('kingston', 'british'), port('st-kitts', 'british'), port('cap-francais', 'french'), port('english-harbour', 'british')],
    fleets: [
      fleet('f1', 'british', 'kingston', [named('sol-74', 'british', 'HMS Bellerophon', 'b1'), named('sol-74', 'british', 'HMS Defiance', 'b2')], { name: 'Jamaica Squadron', inHarbor: true }),
      fleet('f2', 'british', 'st-kitts', [named('frigate-40', 'british', 'HMS Amazon', 'b3')], { name: 'Leeward Squadron' }),
      fleet('f3', 'british', 'windward-passage', [named('frigate-40', 'british', 'HMS Tartar', 'b4'), named('frigate-40', 'british', 'HMS Cerberus', 'b5')], { name: 'Windward Squadron' }),
      fleet('f4', 'british', 'kingston', [named('frigate-40', 'british', 'HMS Pique', 'b6')], { name: 'Inshore Squadron', inHarbor: true }),
      fleet('f5', 'british', 'south-of-jamaica', [named('frigate-40', 'british', 'HMS Hermione', 'b7')], { name: 'Frigate Squadron' }),
      fleet('f6', 'french', 'cap-francais', [named('sol-74', 'french', 'Redoutable', 'r1')], { name: 'Toulon Squadron', inHarbor: true }),
    ],
    ...over,
  });
}

/** Orders text with the usual header. */
export function msg(...body: string[]): string {
  return ['POWER british', 'PASSWORD hearts-of-oak', ...body].join('\n');
}
