/**
 * Helpers for battle tests: a campaign whose first turn makes a battle (through the API),
 * the named fields of a form page, and a PDF's text page by page (pdfjs).
 */
import type { App } from '../../src/http/app.js';
import { campaignWithBattle as battleCampaign } from './battleCampaign.js';

/** British and French squadrons at sea in one node, both ENGAGE (a battle is certain); pending battles allowed; players invited. */
export function campaignWithBattle(app: App, seed: string) {
  return battleCampaign(app, seed, { allowPendingBattles: true });
}

/** Every named field of a form page with its value (inputs, selected options). */
export function formFields(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<input\b([^>]*)>/g)) {
    const name = /name="([^"]+)"/.exec(m[1]!)?.[1];
    if (!name || /type="checkbox"/.test(m[1]!)) continue;
    out[name] = /value="([^"]*)"/.exec(m[1]!)?.[1] ?? '';
  }
  for (const m of html.matchAll(/<select name="([^"]+)"[^>]*>([\s\S]*?)<\/select>/g)) {
    out[m[1]!] = /<option value="([^"]*)" selected>/.exec(m[2]!)?.[1] ?? /<option value="([^"]*)"/.exec(m[2]!)?.[1] ?? '';
  }
  return out;
}

/** A PDF's text, one string a page (the one reader: test/export/readBack.ts). */
export { pdfPages } from '../export/readBack.js';
