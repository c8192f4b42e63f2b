/**
 * Who is writing. The PASSWORD line proves it: it must verify against the player of the
 * POWER named, in the CAMPAIGN named (by id or slug); and the From address must be that
 * player's email (case-insensitive) — or the GM's address (Campaign.gmEmail) with the GM token,
 * for orders the GM sends on a power's behalf. Every failure looks the same from outside (one
 * polite answer, the same work done), so a stranger cannot learn whether a campaign or a
 * power exists.
 */
import { createHash } from 'node:crypto';
import type { Database } from '../../db/client.js';
import { slugify } from '../createCampaign.js';
import { passwordMatches } from '../access.js';
import { standInLasts } from '../standInLasts.js';
import { hashPassword, tokenMatches, verifyPassword } from '../secrets.js';
import { normalise } from '../../orders/index.js';

/** The header lines of a message that name its writer (src/inbound/read.ts reads them). */
export interface SenderLines {
  campaign?: string | undefined;
  power?: string | undefined;
  password?: string | undefined;
}

export interface Sender {
  campaignId: string;
  campaignSlug: string;
  campaignName: string;
  power: string;
  powerName: string;
  playerName: string;
  email: string;
  /** The campaign's stateVersion, read in the same statement as the password hashes: the orders check asks for no version again. */
  stateVersion?: string;
  /** Its boardVersion, from the same row: the orders check reuses the state it keeps under it. */
  boardVersion?: string;
}

/** Who the password proved: the power's player, the GM, or a stand-in for the absent player (docs/absences.md). */
export type SenderRole = 'player' | 'gm' | 'standin';

export type Identified = { ok: true; sender: Sender; as: SenderRole } | { ok: false; reason: string };

/** The name a mail's orders and blocks are audited under: a stand-in's own (`standin:<power>:<email>`), the GM's, or the address's. */
export function mailActor(who: { sender: Sender; as: SenderRole }, from: string): string {
  if (who.as === 'gm') return 'gm';
  if (who.as === 'standin') return `standin:${who.sender.power}:${who.sender.email}`;
  return `mail:${from}`;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

let dummyHash: Promise<string> | null = null;
/** Spend the time of one password check, so a miss takes as long as a hit. */
async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('steady-as-she-goes-dummy');
  await verifyPassword(password || 'x', await dummyHash);
}

interface Candidate {
  id: string; slug: string; name: string; gmEmail: string | null; gmTokenHash: string; stateVersion: string; boardVersion: string;
  powers: { key: string; name: string; playable: boolean; player: { id: string; name: string; email: string; passwordHash: string } | null; standIns: StandInRow[] }[];
}

/** A stand-in named for the power whose address is the From address, not ended nor cancelled (docs/absences.md). */
interface StandInRow { id: string; email: string; passwordHash: string; toDay: string }

type CandidateRow = {
  id: string; slug: string; name: string; gmEmail: string | null; gmTokenHash: string; stateVersion: string; boardVersion: string;
  powerKey: string; powerName: string; playable: boolean;
  playerId: string | null; playerName: string | null; email: string | null; passwordHash: string | null; timeZone: string | null;
  standIns: StandInRow[] | null;
};

/** The stand-ins writing from `from` whose stand-in lasts today, in the absent player's time zone (checked on every mail, as on every request). */
function standInsLasting(rows: readonly StandInRow[], timeZone: string | null, at: Date): StandInRow[] {
  return rows.filter((s) => standInLasts({ toDay: s.toDay, timeZone }, at));
}

/**
 * The campaigns a message may be for, each with its powers and their players, in ONE query
 * (mail in runs this on every message): named by the CAMPAIGN line (slug, any case, or
 * id), or, without one, where the From address plays. `power` narrows to one power.
 */
async function candidates(db: Database, name: string | undefined, from: string, only?: { id: string; power: string }, at: Date = new Date()): Promise<Candidate[]> {
  const params: unknown[] = [];
  const p = (v: unknown) => { params.push(v); return `$${params.length}`; };
  const power = only?.power;
  const fromParam = p(from.trim().toLowerCase());
  let which: string;
  if (only) {
    which = p(only.id);
  } else if (name) {
    const v = name.trim();
    const or = [`lower(c.slug) = lower(${p(v)})`, `c.slug = ${p(slugify(v))}`];
    if (UUID.test(v)) or.push(`c.id = ${p(v.toLowerCase())}`);
    which = `SELECT c.id FROM "Campaign" c WHERE ${or.join(' OR ')} ORDER BY c."createdAt" LIMIT 3`;
  } else {
    which = `SELECT DISTINCT pl."campaignId" FROM "Player" pl WHERE lower(pl.email) = lower(${p(from)}) LIMIT 10`;
  }
  const text =
    `SELECT c.id, c.slug, c.name, c."gmEmail", c."gmTokenHash", c."stateVersion"::text AS "stateVersion", c."boardVersion"::text AS "boardVersion",
            pw.key AS "powerKey", pw.name AS "powerName", pw.playable,
            pl.id AS "playerId", pl.name AS "playerName", pl.email, pl."passwordHash", pl."timeZone",
            -- The stand-ins writing from this address, in the same statement (every message asks).
            (SELECT json_agg(json_build_object('id', s.id, 'email', s.email, 'passwordHash', s."passwordHash", 'toDay', a."toDay"))
               FROM "StandIn" s JOIN "Absence" a ON a.id = s."absenceId"
              WHERE s."powerId" = pw.id AND s.email = ${fromParam} AND s."endedAt" IS NULL AND a."cancelledAt" IS NULL) AS "standIns"
       FROM "Campaign" c
       JOIN "Power" pw ON pw."campaignId" = c.id${power !== undefined ? ` AND pw.key = ${p(power)}` : ''}
       LEFT JOIN "Player" pl ON pl."powerId" = pw.id
      WHERE c.id IN (${which})
      ORDER BY c."createdAt", c.id, pw.position`;
  // Prepared once per connection and shape of the query (a handful): run on every message.
  const rows = await db.sql.query<CandidateRow>(text, params, `inbound-candidates-${createHash('sha1').update(text).digest('hex').slice(0, 12)}`);
  const out = new Map<string, Candidate>();
  for (const r of rows) {
    let c = out.get(r.id);
    if (!c) out.set(r.id, c = { id: r.id, slug: r.slug, name: r.name, gmEmail: r.gmEmail, gmTokenHash: r.gmTokenHash, stateVersion: r.stateVersion, boardVersion: r.boardVersion, powers: [] });
    c.powers.push({
      key: r.powerKey, name: r.powerName, playable: r.playable,
      player: r.playerId ? { id: r.playerId, name: r.playerName!, email: r.email!, passwordHash: r.passwordHash! } : null,
      standIns: standInsLasting(r.standIns ?? [], r.timeZone, at),
    });
  }
  return [...out.values()];
}

