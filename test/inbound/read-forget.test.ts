// The texts of order mails hold PASSWORD lines. readMessage keeps the last few it read (one
// mail's text is read several times on its way in), and must forget them soon after, so an
// idle service holds no player's password in that memo (src/inbound/read.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FORGET_MS, forgetReadMessages, readMessage, readMessagesHeld } from '../../src/inbound/read.js';

const order = (n: number) => `CAMPAIGN carib\nPOWER british\nPASSWORD hearts-of-oak-${n}\nFLEET "Jamaica Squadron": HOLD\n`;

describe('readMessage forgets the texts it read', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    forgetReadMessages(); // its timer is made again under the fake clock
  });
  afterEach(() => {
    forgetReadMessages();
    vi.useRealTimers();
  });

  it('reads the same text once while it is in use, then forgets it FORGET_MS after the last read', () => {
    const first = readMessage(order(1));
    expect(first.header.password).toBe('hearts-of-oak-1');
    expect(readMessage(order(1))).toBe(first); // the memo: the same frozen result
    expect(readMessagesHeld()).toBe(1);
    vi.advanceTimersByTime(FORGET_MS - 1);
    readMessage(order(2)); // a read puts the forgetting off again
    vi.advanceTimersByTime(FORGET_MS - 1);
    expect(readMessagesHeld()).toBe(2);
    vi.advanceTimersByTime(1);
    expect(readMessagesHeld()).toBe(0);
    expect(readMessage(order(1))).not.toBe(first); // read afresh
  });

  it('holds at most the last 8 texts even while busy', () => {
    for (let n = 0; n < 20; n++) readMessage(order(n));
    expect(readMessagesHeld()).toBe(8);
  });
});
