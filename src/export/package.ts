/**
 * The battle package: one model of a campaign battle that every export format is made from
 * (WS&IM logs, BtQ cards, Galleys & Galleons, Cogs of Valor, JSON). Pure: no I/O, and the
 * only randomness (the weather) comes from the dice given or a seed of the battle id and turn.
 */
import type { Dice } from '../rules/dice.js';
import { monthOf } from '../rules/common.js';
import type { Reader } from '../rules/view.js';
import type { Battle, CampaignState, Fleet, Ship, ShipClass } from '../rules/state.js';
import type { PowerKey } from '../scenario/types.js';
import type { BattlePackage, PackageConvoy, PackageShip, PackageSide } from './json.js';
import { packageFort } from './fort.js';
import { CAMPAIGN_CONVOY_FATE, CAMPAIGN_SHOALS } from './rulesText.js';
import { battleWeather } from './wind.js';

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

function nationality(state: CampaignState, power: PowerKey): string {
  return NATIONALITY[power] ?? state.powers.find((p) => p.key === power)?.name ?? power;
}

function powerName(state: CampaignState, power: PowerKey): string {
  return state.powers.find((p) => p.key === power)?.name ?? power;
}

function nodeName(state: CampaignState, id: string): string {
  return state.nodes.find((n) => n.id === id)?.name ?? id;
}

/** A ship's class, or a stand-in made from the ship itself (an unknown class counts as undamaged). */
function classFor(state: CampaignState, ship: Ship): ShipClass {
  return state.shipClasses.find((c) => c.key === ship.classKey) ?? {
    key: ship.classKey, name: ship.classKey, type: 'frigate', mp: 5, hull: ship.hull, rigging: [...ship.rigging],
    guns: ship.guns, carronades: ship.carronades, crewSections: [...ship.crew], rate: null, points: null,
  };
}

/** Where a ship of the battle is now: sunk ships stay in their fleets with status 'sunk'. */
function locateShip(state: CampaignState, id: string): { ship: Ship; fleetId: string; fleetName: string } | undefined {
  for (const f of state.fleets) {
    const ship = f.ships.find((s) => s.id === id);
    if (ship) return { ship, fleetId: f.id, fleetName: f.name };
  }
  return undefined;
}

