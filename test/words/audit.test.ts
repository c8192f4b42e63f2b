// The audit log in sentences (issue 12 §6: "GM moved Jamaica Squadron to Kingston: reason …").
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
});
