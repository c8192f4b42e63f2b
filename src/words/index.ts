/**
 * One place for the presentation of the game in words: events, dice, missions, scoring,
 * checked orders and deadlines. Pages (src/http/pages), mail (src/mail/render) and
 * exports use these; none of them words these things on its own.
 */
export { groupByPhase, ofTypes, diceText, eventWithDice, rollRows, SECTION_TYPES, type EventGroup, type RollRow } from './events.js';
export { missionText, vpRules, standings } from './missions.js';
export { ordersCheckSummary, type OrdersCheckContext, type OrdersCheckSummary, type FleetLines, type PhaseLine, type EchoRow } from './ordersCheck.js';
export { canonicalTimeZone, formatDeadline, formatTimeShort, DEFAULT_TIME_ZONE } from './time.js';
export { ordersHelp, ordersHelpText, orderHeaderLines, campaignUrl, PASSWORD_PLACEHOLDER, type OrdersHelp, type OrdersHelpInput } from './ordersHelp.js';
export { exampleOrders, exampleFleetOrder, quotedNamesExample, quoteName } from './ordersExample.js';
