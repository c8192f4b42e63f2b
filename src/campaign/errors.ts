/**
 * Errors a use case hands back to its caller (HTTP route, mail handler, CLI). Each says
 * what to fix; `problems` lists every problem found when there are several.
 */
import {
  BATTLE as LOWER_BATTLE, DICE as LOWER_DICE, OVERRIDE as LOWER_OVERRIDE, SETUP as LOWER_SETUP, TURN as LOWER_TURN,
} from '../rules/errors.js';
import { ORDERS as LOWER_ORDERS } from '../orders/errors.js';
export { CONVERT, PAPER } from '../export/errors.js';

export type ErrorKind = 'bad_request' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'too_many_requests' | 'too_large' | 'unprocessable';

export interface Problem {
  path: string;
  message: string;
}

export class UseCaseError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly problems: Problem[] = [],
  ) {
    super(message);
    this.name = 'UseCaseError';
  }
}

export const HTTP_STATUS: Record<ErrorKind, number> = {
  bad_request: 400, unauthorized: 401, forbidden: 403, not_found: 404, conflict: 409, too_many_requests: 429, too_large: 413, unprocessable: 422,
};

export const notFound = (what: string) => new UseCaseError('not_found', 'not_found', `${what} not found`);

// The error codes the use cases add to those of the rules and the orders language, declared once.
export const ABSENCE = {
  badDates: 'absence/bad_dates',
  badNote: 'absence/bad_note',
  overlap: 'absence/overlap',
  tooMany: 'absence/too_many',
} as const;

export const END = {
  notOver: 'end/not_over',
  over: 'end/over',
  reason: 'end/reason',
} as const;

export const OBSERVERS = {
  delay: 'observers/delay',
  pageOff: 'observers/page_off',
  badEmail: 'observers/bad_email',
  requestsPerCampaign: 'observers/requests_per_campaign',
  requestsPerAddress: 'observers/requests_per_address',
  linkGone: 'observers/link_gone',
  noPublicUrl: 'observers/no_public_url',
  notSubscribed: 'observers/not_subscribed',
} as const;

export const VACANCY = {
  claimGone: 'vacancy/claim_gone',
  badEmail: 'vacancy/bad_email',
  badPassword: 'vacancy/bad_password',
  notPlayable: 'vacancy/not_playable',
} as const;

export const ASSISTANT = {
  badEmail: 'assistant/bad_email',
  badRole: 'assistant/bad_role',
  exists: 'assistant/exists',
  notFound: 'assistant/not_found',
} as const;

export const STANDIN = {
  badEmail: 'standin/bad_email',
  noAbsence: 'standin/no_absence',
  notFound: 'standin/not_found',
  samePerson: 'standin/same_person',
} as const;

export const PAUSE = {
  paused: 'pause/paused',
  notPaused: 'pause/not_paused',
  reason: 'pause/reason',
} as const;

export const BATTLE = {
  ...LOWER_BATTLE,
  form: 'battle/form',
  notCorrectable: 'battle/not_correctable',
  overrideReason: 'battle/override_reason',
  resolved: 'battle/resolved',
  /** The GM's result as the sheet's lines: a problem by its line. */
  resultLines: 'battle/result_lines',
} as const;

export const DESPATCH = {
  empty: 'despatch/empty',
  greyOff: 'despatch/grey_off',
  noRecipient: 'despatch/no_recipient',
  notPlayed: 'despatch/not_played',
  tooLong: 'despatch/too_long',
  unknownPower: 'despatch/unknown_power',
  badSetting: 'despatch/bad_setting',
  turnClosed: 'despatch/turn_closed',
  notAwaiting: 'despatch/not_awaiting',
  badAction: 'despatch/bad_action',
  badTaker: 'despatch/bad_taker',
} as const;

export const GAZETTE = {
  tooLong: 'gazette/too_long',
  badFormat: 'gazette/bad_format',
  published: 'gazette/published',
  nothingToPublish: 'gazette/nothing_to_publish',
  unknownNews: 'gazette/unknown_news',
} as const;

