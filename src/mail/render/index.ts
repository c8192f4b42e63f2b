/** Everything that turns campaign data into mail (docs/mail-out.md). */
export { renderOrdersCheck, ordersCheckSummary, type OrdersCheckContext, type OrdersCheckSummary, type FleetLines, type PhaseLine, type EchoRow } from './ordersCheck.js';
export { renderTurnReport, renderGmReport, mapAttachment, missionText, type TurnReportInput, type GmReportInput, type RenderedMail } from './turnReport.js';
export { renderWelcome, exampleOrders, formatDeadline, ORDERS_BRIEF, type WelcomeInput } from './welcome.js';
export { groupByPhase, diceText, rollRows, type EventGroup, type RollRow } from './events.js';
