/**
 * A player's result entry is refused with reasons, and a reason must not tell a side what it
 * may not know (SPEC §6): "Bucentaure has 12 hull boxes and cannot lose 13" would let a
 * player learn the enemy's boxes as joined by trying numbers. For a ship of the other camp,
 * "more lost than she had" is said without the figures; her own side's sheet has them.
 */
import type { RuleViolation } from '../rules/orders.js';
import type { Battle } from '../rules/state.js';
import { BATTLE, CONVERT } from './errors.js';

const FIGURES = new Set<string>([BATTLE.tooManyLost, CONVERT.badMeasure]);

export function withoutEnemyFigures<P extends Pick<RuleViolation, 'code' | 'message' | 'shipId' | 'ship'>>(problems: readonly P[], battle: Battle, power: string): P[] {
  const mine = battle.sides.find((s) => s.power === power)?.attacker;
  const camps = new Set(battle.sides.map((s) => s.attacker)).size === 2;
  const enemyShips = new Set(battle.sides.filter((s) => (camps ? s.attacker !== mine : s.power !== power)).flatMap((s) => s.shipIds));
  const enemyFort = battle.harbor && mine === true;
  return problems.map((p) => {
    const enemy = p.shipId === 'fort' ? enemyFort : p.shipId !== undefined && enemyShips.has(p.shipId);
    if (!enemy || !FIGURES.has(p.code) || !/\d/.test(p.message)) return p;
    const name = p.shipId === 'fort' ? 'the fort' : p.ship ?? 'an enemy ship';
    return { ...p, message: `${name}: more lost than she had when the battle was joined (her own side's sheet and log have her boxes); check the figures with her captain` };
  });
}
