/**
 * SUBSCRIBE by mail (docs/gm-guide.md, "Observers"): the mail names the campaign (CAMPAIGN
 * line) and asks for its observers' digest for the From address. Like the observer page's
 * form, it only mails that address a link to confirm (campaign/subscribeObserver.ts: double
 * opt-in, limited per campaign and per address); a From address is easily forged, and the
 * link is what proves it. A refusal is recorded for the GM and never answered (no backscatter).
 */
import type { Database } from '../campaign/database.js';
import { UseCaseError } from '../campaign/errors.js';
import { requestSubscription } from '../campaign/subscribeObserver.js';
import type { Result } from './outcome.js';

export async function subscribeByMail(db: Database, campaign: string | undefined, from: string): Promise<Result> {
  if (!campaign) return { status: 'unanswered', sender: from, error: 'SUBSCRIBE without a CAMPAIGN line: no campaign to subscribe to; not answered' };
  try {
    await requestSubscription(db, campaign.trim(), from, 'mail');
    return { status: 'handled', sender: from, error: null };
  } catch (err) {
    if (!(err instanceof UseCaseError)) throw err;
    return { status: err.kind === 'too_many_requests' ? 'rate_limited' : 'unanswered', sender: from, error: `SUBSCRIBE not carried out: ${err.message}; not answered` };
  }
}
