/**
 * A notice as each kind of webhook takes it (docs/notifications.md):
 * - discord: `{ "content": text }` (Discord's execute-webhook), mentions switched off, so a
 *   campaign or power name can never ping @everyone;
 * - slack: `{ "text": text }` (an incoming webhook), with &, < and > escaped as Slack asks;
 * - json: the notice's fields, its text and link, and the delivery's id (for a receiver that
 *   may see a post twice), signed (./sign.ts).
 */
import { noticeText, type Notice } from '../words/notices.js';
import type { WebhookKind } from './events.js';

/** The page a notice points to, when the service knows its public address. */
export function noticeUrl(n: Notice, publicUrl: string | null | undefined): string | null {
  if (!publicUrl || !n.path) return null;
  return `${publicUrl.replace(/\/+$/, '')}${n.path}`;
}

const DISCORD_MAX = 2000; // characters in a Discord message
const SLACK_MAX = 3000;

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function bodyFor(kind: WebhookKind, n: Notice, deliveryId: string, publicUrl: string | null | undefined): string {
  const url = noticeUrl(n, publicUrl);
  const text = noticeText(n, url);
  switch (kind) {
    case 'discord':
      return JSON.stringify({ content: cut(text, DISCORD_MAX), allowed_mentions: { parse: [] } });
    case 'slack':
      return JSON.stringify({ text: cut(text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'), SLACK_MAX) });
    case 'json':
      return JSON.stringify({ ...n, text, url, delivery: deliveryId });
  }
}
