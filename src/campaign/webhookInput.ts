/**
 * A webhook as the GM or a player gives it, checked (docs/notifications.md): the kind, a URL
 * the service may post to (https, not into a private network: src/webhooks/address.ts) and
 * the events, each known. Shared by the GM's campaign webhooks and a player's personal one.
 */
import { TargetRefused, allowPrivateFromEnv, checkUrl } from '../webhooks/address.js';
import { WEBHOOK_KINDS, type WebhookKind } from '../webhooks/events.js';
import { UseCaseError, WEBHOOK } from './errors.js';

export interface WebhookInput {
  kind: string;
  url: string;
  events?: readonly string[];
  label?: string;
}

export function checkKind(kind: string): WebhookKind {
  if (!(WEBHOOK_KINDS as readonly string[]).includes(kind)) {
    throw new UseCaseError('bad_request', WEBHOOK.badKind, `kind must be one of ${WEBHOOK_KINDS.join(', ')} (got "${kind}")`, [{ path: 'kind', message: `one of ${WEBHOOK_KINDS.join(', ')}` }]);
  }
  return kind as WebhookKind;
}

export function checkTarget(url: string): string {
  const trimmed = url.trim();
  try {
    checkUrl(trimmed, { allowPrivate: allowPrivateFromEnv() });
  } catch (err) {
    if (!(err instanceof TargetRefused)) throw err;
    throw new UseCaseError('bad_request', WEBHOOK.badUrl, `the webhook URL is refused: ${err.message}`, [{ path: 'url', message: err.message }]);
  }
  return trimmed;
}

export function checkEvents(events: readonly string[] | undefined, allowed: readonly string[]): string[] {
  const list = [...new Set(events ?? allowed)];
  const unknown = list.filter((e) => !allowed.includes(e));
  if (unknown.length > 0 || list.length === 0) {
    const message = list.length === 0 ? `choose at least one event: ${allowed.join(', ')}` : `unknown event${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}: the events are ${allowed.join(', ')}`;
    throw new UseCaseError('bad_request', WEBHOOK.badEvents, message, [{ path: 'events', message }]);
  }
  return allowed.filter((e) => list.includes(e));
}

export function checkLabel(label: string | undefined): string {
  return (label ?? '').replace(/[\u0000-\u001f\u007f]/g, ' ').trim().slice(0, 100);
}