export async function identifySender(db: Database, header: SenderLines, from: string): Promise<Identified> {
  const password = header.password ?? '';
  if (!header.power || !password) {
    await burnPasswordCheck(password);
    return { ok: false, reason: !header.power ? 'no POWER line' : 'no PASSWORD line' };
  }
  const campaigns = await candidates(db, header.campaign, from);
  const want = normalise(header.power);
  let reason = header.campaign ? `no campaign '${header.campaign}'` : 'no CAMPAIGN line and no campaign where this address plays';
  let checked = false;
  for (const c of campaigns) {
    const power = c.powers.find((p) => normalise(p.key) === want || normalise(p.name) === want);
    if (!power) { reason = `no power '${header.power}' in ${c.slug}`; continue; }
    // The GM may send a power's orders from the campaign's GM address with the GM token.
    if (c.gmEmail && power.playable && c.gmEmail.trim().toLowerCase() === from.trim().toLowerCase() && tokenMatches(password, c.gmTokenHash)) {
      return {
        ok: true,
        sender: { campaignId: c.id, campaignSlug: c.slug, campaignName: c.name, stateVersion: c.stateVersion, boardVersion: c.boardVersion, power: power.key, powerName: power.name, playerName: 'the GM', email: c.gmEmail },
        as: 'gm',
      };
    }
    // A stand-in for the absent player writes from their own address with their own password.
    for (const s of power.playable ? power.standIns : []) {
      checked = true;
      if (await passwordMatches(s, password)) {
        return {
          ok: true,
          sender: { campaignId: c.id, campaignSlug: c.slug, campaignName: c.name, stateVersion: c.stateVersion, boardVersion: c.boardVersion, power: power.key, powerName: power.name, playerName: s.email, email: s.email },
          as: 'standin',
        };
      }
    }
    const player = power.player;
    if (!player) { reason = `${power.key} has no player in ${c.slug}`; continue; }
    checked = true;
    // scrypt once per (player, stored hash, password): a player's next message is cheap,
    // and a changed password is a new hash, so the cache never outlives it (access.ts).
    const good = await passwordMatches(player, password);
    if (!good) { reason = `wrong password for ${power.key} in ${c.slug}`; continue; }
    if (player.email.trim().toLowerCase() !== from.trim().toLowerCase()) {
      reason = `right password for ${power.key} in ${c.slug}, but sent from ${from}, not the player's address`;
      continue;
    }
    return {
      ok: true,
      sender: { campaignId: c.id, campaignSlug: c.slug, campaignName: c.name, stateVersion: c.stateVersion, boardVersion: c.boardVersion, power: power.key, powerName: power.name, playerName: player.name, email: player.email },
      as: 'player',
    };
  }
  if (!checked) await burnPasswordCheck(password);
  return { ok: false, reason };
}

/**
 * The sender as the password check proved them when the message was stored (seal.ts): the
 * stored raw has its PASSWORD line masked, so the check cannot be made again.
 */
export async function senderFromAuth(db: Database, auth: { campaignId: string; power: string; as: SenderRole }, from: string): Promise<Identified> {
  const [c] = await candidates(db, undefined, from, { id: auth.campaignId, power: auth.power });
  const power = c?.powers[0];
  if (!c || !power) return { ok: false, reason: `the campaign or power the password proved (${auth.power}) is gone` };
  const base = { campaignId: c.id, campaignSlug: c.slug, campaignName: c.name, stateVersion: c.stateVersion, boardVersion: c.boardVersion, power: power.key, powerName: power.name };
  if (auth.as === 'gm') return { ok: true, sender: { ...base, playerName: 'the GM', email: c.gmEmail ?? from }, as: 'gm' };
  if (auth.as === 'standin') {
    const [s] = power.standIns;
    return s ? { ok: true, sender: { ...base, playerName: s.email, email: s.email }, as: 'standin' } : { ok: false, reason: `the stand-in for ${power.key} in ${c.slug} has ended` };
  }
  if (!power.player || power.player.email.trim().toLowerCase() !== from) {
    return { ok: false, reason: `${power.key} in ${c.slug} has had another player since the message came` };
  }
  return { ok: true, sender: { ...base, playerName: power.player.name, email: power.player.email }, as: 'player' };
}
