/**
 * The GM adds an assistant GM (docs/gm-guide.md): an email address, a role (`umpire`: battles
 * only; `deputy`: everything but the campaign's settings and its GMs) and a token of their own,
 * answered this once and kept only as its SHA-256. Audited under the GM.
 */
import { randomBytes } from 'node:crypto';
import type { Database } from '../db/client.js';
import type { AssistantRole } from './access.js';
import { ASSISTANT, UseCaseError, notFound } from './errors.js';
import { checkPlayerEmail } from './playerName.js';
import { sha256 } from './secrets.js';

export const ASSISTANT_ROLES: readonly AssistantRole[] = ['umpire', 'deputy'];

export interface AssistantAdded { id: string; email: string; role: AssistantRole; token: string }

export async function addAssistant(db: Database, campaignId: string, input: { email: string; role: string }, actor = 'gm'): Promise<AssistantAdded> {
  const email = checkPlayerEmail(input.email).toLowerCase();
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new UseCaseError('bad_request', ASSISTANT.badEmail, 'the assistant\'s email address must be written like name@example.org', [{ path: 'email', message: 'an address like name@example.org' }]);
  const role = input.role as AssistantRole;
  if (!ASSISTANT_ROLES.includes(role)) {
    throw new UseCaseError('bad_request', ASSISTANT.badRole, 'role must be umpire (battles only) or deputy (everything but the campaign\'s settings and its GMs)', [{ path: 'role', message: 'umpire or deputy' }]);
  }
  const token = `asst_${randomBytes(24).toString('base64url')}`;
  return db.prisma.$transaction(async (tx) => {
    const c = await tx.campaign.findUnique({ where: { id: campaignId }, select: { id: true } });
    if (!c) throw notFound('campaign');
    const taken = await tx.assistantGm.findUnique({ where: { campaignId_email: { campaignId, email } }, select: { id: true } });
    if (taken) throw new UseCaseError('conflict', ASSISTANT.exists, `${email} is an assistant GM of this campaign already: remove them first to give a new token or role`);
    const made = await tx.assistantGm.create({ data: { campaignId, email, role, tokenHash: sha256(token) } });
    await tx.auditEntry.create({ data: { campaignId, actor, action: 'assistant.added', details: { email, role } } });
    return { id: made.id, email, role, token };
  });
}
