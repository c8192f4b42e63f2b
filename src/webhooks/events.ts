/**
 * What a webhook can receive (docs/notifications.md). A campaign webhook (added by the GM)
 * hears public news; a player's personal webhook hears that player's own notices.
 */
export const CAMPAIGN_EVENTS = ['turn-opened', 'deadline-reminder', 'turn-resolved', 'gazette', 'campaign-over'] as const;
export const PERSONAL_EVENTS = ['orders-received', 'report-ready'] as const;
/** Sent by the GM's or the player's "Send a test" button, to any webhook. */
export const TEST_EVENT = 'test';

export type CampaignEvent = (typeof CAMPAIGN_EVENTS)[number];
export type PersonalEvent = (typeof PERSONAL_EVENTS)[number];
export type WebhookEvent = CampaignEvent | PersonalEvent | typeof TEST_EVENT;

export const WEBHOOK_KINDS = ['discord', 'slack', 'json'] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

export type { Notice } from '../words/notices.js';
