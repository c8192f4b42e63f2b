/**
 * The frozen record of a battle: the battle as it was joined, taken by the resolver at the
 * phase of contact and stored with the battle. Every battle package (each export format)
 * and every check of a result reads the record, never the campaign as it is now: a player
 * downloading an older battle's package must not see what happened since (a fleet formed
 * unseen, an unseen repair, the enemy's supplies now), and a ship taken in another battle
 * since must not fight again on her old side.
 *
 * Pure: the ships are copied (nothing is shared with the state). The weather of a battle made
 * in a turn is rolled with the campaign's dice once the turn's steps are done (weather.ts,
 * rollBattleWeather) and replaces the seeded placeholder made here; a record made outside a
 * turn (rebuilt, or a test) keeps the seeded weather keyed on the battle id and turn.
 */
import type { CrewQuality, NodeId, PowerKey, VpTable } from './terms.js';
import { classOf, portAt } from './common.js';
import { seededDice, type RollRecord } from './dice.js';
import { WEATHER_ROLLS } from './weather.js';
import type { Battle, CampaignState, Fleet, FleetId, Fort, Ship, ShipClass } from './state.js';

/** One ship as she was joined, with the fleet she sailed in and her class. */
export interface RecordShip extends Ship {
  fleetId: FleetId;
  fleetName: string;
  /** Her class (capacities) at contact; null when the class is unknown to the campaign. */
  class: ShipClass | null;
}

export interface RecordConvoy {
  fleetId: FleetId;
  fleetName: string;
  from: NodeId;
  to: NodeId;
  merchantmen: number;
}

export interface RecordSide {
  power: PowerKey;
  powerName: string;
  color: string;
  crewQuality: CrewQuality;
  attacker: boolean;
  fleets: { id: FleetId; name: string }[];
  /** Convoys the side's fleets escorted (picked up) at contact. */
  convoys: RecordConvoy[];
  ships: RecordShip[];
}

export interface BattleRecord {
  version: 1;
  battleId: string;
  turn: number;
  phase: number;
  node: NodeId;
  harbor: boolean;
  /** How contact happened, in words ("both sides sought contact", "ATTACK HARBOR", ...). */
  contact: string;
  /**
   * How contact happened, as the setup sheet reads it: the fleets met, one ran the other down
   * from astern, or a harbor attack. Absent in records stored before it existed (contactKindOf).
   */
  contactKind?: ContactKind;
  sides: RecordSide[];
  /** The port at the node, if any, and who held it. */
  port: { node: NodeId; owner: PowerKey; ownerName: string; ownerCrewQuality: CrewQuality } | null;
  /** The fort's boxes as the battle found them (a harbor attack only). */
  fort: Fort | null;
  /** Months of supplies a full ship carries (the campaign's setting then). */
  fullSupplies: number;
  vpTable: VpTable;
  /**
   * The four weather d6 (wind direction, wind force, sea state, time of day). `seed: null`:
   * rolled with the campaign's dice in the turn that made the battle (logged as `weather`
   * events); a seed: from the battle's own seeded dice (records stored before, and rebuilt).
   */
  weather: { seed: string | null; rolls: RollRecord[] };
  /** 'at-contact' normally; 'rebuilt' for a battle stored before records existed (see note). */
  made: 'at-contact' | 'rebuilt';
  note: string | null;
}

/** How contact happened: `meeting` (both sought it), `pursuit` (from astern), `harbor` (ATTACK HARBOR). */
export type ContactKind = 'meeting' | 'pursuit' | 'harbor';

/** The record's contact kind; for a record stored before it was kept, read off its words. */
export function contactKindOf(record: Pick<BattleRecord, 'contactKind' | 'contact' | 'harbor'>): ContactKind {
  if (record.contactKind) return record.contactKind;
  if (record.harbor) return 'harbor';
  return record.contact.startsWith('pursuit') ? 'pursuit' : 'meeting';
}

/** One side as the resolver sees it when the battle is made. */
export interface SideAtContact {
  power: PowerKey;
  attacker: boolean;
  /** The side's fleets (listed, and their convoys). */
  fleets: readonly Fleet[];
  /** Its ships afloat, each with the fleet she sails in. */
  ships: readonly { ship: Ship; fleet: Pick<Fleet, 'id' | 'name'> }[];
}

/** The seed of a battle's weather: the same battle always has the same weather. */
export function weatherSeed(battleId: string, turn: number): string {
  return `battle-export:${battleId}:turn-${turn}`;
}

export { WEATHER_ROLLS };

/** The battle's four weather d6 from its own seeded dice: records made outside a turn (the turn rolls its own). */
export function rollWeather(battleId: string, turn: number): RollRecord[] {
  const dice = seededDice(weatherSeed(battleId, turn));
  for (const what of WEATHER_ROLLS) dice.d6(`battle ${battleId}: ${what}`);
  return dice.rolls.map((r) => ({ ...r }));
}

