// A crash straight after the SMTP listener answered 250 (docs/mail-in.md, "A crash
// mid-handling"): the message is stored, its handling never finished. The service is a real
// process, killed with SIGKILL the moment its 250 arrives; started again on the same data,
// it takes the message over at once: the orders are there within seconds (not when the dead
// claim runs out ten minutes later), and the player gets exactly one checker reply, over a
// real SMTP exchange on loopback.
import { describe, expect, it } from 'vitest';
import { recipients, sendRawMail } from '../support/smtp.js';
import { demoOf, freePort, freshServiceEnv, serviceFixture, startService, stopService, type Service } from '../support/service.js';

const { cleanups, sink } = serviceFixture();

const orders = (campaignId: string, password: string, messageId: string) => `From: british@example.org
To: orders@sasg.test
Subject: Orders for turn 1
Message-ID: <${messageId}>
Date: ${new Date().toUTCString()}

CAMPAIGN ${campaignId}
POWER british
PASSWORD ${password}
FLEET "Jamaica Squadron": HOLD
FLEET "Jamaica Squadron": MISSION
END
`;

async function britishStatus(s: Service, campaignId: string, gmToken: string): Promise<string> {
  const res = await fetch(`${s.base}/api/campaigns/${campaignId}/turns/current`, { headers: { authorization: `Bearer ${gmToken}` } });
  const body = await res.json() as { powers: { power: string; status: string }[] };
  return body.powers.find((p) => p.power === 'british')!.status;
}

describe('kill -9 right after the 250', () => {
  it('the next start takes the message over: orders in within seconds, one checker reply', async () => {
    const smtpPort = await freePort();
    const { env } = await freshServiceEnv(cleanups, { DEMO_CAMPAIGN: '1', SMTP_LISTEN_PORT: String(smtpPort), SMTP_URL: sink().url });
    const first = await startService(env);
    cleanups.push(() => stopService(first));
    const demo = demoOf(first);
    expect(await britishStatus(first, demo.campaignId, demo.gmToken)).toBe('none');

    const messageId = `crash-${Date.now()}@test.example`;
    const storedId = await sendRawMail(smtpPort, 'british@example.org', orders(demo.campaignId, demo.passwords.british!, messageId), () => first.child.kill('SIGKILL'));
    expect(storedId).not.toBe('');
    await first.exited;
    expect(first.child.signalCode).toBe('SIGKILL');

    const second = await startService(env);
    cleanups.push(() => stopService(second));
    // The crash landed mid-handling, and the new process says it took the message over.
    await second.line(/took over 1 message\(s\) left mid-handling by a process that is gone/, 30_000);
    await expect.poll(() => britishStatus(second, demo.campaignId, demo.gmToken), { timeout: 30_000, interval: 250 }).toBe('ready');
    const replies = () => sink().received.filter((m) => m.inReplyTo === `<${messageId}>`);
    await expect.poll(() => replies().length, { timeout: 30_000, interval: 250 }).toBe(1);
    await stopService(second); // a clean stop sends whatever is still queued
    expect(replies()).toHaveLength(1);
    expect(recipients(replies()[0]!)).toEqual(['british@example.org']);
    expect(replies()[0]!.text).toContain('Jamaica Squadron');
  }, 600_000);
});
