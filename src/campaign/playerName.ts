/**
 * What a player's name may be: it is written into the welcome mail the service sends to an
 * address the GM chose, so it must not carry an advertisement or a link to a stranger's
 * inbox. Text of at most 60 characters, on one line, without a web address (a scheme such
 * as https:, "www." or a host name such as example.com) or a mail address. Each refusal is a
 * 400 that says what to change. The address is one line too.
 */
import { notOneLine } from '../rules/oneLine.js';
import { PLAYER, UseCaseError } from './errors.js';

export const MAX_PLAYER_NAME = 60;

/** A scheme (https://, mailto:), www., a mail address, or a dotted host name ending in a word of letters (example.com, t.co). */
const LINK = /\b[a-z][a-z0-9+.-]*:\/\/|\bwww\.|\bmailto:|@|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\b/i;

/** The address, trimmed, or a 400 when it holds a control character (the pages' forms check less than the API's schema). */
export function checkPlayerEmail(raw: string): string {
  const email = raw.trim();
  const control = notOneLine(email);
  if (control) throw new UseCaseError('bad_request', PLAYER.emailControl, `the player's email address ${control}`);
  return email;
}

/** The name, trimmed, or a 400 saying what to fix. */
export function checkPlayerName(raw: string): string {
  const name = raw.trim();
  const bad = (code: string, message: string) => new UseCaseError('bad_request', `player/${code}`, message);
  if (name === '') throw bad('name_missing', 'the player needs a name: the welcome mail greets them by it');
  const control = notOneLine(name);
  if (control) throw bad('name_control', `the player's name ${control}`);
  if (name.length > MAX_PLAYER_NAME) throw bad('name_too_long', `the player's name is ${name.length} characters; write at most ${MAX_PLAYER_NAME}`);
  const link = LINK.exec(name);
  if (link) throw bad('name_link', `the player's name may not hold a web or mail address ('${link[0]}'); write the person's name only`);
  return name;
}