export const RUMOUR = {
  empty: 'rumour/empty',
  tooLong: 'rumour/too_long',
  unknownPower: 'rumour/unknown_power',
  notPlayed: 'rumour/not_played',
  badTruth: 'rumour/bad_truth',
} as const;

export const DICE = {
  ...LOWER_DICE,
  badScript: 'dice/bad_script',
} as const;

export const ORDERS = {
  ...LOWER_ORDERS,
  blocksOnly: 'orders/blocks_only',
  checkFailed: 'orders/check_failed',
  /** A warning, never a refusal: a plotted fleet ends a phase where a warring enemy was last seen. */
  knownEnemy: 'orders/known_enemy',
  neutral: 'orders/neutral',
  standingInvalid: 'orders/standing_invalid',
  tooLarge: 'orders/too_large',
} as const;

export const OVERRIDE = {
  ...LOWER_OVERRIDE,
  invalid: 'override/invalid',
} as const;

export const SETUP = {
  ...LOWER_SETUP,
  shoalsFormat: 'setup/shoals_format',
} as const;

export const TURN = {
  ...LOWER_TURN,
  notOpen: 'turn/not_open',
} as const;

export const ARCHIVE = {
  badRow: 'archive/bad_row',
  campaignExists: 'archive/campaign_exists',
  conflict: 'archive/conflict',
  foreignReference: 'archive/foreign_reference',
  forPlayers: 'archive/for_players',
  unknownColumn: 'archive/unknown_column',
} as const;

export const AUTH = {
  badToken: 'auth/bad_token',
  gmOnly: 'auth/gm_only',
  missing: 'auth/missing',
  outsideRole: 'auth/outside_role',
  reservedToGm: 'auth/reserved_to_gm',
} as const;

export const CAMPAIGN = {
  nameControl: 'campaign/name_control',
  over: 'campaign/over',
  slugTaken: 'campaign/slug_taken',
} as const;

export const DEADLINE = {
  grace: 'deadline/grace',
  invalid: 'deadline/invalid',
  past: 'deadline/past',
} as const;

export const DESK = {
  dates: 'desk/dates',
  deadlineInvalid: 'desk/deadline_invalid',
  deadlinePast: 'desk/deadline_past',
  noEntry: 'desk/no_entry',
  noSuchDate: 'desk/no_such_date',
  settings: 'desk/settings',
} as const;

export const MAIL = {
  hasPassword: 'mail/has_password',
  notAPlayer: 'mail/not_a_player',
  notDone: 'mail/not_done',
} as const;

export const PLAYER = {
  emailControl: 'player/email_control',
  invitationsPerAddress: 'player/invitations_per_address',
  invitationsPerCampaign: 'player/invitations_per_campaign',
  notPlayable: 'player/not_playable',
} as const;

export const RELATIONS = {
  invalid: 'relations/invalid',
} as const;

export const REPLAY = {
  badTurn: 'replay/bad_turn',
  notResolved: 'replay/not_resolved',
} as const;

export const RESOLVE = {
  expectedTurn: 'resolve/expected_turn',
} as const;

export const ROLLBACK = {
  battleResolved: 'rollback/battle_resolved',
  nextResolved: 'rollback/next_resolved',
  noState: 'rollback/no_state',
  notLast: 'rollback/not_last',
  nothingResolved: 'rollback/nothing_resolved',
  overridesSince: 'rollback/overrides_since',
} as const;

export const SCENARIO = {
  invalid: 'scenario/invalid',
  unknown: 'scenario/unknown',
} as const;

export const SCHEDULE = {
  invalid: 'schedule/invalid',
} as const;

export const SETTINGS = {
  invalid: 'settings/invalid',
} as const;

export const TIME_ZONE = {
  unknown: 'time_zone/unknown',
} as const;

export const VIEW = {
  otherPower: 'view/other_power',
  powerRequired: 'view/power_required',
} as const;

/** Webhooks and the players' notification choices (docs/notifications.md). */
export const WEBHOOK = {
  badEvents: 'webhook/bad_events',
  badKind: 'webhook/bad_kind',
  badUrl: 'webhook/bad_url',
  tooMany: 'webhook/too_many',
} as const;

export const NOTIFY = {
  badChoice: 'notify/bad_choice',
} as const;
