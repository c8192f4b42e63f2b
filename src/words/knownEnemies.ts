/** The orders check's warning of a known enemy on a plotted route, in words. */
import type { KnownEnemyMeeting } from '../rules/knownEnemies.js';

export function knownEnemyWarning(m: KnownEnemyMeeting, names: { fleet(id: string): string; node(id: string): string; power(key: string): string }): string {
  const age = m.age === 0 ? 'this turn' : m.age === 1 ? 'last turn' : `${m.age} turns ago`;
  return `${names.fleet(m.fleetId)} ends phase ${m.phase} at ${names.node(m.node)}, where ${m.sighting.fleetName} (${names.power(m.sighting.power)}, at war with you) was last seen ${age} (turn ${m.sighting.turn}, phase ${m.sighting.phase}): expect to meet it`;
}
