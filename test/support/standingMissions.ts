/**
 * The built-in Caribbean with a standing mission fleet for each playable power, for tests
 * whose order mails (real mail clients' fixtures) name no MISSION: a mission in force needs
 * its fleet (rules VI: orders "in keeping with the orders they receive"), and these fleets
 * carry whatever mission each power rolls when the campaign opens.
 */
import { builtInScenario } from '../../src/scenario/builtin.js';

export const STANDING_MISSION_FLEETS = ['Leeward Islands Squadron', 'Escadre de la Martinique', 'Gulf Squadron'];

export function caribbeanWithStandingMissions(): object {
  const scenario = builtInScenario('caribbean') as { fleets: { name: string; onMission?: boolean }[] };
  for (const f of scenario.fleets) if (STANDING_MISSION_FLEETS.includes(f.name)) f.onMission = true;
  return scenario;
}
