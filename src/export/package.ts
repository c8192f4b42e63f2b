/**
 * The battle package: one model of a campaign battle that every export format is made from
 * (WS&IM logs, BtQ cards, Galleys & Galleons, Cogs of Valor, JSON). Pure: no I/O, and the
 * only randomness (the weather) is in the record, or comes from the dice given.
 */
import type { Dice } from '../rules/dice.js';
import { monthOf } from '../rules/common.js';
import type { Reader } from '../rules/view.js';
import { contactKindOf, recordOf, type BattleRecord, type RecordShip, type RecordSide } from '../rules/battleRecord.js';
import type { Battle, CampaignState, ShipClass } from '../rules/state.js';
import type { PowerKey } from '../rules/terms.js';
import type { BattlePackage, PackageConvoy, PackageShip, PackageSide } from './json.js';
import { fortInSight, packageFort } from './fort.js';
import { sightedShip, cutForSide } from './sideView.js';
import { CAMPAIGN_CONVOY_FATE, CAMPAIGN_SHOALS } from './rulesText.js';
import { battleWeather, weatherFromRolls } from './wind.js';

export type {
  BattlePackage, PackageShip, PackageSide, PackageFort, PackageConvoy, Track, MastTrack, SectionTrack,
} from './json.js';

export class BattleNotFound extends Error {
  constructor(readonly battleId: string) {
    super(`no battle ${battleId} in this campaign`);
    this.name = 'BattleNotFound';
  }
}

const MASTS = ['fore', 'main', 'mizzen', 'jigger'];

/** "British" for the usual powers; otherwise the power's name. */
const NATIONALITY: Record<string, string> = {
  british: 'British', french: 'French', american: 'American', spanish: 'Spanish', haitian: 'Haitian',
  dutch: 'Dutch', portuguese: 'Portuguese', danish: 'Danish', swedish: 'Swedish',
};

function nationality(power: PowerKey, name: string): string {
  return NATIONALITY[power] ?? name;
}

function nodeName(state: Pick<CampaignState, 'nodes'>, id: string): string {
  return state.nodes.find((n) => n.id === id)?.name ?? id;
}

/** A ship's class at contact, or a stand-in made from the ship itself (an unknown class counts as undamaged). */
function classFor(ship: RecordShip): ShipClass {
  return ship.class ?? {
    key: ship.classKey, name: ship.classKey, type: 'frigate', mp: 5, hull: ship.hull, rigging: [...ship.rigging],
    guns: ship.guns, carronades: ship.carronades, crewSections: [...ship.crew], rate: null, points: null,
  };
}

export function packageShip(ship: RecordShip, side: Pick<RecordSide, 'power' | 'powerName'>, fullSupplies: number): PackageShip {
  const cls = classFor(ship);
  const cap = (capacity: number, left: number) => Math.max(capacity, left);
  const masts = Math.max(cls.rigging.length, ship.rigging.length);
  const sections = Math.max(cls.crewSections.length, ship.crew.length);
  return {
    id: ship.id,
    name: ship.name,
    power: side.power,
    nationality: nationality(side.power, side.powerName),
    fleetId: ship.fleetId,
    fleetName: ship.fleetName,
    classKey: cls.key,
    className: cls.name,
    type: cls.type,
    rate: cls.rate,
    mp: cls.mp,
    points: cls.points,
    crewQuality: ship.crewQuality,
    status: ship.status,
    supplies: { months: ship.supplies, full: fullSupplies },
    hull: { left: ship.hull, capacity: cap(cls.hull, ship.hull) },
    rigging: Array.from({ length: masts }, (_, i) => {
      const left = ship.rigging[i] ?? 0;
      return { mast: MASTS[i] ?? `mast ${i + 1}`, left, capacity: cap(cls.rigging[i] ?? 0, left) };
    }),
    guns: { left: ship.guns, capacity: cap(cls.guns, ship.guns) },
    carronades: { left: ship.carronades, capacity: cap(cls.carronades, ship.carronades) },
    crew: Array.from({ length: sections }, (_, i) => {
      const left = ship.crew[i] ?? 0;
      return { section: i + 1, left, capacity: cap(cls.crewSections[i] ?? 0, left) };
    }),
  };
}

function victoryConditions(vp: BattleRecord['vpTable'], pkg: Pick<BattlePackage, 'sides' | 'fort' | 'location'>): BattlePackage['victory'] {
  const conditions = [
    'A side whose ships have all struck, sunk, been taken or left the table has lost the action.',
    'Otherwise, when play stops (the GM\'s call, or nightfall), each side scores the table points of every enemy ship it sank, or that struck to it; a ship taken as a prize scores double. The side with more table points wins; equal points is a drawn action (no winner). Table points decide the action only: the campaign VP are below.',
    'A ship that leaves the table by the edge agreed as its line of retreat escapes: it scores nothing for the enemy.',
  ];
  if (pkg.fort) {
    conditions.push(`The attackers take ${pkg.fort.portName} if the fort surrenders: "${pkg.fort.surrender}"`);
  }
  if (pkg.sides.some((s) => s.convoys.length > 0)) {
    conditions.push(`A convoy shares the fate of its escort: if the escorting side loses, the convoy is captured by the winner ("${CAMPAIGN_CONVOY_FATE}").`);
  }
  const stakes = [
    `Enemy ship of the line sunk: ${vp.shipOfTheLineSunk} VP; enemy frigate sunk: ${vp.frigateSunk} VP; captured instead: x${vp.captureMultiplier}.`,
    // Rules IX scores ships sunk and captured only: a struck ship nobody boards is neither.
    'A ship that struck but was not taken as a prize stays with her side and scores no campaign VP; only the winner takes prizes.',
  ];
  if (pkg.fort) stakes.push(`Port captured: ${vp.portCaptured} VP.`);
  if (pkg.sides.some((s) => s.convoys.length > 0)) stakes.push(`Convoy captured: ${vp.convoyCaptured} VP.`);
  return {
    conditions,
    points: pkg.sides.map((s) => ({ power: s.power, powerName: s.powerName, points: s.points })),
    stakes,
  };
}

