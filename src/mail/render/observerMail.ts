/**
 * The observers' mails (docs/gm-guide.md, "Observers"): the confirmation of a subscription
 * (double opt-in: nothing else is mailed to an address until its link is followed) and the
 * digest of one turn, which says what the observer page shows of that turn: its events as
 * the GM saw them, the VP ledger through it, and its map with every track as a PNG (the
 * mailed reports' renderer, src/map/png.ts).
 */
import type { Digest } from '../observerRead.js';
import { groupByPhase } from '../../words/events.js';
import { confirmSubject, digestFooter, digestSubject, observerUrl, unsubscribePath } from '../../words/observers.js';
import type { MailAttachment } from '../transport.js';
import { mapAttachments } from './mapAttachments.js';
import { renderParts } from './templates.js';
import type { RenderedMail } from './turnReport.js';

export interface ConfirmMailInput { campaignName: string; email: string; link: string; days: number; page: string }

export function renderObserverConfirm(input: ConfirmMailInput): { subject: string; text: string; html: string } {
  const { text, html } = renderParts('observer-confirm', { title: 'Confirm your subscription', ...input });
  return { subject: confirmSubject(input.campaignName), text, html };
}

export async function renderObserverDigest(d: Digest, publicUrl: string | null | undefined): Promise<RenderedMail> {
  const attachments: MailAttachment[] = [];
  let mapCid: string | null = null;
  if (d.map) {
    const { inline, file } = await mapAttachments(d.map, d.turn, 'observers');
    attachments.push(inline, file);
    mapCid = inline.cid;
  }
  const data = {
    title: `Turn ${d.turn}, for observers`, campaignName: d.campaign.name, turn: d.turn, mapCid,
    phases: groupByPhase(d.events), powers: d.powers,
    ledger: d.ledger.map((row) => ({ turn: row.turn, cells: row.vp })),
    page: observerUrl(publicUrl, `/observe/${encodeURIComponent(d.campaign.slug)}`),
    unsubscribe: observerUrl(publicUrl, unsubscribePath(d.unsubscribeToken)),
    footer: digestFooter(d.campaign.name, d.delay),
  };
  const { text, html } = renderParts('observer-digest', data);
  return { subject: digestSubject(d.campaign.name, d.turn), text, html, attachments };
}
