/**
 * The observers' digest in words (docs/gm-guide.md, "Observers"): the confirmation mail, the
 * answers of the subscription pages, the digest's subject and lines. Pages and mail alike.
 */

/** An address of the observer pages: absolute under PUBLIC_URL, else the path. */
export function observerUrl(publicUrl: string | null | undefined, path: string): string {
  return publicUrl ? `${publicUrl.replace(/\/+$/, '')}${path}` : path;
}

export const confirmPath = (token: string) => `/observe/confirm/${encodeURIComponent(token)}`;
export const unsubscribePath = (token: string) => `/observe/unsubscribe/${encodeURIComponent(token)}`;

export function confirmSubject(campaign: string): string {
  return `Confirm: the observers' digest of ${campaign}`;
}

export function digestSubject(campaign: string, turn: number): string {
  return `${campaign} for observers: turn ${turn}`;
}

/** What the observer page (or the mail answer) says once a subscription is asked: the same whether or not the address was subscribed. */
export function subscriptionAsked(email: string, days: number): string {
  return `If ${email} is not subscribed yet, a mail with a link to confirm is on its way to it. Nothing else is sent to it until the link is followed (it works for ${days} days).`;
}

export function subscribedSentence(campaign: string, delay: number): string {
  return `You are subscribed to the observers' digest of ${campaign}. Each time a turn is resolved, the turn that becomes old enough to show (${delay} ${delay === 1 ? 'turn' : 'turns'} behind) is mailed to you. Every digest has a link to unsubscribe.`;
}

export function unsubscribedSentence(campaign: string | null): string {
  return campaign ? `You are unsubscribed from the observers' digest of ${campaign}: nothing more is sent to you. Your address is deleted.` : 'This address is not subscribed (any more): nothing is sent to it.';
}

export const CONFIRM_GONE = 'This confirmation link does not work (any more): it is used, older than its three days, or the observer page was closed. Ask again on the observer page.';

/** The digest's line on why it comes, and how to stop it. */
export function digestFooter(campaign: string, delay: number): string {
  return `You receive this because you asked for the observers' digest of ${campaign} and confirmed it. It shows the campaign ${delay} ${delay === 1 ? 'turn' : 'turns'} behind the turn being played, as the GM saw it.`;
}
