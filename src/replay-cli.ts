/**
 * `npm run replay -- <campaign> <turn>`: re-run a stored turn through the pure resolver from
 * its stored start state, orders and dice, and compare with what was stored
 * (src/campaign/replayTurn.ts). Prints "same", or the first difference; exits 1 on a
 * difference, 2 when the turn cannot be replayed. Reads DATABASE_URL (or the embedded
 * database under DATA_DIR, which no running service may hold); writes nothing.
 */
import 'dotenv/config';
import { replayTurn } from './campaign/replayTurn.js';
import { loadConfig } from './config.js';
import { openConfigured } from './db/open.js';

const [campaign, turnText] = process.argv.slice(2);
if (!campaign || !turnText) {
  console.error('usage: npm run replay -- <campaign id or slug> <turn number>');
  process.exit(2);
}
const show = (v: unknown) => JSON.stringify(v) ?? 'nothing';
const db = await openConfigured(loadConfig(), () => {}, { migrate: false });
let status = 0;
try {
  const r = await replayTurn(db, campaign, Number(turnText));
  const later = r.laterEvents > 0 ? `; ${r.laterEvents} later event(s) from battle results not compared` : '';
  if (r.same) console.log(`same: turn ${r.turn} of ${r.campaign} (run ${r.run}), ${r.events} events and the next turn's opening replayed exactly${later}`);
  else {
    const d = r.difference!;
    console.log(`different: turn ${r.turn} of ${r.campaign} (run ${r.run}) first differs at ${d.path}\n  stored:   ${show(d.stored)}\n  replayed: ${show(d.replayed)}`);
    status = 1;
  }
} catch (err) {
  console.error(`cannot replay: ${err instanceof Error ? err.message : String(err)}`);
  status = 2;
} finally {
  await db.close();
}
process.exit(status);
