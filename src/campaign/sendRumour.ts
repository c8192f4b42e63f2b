/**
 * The GM sends one power a rumour (docs/gazette.md, "Rumours"): only its text reaches that
 * player, at once by mail (queued in the outbox in the same transaction) and on their
 * Gazette page. Whether it is true, and what it was based on, the GM may note; the note is
 * kept in the audit entry (rumour.sent), read by the GM alone, and never in the Rumour row
 * that the player's reads come from.
 */
import type { Database } from '../db/client.js';
import { enqueueMail } from '../mail/enqueue.js';
import { compact } from '../rules/names.js';
import { campaignUrl } from '../words/ordersHelp.js';
import { MAX_RUMOUR_CHARS, RUMOUR_TRUTHS, rumourMail, type RumourTruth } from '../words/gazette.js';
import { refuseWhenOver } from './campaignOver.js';
import { RUMOUR, UseCaseError, notFound } from './errors.js';
import type { RumourView } from './rumours.js';

export interface RumourInput {
  /** The power's key or name. */
  power: string;
  text: string;
  /** For the audit only. */
  truth?: string | null;
  basis?: string | null;
}

const refuse = (code: string, path: string, message: string) => new UseCaseError('bad_request', code, `the rumour was not sent: ${message}`, [{ path, message }]);

export async function sendRumour(db: Database, campaignId: string, input: RumourInput, actor = 'gm', now = new Date()): Promise<RumourView> {
  const text = input.text.replace(/\s+$/, '').replace(/^(?:[ \t]*\r?\n)+/, '');
  if (text.trim() === '') throw refuse(RUMOUR.empty, 'text', 'it has no text');
  if (text.length > MAX_RUMOUR_CHARS) throw refuse(RUMOUR.tooLong, 'text', `it is ${text.length} characters long; at most ${MAX_RUMOUR_CHARS}`);
  const truth = input.truth ? input.truth : null;
  if (truth !== null && !(RUMOUR_TRUTHS as readonly string[]).includes(truth)) throw refuse(RUMOUR.badTruth, 'truth', `'${truth.slice(0, 20)}' is not a note of truth; write true, false or unknown`);
  const basis = input.basis?.trim() ? input.basis.trim() : null;
  if (basis && basis.length > MAX_RUMOUR_CHARS) throw refuse(RUMOUR.tooLong, 'basis', `what it was based on is ${basis.length} characters long; at most ${MAX_RUMOUR_CHARS}`);
  return db.prisma.$transaction(async (tx) => {
    await refuseWhenOver(tx, campaignId, 'rumours');
    const c = await tx.campaign.findUnique({
      where: { id: campaignId },
      select: { name: true, slug: true, currentTurn: true, powers: { select: { key: true, name: true, playable: true, player: { select: { email: true } } }, orderBy: { position: 'asc' } } },
    });
    if (!c) throw notFound('campaign');
    const w = compact(input.power);
    const p = c.powers.find((x) => compact(x.key) === w || compact(x.name) === w);
    if (!p) throw refuse(RUMOUR.unknownPower, 'power', `'${input.power.slice(0, 40)}' is not a power of this campaign; the powers are ${c.powers.map((x) => x.key).join(', ')}`);
    if (!p.playable || !p.player) throw refuse(RUMOUR.notPlayed, 'power', `${p.name} has no player to hear it`);
    const row = await tx.rumour.create({ data: { campaignId, turn: c.currentTurn, power: p.key, text, sentAt: now } });
    await tx.auditEntry.create({
      data: { campaignId, actor, action: 'rumour.sent', details: { rumour: row.id, power: p.key, turn: c.currentTurn, truth: truth as RumourTruth | null, basis } },
    });
    const m = rumourMail({ campaignName: c.name, turn: c.currentTurn, powerName: p.name, text, link: campaignUrl(process.env.PUBLIC_URL, c.slug, 'gazette') });
    await enqueueMail(tx, {
      campaignId, to: p.player.email, subject: m.subject, text: m.text,
      headers: { 'Auto-Submitted': 'auto-generated' }, dedupeKey: `rumour:${row.id}`,
    });
    return { id: row.id, turn: row.turn, power: row.power, text: row.text, sentAt: row.sentAt.toISOString(), truth, basis };
  });
}