function copyShip(state: Pick<CampaignState, 'shipClasses'>, ship: Ship, fleet: Pick<Fleet, 'id' | 'name'>): RecordShip {
  const cls = classOf(state, ship);
  return {
    ...ship, rigging: [...ship.rigging], crew: [...ship.crew], fleetId: fleet.id, fleetName: fleet.name,
    class: cls ? { ...cls, rigging: [...cls.rigging], crewSections: [...cls.crewSections] } : null,
  };
}

/**
 * The record of a battle as it is joined: each side's ships (copied, with fleet and class),
 * fleets and convoys, the port and its fort, the supplies setting, the VP table and the weather.
 */
export function recordBattle(
  state: CampaignState, battle: Pick<Battle, 'id' | 'turn' | 'phase' | 'node' | 'harbor' | 'fort'>, sides: readonly SideAtContact[],
  contact: string | { text: string; kind: ContactKind }, made: { made: BattleRecord['made']; note: string | null } = { made: 'at-contact', note: null },
): BattleRecord {
  const how = typeof contact === 'string' ? { text: contact, kind: undefined } : contact;
  const power = (key: PowerKey) => state.powers.find((p) => p.key === key);
  const port = portAt(state, battle.node);
  return {
    version: 1,
    battleId: battle.id,
    turn: battle.turn,
    phase: battle.phase,
    node: battle.node,
    harbor: battle.harbor,
    contact: how.text,
    ...(how.kind ? { contactKind: how.kind } : {}),
    sides: sides.map((s) => ({
        power: s.power,
        powerName: power(s.power)?.name ?? s.power,
        color: power(s.power)?.color ?? '#000000',
        crewQuality: power(s.power)?.crewQuality ?? 'average',
        attacker: s.attacker,
        fleets: s.fleets.map((f) => ({ id: f.id, name: f.name })),
        convoys: s.fleets.filter((f) => f.convoy?.pickedUp).map((f) => ({
          fleetId: f.id, fleetName: f.name, from: f.convoy!.from, to: f.convoy!.to, merchantmen: f.convoy!.merchantmen,
        })),
        ships: s.ships.map((x) => copyShip(state, x.ship, x.fleet)),
    })),
    port: port ? {
      node: port.node, owner: port.owner, ownerName: power(port.owner)?.name ?? port.owner,
      ownerCrewQuality: power(port.owner)?.crewQuality ?? 'average',
    } : null,
    fort: battle.harbor && battle.fort ? { ...battle.fort, crewSections: [...battle.fort.crewSections] } : null,
    fullSupplies: state.settings.fullSupplies,
    vpTable: { ...state.vpTable },
    weather: { seed: weatherSeed(battle.id, battle.turn), rolls: rollWeather(battle.id, battle.turn) },
    made: made.made,
    note: made.note,
  };
}

/**
 * The record of a battle made without one (stored before records existed): rebuilt from
 * `state` (the campaign as the battle's turn opened, when the caller has it; else as it is
 * now), with a note saying so. The ships are the battle's, wherever they are in `state`.
 */
export function rebuildRecord(state: CampaignState, battle: Battle, note: string): BattleRecord {
  const where = new Map<string, { fleet: Fleet; ship: Ship }>();
  for (const fleet of state.fleets) for (const ship of fleet.ships) if (!where.has(ship.id)) where.set(ship.id, { fleet, ship });
  const sides: SideAtContact[] = battle.sides.map((s) => ({
    power: s.power,
    attacker: s.attacker,
    fleets: s.fleetIds.flatMap((id) => state.fleets.filter((f) => f.id === id).slice(0, 1)),
    ships: s.shipIds.flatMap((id) => { const w = where.get(id); return w ? [w] : []; }),
  }));
  const rec = recordBattle(state, battle, sides, 'not recorded (the battle was stored before battle records existed)', { made: 'rebuilt', note });
  // A fleet struck off since is still listed, by its id.
  rec.sides.forEach((side, i) => {
    side.fleets = battle.sides[i]!.fleetIds.map((id) => side.fleets.find((f) => f.id === id) ?? { id, name: id });
  });
  return rec;
}

/** The battle's record: its own, or one rebuilt from `state` (see rebuildRecord). */
export function recordOf(state: CampaignState, battle: Battle): BattleRecord {
  return battle.record ?? rebuildRecord(state, battle,
    'This battle has no record made at contact: its ships are shown as they are in the campaign now.');
}

/** Every ship of the record, side by side. */
export function recordShips(record: BattleRecord): RecordShip[] {
  return record.sides.flatMap((s) => s.ships);
}
