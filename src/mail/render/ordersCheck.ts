/** The reply to a power's orders (mail); the words come from src/words/ordersCheck.ts. */
import type { OrdersCheck } from '../../orders/check.js';
import { ordersCheckSummary, type OrdersCheckContext } from '../../words/ordersCheck.js';
import { renderParts } from './templates.js';

export function renderOrdersCheck(check: OrdersCheck, ctx: OrdersCheckContext): { subject: string; text: string; html: string } {
  const summary = ordersCheckSummary(check, ctx);
  const width = Math.max(10, ...summary.echo.map((e) => e.text.length));
  const { text, html } = renderParts('orders-check', { ...summary, echoWidth: Math.min(width, 60) });
  return { subject: summary.subject, text, html };
}
