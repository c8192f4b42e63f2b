/** The error codes of the orders language, declared once; the codes the rules give are in ../rules/errors.ts. */
import { ORDERS as LOWER_ORDERS } from '../rules/errors.js';

export const ORDERS = {
  ...LOWER_ORDERS,
  ambiguousName: 'orders/ambiguous_name',
  badTurn: 'orders/bad_turn',
  emptyRoute: 'orders/empty_route',
  formFailed: 'orders/form_failed',
  formSyntax: 'orders/form_syntax',
  idOverName: 'orders/id_over_name',
  leaveHarborAdded: 'orders/leave_harbor_added',
  missingPower: 'orders/missing_power',
  notAnOrder: 'orders/not_an_order',
  powerTwice: 'orders/power_twice',
  routeRepeat: 'orders/route_repeat',
  stanceConflict: 'orders/stance_conflict',
  standingSyntax: 'orders/standing_syntax',
  standingTwice: 'orders/standing_twice',
  syntax: 'orders/syntax',
  targetTwice: 'orders/target_twice',
  twoMoves: 'orders/two_moves',
  unknownOrder: 'orders/unknown_order',
  unknownStance: 'orders/unknown_stance',
  unreadableCharacter: 'orders/unreadable_character',
  wrongCampaign: 'orders/wrong_campaign',
  wrongPower: 'orders/wrong_power',
  wrongTurn: 'orders/wrong_turn',
} as const;
