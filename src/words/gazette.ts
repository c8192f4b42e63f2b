/**
 * The Gazette and rumours in words (docs/gazette.md): the issue drawn as HTML for the pages
 * and the report mail, the one-click news sentences, and the mail a rumour goes in.
 *
 * The GM writes Markdown or plain text. Either way the text is the GM's, shown to every
 * player and to the public, so it is drawn safely: markdown-it with raw HTML off (a `<b>`
 * written in the text is shown as written), no images (a remote image in a report mail is a
 * tracker), links only to http(s) and mailto, opened without the page's referrer.
 */
import MarkdownIt from 'markdown-it';
import { listOfPowers, powerInSentence } from './despatches.js';

export type GazetteFormat = 'markdown' | 'plain';
export const GAZETTE_FORMATS: readonly GazetteFormat[] = ['markdown', 'plain'];
export const MAX_GAZETTE_CHARS = 20_000;
export const MAX_RUMOUR_CHARS = 2_000;

const md = new MarkdownIt('default', { html: false, linkify: false, typographer: false, breaks: true });
md.disable(['image']);
md.validateLink = (url: string) => /^(https?:|mailto:)/i.test(url.trim());
const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx]!.attrSet('rel', 'nofollow noopener noreferrer');
  return defaultLinkOpen(tokens, idx, options, env, self);
};

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** The issue as HTML, safe to put in a page or a mail as it is (every character of the GM's text escaped or drawn by markdown-it). */
export function gazetteHtml(text: string, format: string): string {
  if (format === 'plain') {
    return text.split(/\r?\n(?:[ \t]*\r?\n)+/).map((p) => p.trim()).filter(Boolean)
      .map((p) => `<p>${escapeHtml(p).replace(/\r?\n/g, '<br>\n')}</p>`).join('\n');
  }
  return md.render(text);
}

/** The issue's heading: "The Gazette — turn 3, March 1805". */
export function gazetteTitle(turn: number, date?: string | null): string {
  return `The Gazette — turn ${turn}${date ? `, ${date}` : ''}`;
}

/** A piece of public news the GM may put in the Gazette with one click. */
export interface GazetteNews {
  /** Stable for the turn: what the click names. */
  key: string;
  text: string;
}

const RELATION_WORDS: Record<string, string> = { war: 'at war', neutral: 'at peace', allied: 'allied' };

/** A relation change, as every player was mailed it. */
export function relationNews(a: string, b: string, relation: string, fromTurn: number): string {
  const head = powerInSentence(a);
  return `${head.charAt(0).toUpperCase()}${head.slice(1)} and ${powerInSentence(b)} are ${RELATION_WORDS[relation] ?? relation} from turn ${fromTurn}.`;
}

/** A port that changed hands, as every power's report said it. */
export function portNews(port: string, captor: string, from: string | null, turn: number): string {
  const c = powerInSentence(captor);
  return `${port} has fallen to ${c}${from ? `, taken from ${powerInSentence(from)}` : ''} (turn ${turn}).`;
}

export function victoryNews(winner: string): string {
  const w = powerInSentence(winner);
  return `${w.charAt(0).toUpperCase()}${w.slice(1)} has won the campaign.`;
}

/** A paragraph appended to the issue's text (a blank line between paragraphs). */
export function withNews(text: string, news: readonly string[]): string {
  const body = text.replace(/\s+$/, '');
  const add = news.filter((n) => !body.includes(n));
  if (add.length === 0) return body;
  return [body, ...add].filter(Boolean).join('\n\n');
}

export const RUMOUR_TRUTHS = ['true', 'false', 'unknown'] as const;
export type RumourTruth = (typeof RUMOUR_TRUTHS)[number];

export function truthWords(t: string | null | undefined): string {
  switch (t) {
    case 'true': return 'true';
    case 'false': return 'false';
    case 'unknown': return 'neither true nor false';
    default: return 'not said';
  }
}

/** The mail a rumour goes in: its text and nothing else of what the GM knows. */
export function rumourMail(i: { campaignName: string; turn: number; powerName: string; text: string; link: string | null }): { subject: string; text: string } {
  return {
    subject: `[${i.campaignName}] A rumour reaches ${powerInSentence(i.powerName)}`,
    text: `A rumour heard in port in turn ${i.turn}, for ${powerInSentence(i.powerName)} alone:\n\n${i.text}\n\n`
      + `It came to you from the Game Master; whether there is anything in it is for you to judge.${i.link ? `\nYour rumours: ${i.link}` : ''}\n`,
  };
}

export { listOfPowers };
