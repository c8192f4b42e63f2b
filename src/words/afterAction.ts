/**
 * Words of the end of a campaign (docs/gm-guide.md, "The end of a campaign"): why it is
 * over, the after-action report's headings, shared by the pages, the mail and the API.
 */

/** "The campaign is over since 2027-03-01 (the British reached the goal)". */
export function overSentence(reason: string | null, endedAt: Date | null): string {
  const when = endedAt ? ` since ${endedAt.toISOString().slice(0, 10)}` : '';
  return `The campaign is over${when}${reason ? ` (${reason})` : ''}`;
}

/** The reason given when a power reaches the VP goal in a resolve. */
export function goalReachedReason(powerName: string, vp: number, goal: number, turn: number): string {
  return `${powerName} reached the victory-point goal (${vp} of ${goal}) in turn ${turn}`;
}

export function afterActionSubject(campaign: string): string {
  return `${campaign}: the campaign is over — after-action report`;
}

export function winnerSentence(winner: string | null): string {
  return winner ? `${winner} won the campaign.` : 'No power won: the GM ended the campaign.';
}

/** What the observer page says of how far behind it is. */
export function observerLag(delay: number, shownThrough: number): string {
  const behind = `This page shows the campaign ${delay} ${delay === 1 ? 'turn' : 'turns'} behind the turn being played, as the GM saw it: nothing of the current turn or of the last ${delay === 1 ? 'one' : delay}.`;
  return shownThrough > 0 ? `${behind} It shows turns 1 to ${shownThrough}.` : `${behind} No turn is old enough to be shown yet.`;
}