/**
 * The battle package of `battleId`, made from the battle's frozen record (battleRecord.ts:
 * the battle as it was joined), never from the campaign as it is now: date, place, who
 * attacks, each side's ships at contact (boxes left of the class's), convoys, the fort of a
 * harbor attack, weather, victory conditions. From `state` only what never changes: the
 * campaign's name and calendar, and the map's node names. A battle stored before records
 * existed is rebuilt from `state` (recordOf), and says so in `record.note`.
 * Throws BattleNotFound for an unknown id.
 */
export function battlePackage(state: CampaignState, battleId: string, opts: { weatherChange?: boolean; dice?: Dice } = {}): BattlePackage {
  const battle = state.battles.find((b) => b.id === battleId);
  if (!battle) throw new BattleNotFound(battleId);
  const record = recordOf(state, battle);
  const node = state.nodes.find((n) => n.id === record.node);
  const where = node?.name ?? record.node;
  const port = record.port;

  const sides: PackageSide[] = record.sides.map((side) => {
    const ships = side.ships.map((ship) => packageShip(ship, side, record.fullSupplies));
    return {
      power: side.power,
      powerName: side.powerName,
      nationality: nationality(side.power, side.powerName),
      color: side.color,
      attacker: side.attacker,
      seen: 'whole',
      crewQuality: side.crewQuality,
      fleets: side.fleets.map((f) => ({ ...f })),
      ships,
      sighted: ships.map(sightedShip),
      convoys: side.convoys.map((c): PackageConvoy => ({
        fleetId: c.fleetId, fleetName: c.fleetName, from: c.from, fromName: nodeName(state, c.from), to: c.to, toName: nodeName(state, c.to), merchantmen: c.merchantmen,
      })),
      convoyInSight: side.convoys.length > 0,
      points: ships.reduce((n, s) => n + (s.points ?? 0), 0),
    };
  });

  const fort = record.harbor && record.fort && port ? packageFort(port, record.fort, where) : null;
  const attackerSide = record.sides.find((s) => s.attacker);
  const defender = record.sides.find((s) => !s.attacker && s.ships.length > 0) ?? record.sides.find((s) => !s.attacker);
  const location: BattlePackage['location'] = {
    nodeId: record.node,
    name: where,
    kind: node?.kind ?? 'sea',
    harbor: record.harbor,
    description: record.harbor ? `in the harbor of ${where}` : node?.kind === 'port' ? `at sea off ${where}` : `at sea, ${where}`,
    port: port ? { nodeId: port.node, name: where, owner: port.owner, ownerName: port.ownerName } : null,
  };
  const base = { sides, fort, location };
  return {
    format: 'steady-battle-package',
    version: 1,
    campaign: state.name,
    battleId: battle.id,
    status: battle.status,
    turn: record.turn,
    phase: record.phase,
    date: monthOf(state, record.turn),
    contact: record.contact,
    contactKind: contactKindOf(record),
    record: { made: record.made, note: record.note },
    location,
    attacker: attackerSide ? { power: attackerSide.power, powerName: attackerSide.powerName } : null,
    seenBy: null,
    sides,
    fort,
    fortInSight: fort ? fortInSight(fort) : null,
    shoals: record.harbor && defender
      ? { chooser: defender.power, chooserName: defender.powerName, depth: '11-16 feet', rule: CAMPAIGN_SHOALS }
      : null,
    weather: opts.dice ? battleWeather(battle.id, record.turn, opts) : weatherFromRolls(record.weather.rolls, record.weather.seed === null ? 'dice' : 'seeded', opts),
    victory: victoryConditions(record.vpTable, base),
  };
}

/** May this power be sent the battle's package? Only a power that fights in it (SPEC §6). */
export function canReceivePackage(battle: { sides: readonly Pick<Battle['sides'][number], 'power'>[] }, power: PowerKey): boolean {
  return battle.sides.some((s) => s.power === power);
}

/**
 * The package as a power may see it (docs/battle-export.md, "What each side may know"): a
 * power that fights gets its own side as joined and the enemy only as seen across the water
 * (sideView.ts); any other power gets nothing (null).
 */
export function packageForPower(pkg: BattlePackage, power: PowerKey): BattlePackage | null {
  return canReceivePackage(pkg, power) ? cutForSide(pkg, power) : null;
}

/** The GM sees every package whole; a player only the battles their power fights, cut to their side. */
export function packageForReader(pkg: BattlePackage, reader: Reader): BattlePackage | null {
  return reader.role === 'gm' ? pkg : packageForPower(pkg, reader.power);
}
