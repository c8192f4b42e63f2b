/**
 * Mail written by a machine (auto-replies, out-of-office notes, bounces, read receipts,
 * list traffic) is stored and never answered, so two robots cannot talk to each other
 * for ever (RFC 3834). Read from the raw header block, so it works even on a message
 * too broken to parse.
 */
import { addressOf, firstHeader } from './headers.js';

/** Why the message is automatic, or null when a person wrote it. */
export function automatedReason(headers: Map<string, string[]>): string | null {
  const autoSubmitted = firstHeader(headers, 'auto-submitted');
  if (autoSubmitted !== undefined) {
    const v = autoSubmitted.split(';')[0]!.trim().toLowerCase();
    if (v !== 'no') return `Auto-Submitted: ${v || '(empty)'}`;
  }
  const precedence = firstHeader(headers, 'precedence')?.trim().toLowerCase();
  if (precedence && /^(bulk|junk|list|auto_reply)$/.test(precedence)) return `Precedence: ${precedence}`;
  for (const h of ['x-autoreply', 'x-autorespond', 'x-auto-response-suppress', 'x-autoreply-from', 'x-mail-autoreply']) {
    if (headers.has(h)) return `${h} header`;
  }
  if (headers.has('list-id')) return 'mailing list (List-Id)';
  const returnPath = headers.get('return-path');
  if (returnPath?.some((v) => /^<\s*>$/.test(v.trim()))) return 'empty Return-Path <> (a bounce)';
  const from = addressOf(firstHeader(headers, 'from'));
  const local = from?.split('@')[0] ?? '';
  if (/^(mailer-daemon|postmaster|mail-daemon|noreply|no-reply|do-not-reply|donotreply)$/.test(local)) return `From ${from}`;
  const contentType = firstHeader(headers, 'content-type')?.toLowerCase() ?? '';
  if (/^multipart\/report\b/.test(contentType)) return 'multipart/report (a delivery or read report)';
  return null;
}
