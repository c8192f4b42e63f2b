/** Messages between the service and an orders-check worker (checkPool.ts, checkWorker.ts). */
import type { CheckTextInput, TextCheck } from '../orders/check.js';
import type { CampaignState } from '../rules/state.js';

export interface CheckRequest {
  id: number;
  campaignId: string;
  /** The state's key (CampaignRead.stateKey: its boardVersion): the worker checks against the state it keeps under it. */
  version: string;
  /** Sent only when the worker is not known to keep this version. */
  state?: CampaignState;
  /** Campaigns the worker may forget (the service keeps count of what each worker holds). */
  drop?: string[];
  input: CheckTextInput;
}

export type CheckReply =
  | { id: number; ok: true; check: TextCheck }
  | { id: number; ok: false; needState: true }
  | { id: number; ok: false; needState?: false; message: string };
