/** Everything that turns campaign data into mail (docs/mail-out.md). */
export { renderOrdersCheck } from './ordersCheck.js';
export { renderTurnReport, renderGmReport, turnReportSubject, gmReportSubject, type TurnReportInput, type GmReportInput, type RenderedMail } from './turnReport.js';
export { renderWelcome, ORDERS_BRIEF, type WelcomeInput } from './welcome.js';
export { exampleOrders } from '../../words/ordersExample.js';
export { mapAttachments, type MapAttachments } from './mapAttachments.js';
