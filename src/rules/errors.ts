/**
 * The error codes of the rules, declared once: a rule violation's `code` names one of these.
 * The layers above add their own codes to these objects in their errors modules, so a code
 * string is written in one place only (test/architecture/errorCodes.test.ts).
 */
export const BATTLE = {
  alreadyTaken: 'battle/already_taken',
  badCaptor: 'battle/bad_captor',
  badFort: 'battle/bad_fort',
  badNumber: 'battle/bad_number',
  badPrizeCrew: 'battle/bad_prize_crew',
  badWinner: 'battle/bad_winner',
  crewGone: 'battle/crew_gone',
  duplicateShip: 'battle/duplicate_ship',
  fortDefendersWon: 'battle/fort_defenders_won',
  fortFalls: 'battle/fort_falls',
  fortHolds: 'battle/fort_holds',
  hullGone: 'battle/hull_gone',
  loserPrize: 'battle/loser_prize',
  notPending: 'battle/not_pending',
  shipGone: 'battle/ship_gone',
  tooManyLost: 'battle/too_many_lost',
  unknown: 'battle/unknown',
  unknownShip: 'battle/unknown_ship',
  winnerContradictsLosses: 'battle/winner_contradicts_losses',
} as const;

export const DICE = {
  scriptExhausted: 'dice/script_exhausted',
} as const;

export const ORDERS = {
  alreadyInHarbor: 'orders/already_in_harbor',
  convoyEscortElsewhere: 'orders/convoy_escort_elsewhere',
  convoyTooFar: 'orders/convoy_too_far',
  crewNotAfloat: 'orders/crew_not_afloat',
  crewShipTwice: 'orders/crew_ship_twice',
  crewUnknownShip: 'orders/crew_unknown_ship',
  fleetDissolved: 'orders/fleet_dissolved',
  formEmpty: 'orders/form_empty',
  formName: 'orders/form_name',
  formNameTaken: 'orders/form_name_taken',
  formNotAfloat: 'orders/form_not_afloat',
  formNotTogether: 'orders/form_not_together',
  formShipTwice: 'orders/form_ship_twice',
  formUnknownShip: 'orders/form_unknown_ship',
  fortConflict: 'orders/fort_conflict',
  fortDefended: 'orders/fort_defended',
  fortFromHarbor: 'orders/fort_from_harbor',
  holdAndMove: 'orders/hold_and_move',
  hostileHarbor: 'orders/hostile_harbor',
  inBattle: 'orders/in_battle',
  missionNeedsFleet: 'orders/mission_needs_fleet',
  missionNoneConflict: 'orders/mission_none_conflict',
  noDefenders: 'orders/no_defenders',
  noHarbor: 'orders/no_harbor',
  noMissionToDecline: 'orders/no_mission_to_decline',
  noShips: 'orders/no_ships',
  noTargetMission: 'orders/no_target_mission',
  notAPort: 'orders/not_a_port',
  notAdjacent: 'orders/not_adjacent',
  notEnemyPort: 'orders/not_enemy_port',
  notInHarbor: 'orders/not_in_harbor',
  notPlayable: 'orders/not_playable',
  patrolNoPort: 'orders/patrol_no_port',
  repairAndAttack: 'orders/repair_and_attack',
  repairAndMove: 'orders/repair_and_move',
  repairNotInHarbor: 'orders/repair_not_in_harbor',
  targetNotEnemy: 'orders/target_not_enemy',
  targetNotPort: 'orders/target_not_port',
  tooManyFleets: 'orders/too_many_fleets',
  twoMissionFleets: 'orders/two_mission_fleets',
  unknownFleet: 'orders/unknown_fleet',
  unknownNode: 'orders/unknown_node',
  unknownPower: 'orders/unknown_power',
} as const;

export const OVERRIDE = {
  crewQuality: 'override/crew_quality',
  fleetLost: 'override/fleet_lost',
  fleetName: 'override/fleet_name',
  nameTaken: 'override/name_taken',
  noHarbor: 'override/no_harbor',
  noShips: 'override/no_ships',
  notAPort: 'override/not_a_port',
  shipName: 'override/ship_name',
  stance: 'override/stance',
  supplies: 'override/supplies',
  unknownClass: 'override/unknown_class',
  unknownFleet: 'override/unknown_fleet',
  unknownNode: 'override/unknown_node',
  unknownPower: 'override/unknown_power',
} as const;

export const SETUP = {
  noShoals: 'setup/no_shoals',
  shoalDepth: 'setup/shoal_depth',
} as const;

export const TURN = {
  campaignOver: 'turn/campaign_over',
  pendingBattles: 'turn/pending_battles',
} as const;
