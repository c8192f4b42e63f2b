/**
 * An orders-check worker thread (checkPool.ts): keeps the campaign states it was sent, by
 * campaign and the key the pool gives (the boardVersion: order sets do not change it), and
 * checks texts against them. A throw while checking becomes
 * an answer, so the thread lives on; the pool replaces a thread that dies.
 */
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { checkText } from '../orders/check.js';
import { deepFreeze } from '../rules/clone.js';
import type { CampaignState } from '../rules/state.js';
import type { CheckReply, CheckRequest } from './checkProtocol.js';

// On Linux a thread has its own nice value: this thread gives way to the event loop (and the
// embedded database on it) whenever both want a core, so checks never slow other requests.
// Elsewhere setPriority would lower the whole process, so it is left alone.
if (process.platform === 'linux') {
  try { setPriority(10); } catch { /* lowering is always allowed; if not, run at normal priority */ }
}

const kept = new Map<string, { version: string; state: CampaignState }>();
const port = parentPort!;

port.on('message', (m: CheckRequest) => {
  for (const id of m.drop ?? []) kept.delete(id);
  // Frozen, as the service's own cached states are: checks only read it, and what they make
  // from a frozen state (name tables) is kept with it (src/orders/tables.ts).
  if (m.state) kept.set(m.campaignId, { version: m.version, state: deepFreeze(m.state) });
  const entry = kept.get(m.campaignId);
  let reply: CheckReply;
  if (!entry || entry.version !== m.version) reply = { id: m.id, ok: false, needState: true };
  else {
    try {
      reply = { id: m.id, ok: true, check: checkText(entry.state, m.input) };
    } catch (err) {
      reply = { id: m.id, ok: false, message: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
    }
  }
  port.postMessage(reply);
});

// Loaded: the pool's time limit counts from here.
port.postMessage('ready');
