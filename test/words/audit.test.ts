// The audit log in sentences: "GM moved Jamaica Squadron to Kingston: reason …".
import { describe, expect, it } from 'vitest';
import { auditSentence } from '../../src/words/audit.js';

const names = {
  power: (k: string) => ({ british: 'Great Britain', french: 'France' } as Record<string, string>)[k],
  node: (k: string) => ({ kingston: 'Kingston', 'jamaica-channel': 'Jamaica Channel' } as Record<string, string>)[k],
};

describe('audit entries as sentences', () => {
  it('a fleet moved by the GM names the fleet, both places and the reason', () => {
    const text = auditSentence({
      actor: 'gm', action: 'override.fleet_moved',
      details: { turn: 3, fleetId: 'f1', name: 'Jamaica Squadron', power: 'british', from: { at: 'jamaica-channel', inHarbor: false }, to: { at: 'kingston', inHarbor: true }, reason: 'storm' },
    }, names);
    expect(text).toBe('GM moved Jamaica Squadron (Great Britain) from Jamaica Channel (at sea) to Kingston (in harbor): reason “storm”.');
  });

  it('a resolution by the scheduler names the powers without orders', () => {
    const text = auditSentence({ actor: 'scheduler:deadline', action: 'turn.resolved', details: { turn: 2, run: 0, dice: { seed: 'x', source: 'published' }, missingOrders: ['french', 'british'], events: 40 } }, names);
    expect(text).toBe('The scheduler resolved turn 2 with the published seed, 40 events; no orders from France and Great Britain (their fleets held).');
  });

  it('an action without its own sentence still reads as words, never as JSON', () => {
    const text = auditSentence({ actor: 'gm', action: 'settings.changed', details: { maxFleetsMoved: { old: 3, new: 4 }, reason: 'more action' } }, names);
    expect(text).toBe('GM: settings changed (maxFleetsMoved: 3 → 4): reason “more action”.');
    expect(text).not.toMatch(/[{}"]/);
  });

  it("the GM's new actions read as sentences: rule settings, their coming into force, the schedule, a new token, relations", () => {
    expect(auditSentence({ actor: 'web', action: 'campaign.settings', details: { turn: 2, fromTurn: 3, changes: [{ setting: 'maxFleetsMoved', old: 3, new: 4 }, { setting: 'autoResolveBattles', old: false, new: true }], reason: 'faster play' } }, names))
      .toBe('GM (web) changed the rules from turn 3: fleets moved per turn 3 → 4 and battles settled by the abstract table off → on: reason “faster play”.');
    expect(auditSentence({ actor: 'system', action: 'campaign.settings_in_force', details: { turn: 3, settings: { maxFleetsMoved: 4 } } }, names))
      .toBe("The GM's rule changes are in force from turn 3: fleets moved per turn 4.");
    expect(auditSentence({ actor: 'gm', action: 'campaign.deadline_schedule', details: { old: null, new: { kind: 'monthly' }, description: 'every month on day 1 at 18:00 (Europe/London)' } }, names))
      .toBe('GM set the deadline schedule: every month on day 1 at 18:00 (Europe/London).');
    expect(auditSentence({ actor: 'gm', action: 'campaign.deadline_schedule', details: { old: { kind: 'monthly' }, new: null } }, names))
      .toBe("GM removed the deadline schedule: each turn's deadline is set by hand again.");
    expect(auditSentence({ actor: 'gm', action: 'campaign.gm_token_rotated', details: { sessionsEnded: 2 } }, names))
      .toBe('GM made a new GM token; the old one stopped working and 2 other GM sign-ins ended.');
    expect(auditSentence({ actor: 'gm', action: 'relations.changed', details: { turn: 1, a: 'british', b: 'french', from: 'war', to: 'neutral', fromTurn: 2 } }, names))
      .toBe('GM made Great Britain and France neutral from turn 2 (they were at war).');
  });
});