export function packageShip(state: CampaignState, ship: Ship, fleetId: string, fleetName: string): PackageShip {
  const cls = classFor(state, ship);
  const cap = (capacity: number, left: number) => Math.max(capacity, left);
  const masts = Math.max(cls.rigging.length, ship.rigging.length);
  const sections = Math.max(cls.crewSections.length, ship.crew.length);
  return {
    id: ship.id,
    name: ship.name,
    power: ship.power,
    nationality: nationality(state, ship.power),
    fleetId,
    fleetName,
    classKey: cls.key,
    className: cls.name,
    type: cls.type,
    rate: cls.rate,
    mp: cls.mp,
    points: cls.points,
    crewQuality: ship.crewQuality,
    status: ship.status,
    supplies: { months: ship.supplies, full: state.settings.fullSupplies },
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

function convoysOf(state: CampaignState, fleets: Fleet[]): PackageConvoy[] {
  return fleets.filter((f) => f.convoy?.pickedUp).map((f) => ({
    fleetId: f.id, fleetName: f.name,
    from: f.convoy!.from, fromName: nodeName(state, f.convoy!.from),
    to: f.convoy!.to, toName: nodeName(state, f.convoy!.to),
    merchantmen: f.convoy!.merchantmen,
  }));
}

function victoryConditions(state: CampaignState, pkg: Pick<BattlePackage, 'sides' | 'fort' | 'location'>): BattlePackage['victory'] {
  const vp = state.vpTable;
  const conditions = [
    'A side whose ships have all struck, sunk, been taken or left the table has lost the action.',
    'Otherwise, when play stops (the GM\'s call, or nightfall), each side scores the points of every enemy ship it sank, or that struck to it; a ship taken as a prize scores double. The side with more points wins; equal points is a drawn action (no winner).',
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
 * The battle package of `battleId`: date, place, who attacks, each side's ships as they are
 * now (boxes left of the class's), convoys, the fort of a harbor attack, weather, victory
 * conditions. Throws BattleNotFound for an unknown id.
 */
export function battlePackage(state: CampaignState, battleId: string, opts: { weatherChange?: boolean; dice?: Dice } = {}): BattlePackage {
  const battle = state.battles.find((b) => b.id === battleId);
  if (!battle) throw new BattleNotFound(battleId);
  const node = state.nodes.find((n) => n.id === battle.node);
  const where = node?.name ?? battle.node;
  const port = state.ports.find((p) => p.node === battle.node);

  const sides: PackageSide[] = battle.sides.map((side) => {
    const fleets = side.fleetIds.map((id) => state.fleets.find((f) => f.id === id)).filter((f): f is Fleet => f !== undefined);
    const ships = side.shipIds.flatMap((id) => {
      const found = locateShip(state, id);
      return found ? [packageShip(state, found.ship, found.fleetId, found.fleetName)] : [];
    });
    const power = state.powers.find((p) => p.key === side.power);
    return {
      power: side.power,
      powerName: powerName(state, side.power),
      nationality: nationality(state, side.power),
      color: power?.color ?? '#000000',
      attacker: side.attacker,
      crewQuality: power?.crewQuality ?? 'average',
      fleets: side.fleetIds.map((id) => ({ id, name: state.fleets.find((f) => f.id === id)?.name ?? id })),
      ships,
      convoys: convoysOf(state, fleets),
      points: ships.reduce((n, s) => n + (s.points ?? 0), 0),
    };
  });

  const fortState = battle.harbor && port ? (battle.fort ?? port.fort) : null;
  const fort = fortState && port ? packageFort(state, port, fortState, where) : null;
  const attackerSide = battle.sides.find((s) => s.attacker);
  const defender = battle.sides.find((s) => !s.attacker && s.shipIds.length > 0) ?? battle.sides.find((s) => !s.attacker);
  const location: BattlePackage['location'] = {
    nodeId: battle.node,
    name: where,
    kind: node?.kind ?? 'sea',
    harbor: battle.harbor,
    description: battle.harbor ? `in the harbor of ${where}` : node?.kind === 'port' ? `at sea off ${where}` : `at sea, ${where}`,
    port: port ? { nodeId: port.node, name: where, owner: port.owner, ownerName: powerName(state, port.owner) } : null,
  };
  const base = { sides, fort, location };
  return {
    format: 'steady-battle-package',
    version: 1,
    campaign: state.name,
    battleId: battle.id,
    status: battle.status,
    turn: battle.turn,
    date: monthOf(state, battle.turn),
    location,
    attacker: attackerSide ? { power: attackerSide.power, powerName: powerName(state, attackerSide.power) } : null,
    sides,
    fort,
    shoals: battle.harbor && defender
      ? { chooser: defender.power, chooserName: powerName(state, defender.power), depth: '11-16 feet', rule: CAMPAIGN_SHOALS }
      : null,
    weather: battleWeather(battle.id, battle.turn, opts),
    victory: victoryConditions(state, base),
  };
}

/** May this power be sent the battle's package? Only a power that fights in it (SPEC §6). */
export function canReceivePackage(battle: { sides: readonly Pick<Battle['sides'][number], 'power'>[] }, power: PowerKey): boolean {
  return battle.sides.some((s) => s.power === power);
}

/**
 * The package as a power may see it: a power that fights sees the whole package (both sides'
 * ships are on the table for all to see); any other power gets nothing (null).
 */
export function packageForPower(pkg: BattlePackage, power: PowerKey): BattlePackage | null {
  return canReceivePackage(pkg, power) ? pkg : null;
}

/** The GM sees every package; a player only the battles their power fights. */
export function packageForReader(pkg: BattlePackage, reader: Reader): BattlePackage | null {
  return reader.role === 'gm' ? pkg : packageForPower(pkg, reader.power);
}
