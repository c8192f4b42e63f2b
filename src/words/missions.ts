/**
 * Missions, scoring and standings in words: the same sentences on the pages, in the mail
 * and in the exports.
 */
import type { Mission } from '../rules/state.js';
import type { VpTable } from '../rules/terms.js';

export function missionText(m: Mission | null, nodeName: (id: string | null) => string): string {
  if (!m) return 'No mission in force.';
  const since = ` (since turn ${m.since})`;
  switch (m.type) {
    case 'idle': return `Idle: a mission fleet must stand a whole turn in a friendly harbor${since}.`;
    case 'patrol': return `Patrol: the mission fleet stays at sea, in no port's harbor, until its supplies run out${since}.`;
    case 'convoy': return `Convoy from ${nodeName(m.from)} to ${nodeName(m.to)}: the mission fleet picks it up and escorts it into ${nodeName(m.to)}${since}.`;
    case 'raid': return `Raid${m.target ? ` on ${nodeName(m.target)}` : ' (no target named yet: send MISSION TARGET <port>)'}: completed when the port is captured${since}.`;
    case 'blockade': return `Blockade${m.target ? ` of ${nodeName(m.target)}` : ' (no target named yet: send MISSION TARGET <port>)'}: the mission fleet keeps station in the port's space until its supplies run out${since}.`;
    default: return `${String(m.type)}${since}.`;
  }
}

export function vpRules(t: VpTable | null | undefined): string | null {
  if (!t) return null;
  return `Port captured ${t.portCaptured}, convoy arrived ${t.convoyArrived}, convoy captured ${t.convoyCaptured}, `
    + `frigate sunk ${t.frigateSunk}, ship of the line sunk ${t.shipOfTheLineSunk}; a ship captured scores ×${t.captureMultiplier}.`;
}

export function standings(powers: readonly { key: string; name: string; vp: number; playable: boolean }[], goal: number, me: string | null) {
  return powers.filter((p) => p.playable).map((p) => ({ name: p.name, vp: p.vp, goal, me: p.key === me }));
}
