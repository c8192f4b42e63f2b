/**
 * What an assistant GM may not do (docs/gm-guide.md, "Assistant GMs"): the campaign's settings
 * and its GMs stay the GM's. Each reserved area is named here once, in the words the 403 and
 * the pages use; every route and page form that changes one names its area (src/campaign/access.ts).
 */
export type GmReserved =
  | 'settings' | 'schedule' | 'early-resolve' | 'despatch-settings' | 'observers' | 'webhooks'
  | 'battle-settings' | 'ending' | 'restore' | 'gms';

export const RESERVED_TO_GM: Record<GmReserved, string> = {
  settings: 'the campaign\'s rule settings',
  schedule: 'the deadline schedule',
  'early-resolve': 'early resolve (a turn resolved once every power is ready)',
  'despatch-settings': 'the despatch settings (grey despatches, how despatches travel)',
  observers: 'the public observer page',
  webhooks: 'the campaign\'s webhooks',
  'battle-settings': 'the battle settings (the days to a result deadline, the fallback at it, the sheets\' paper)',
  ending: 'ending and reopening the campaign',
  restore: 'restoring the campaign from an archive',
  gms: 'the campaign\'s GMs (assistant GMs, the GM token, the GM\'s address, time zone and calendar)',
};

/** What a deputy does and does not, said once for the refusals and the pages. */
export const DEPUTY_COVERS = 'a deputy runs the turns, battles, players, absences, stand-ins, despatches and the Gazette, but the campaign\'s settings and its GMs are the GM\'s';
export const UMPIRE_COVERS = 'an umpire handles battles only: packages, setup sheets, results and the battle desk';

/** The 403's message for an assistant GM in a reserved area. */
export function reservedMessage(area: GmReserved): string {
  return `only the GM may change ${RESERVED_TO_GM[area]}: ${DEPUTY_COVERS}`;
}
