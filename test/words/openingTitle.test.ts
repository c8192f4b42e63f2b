// The rolls made as a turn opened are headed by that turn: only turn 1 is the campaign's opening.
import { describe, expect, it } from 'vitest';
import { openingTitle } from '../../src/words/events.js';

describe('openingTitle', () => {
  it('heads turn 1 "When the campaign opened" and a later turn by its number', () => {
    expect(openingTitle(1)).toBe('When the campaign opened');
    expect(openingTitle(2)).toBe('As turn 2 opened');
    expect(openingTitle(2)).not.toContain('campaign opened');
  });
});
