// The exports quote the rules word for word: every quote must be in the rules texts.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as quotes from '../../src/export/rulesText.js';
import { RULES_DIR } from './fixture.js';

const FILES: Record<string, string> = {
  CAMPAIGN_: 'steady-as-she-goes.txt',
  GNG_: 'galleys-and-galleons-house-rules.txt',
  COGS_: 'cogs-of-valor.txt',
};

const present = existsSync(`${RULES_DIR}/steady-as-she-goes.txt`);

describe.skipIf(!present)('rules quotes are verbatim', () => {
  for (const [name, value] of Object.entries(quotes)) {
    const prefix = Object.keys(FILES).find((p) => name.startsWith(p));
    it(`${name} is in ${prefix ? FILES[prefix] : '?'}`, () => {
      expect(prefix).toBeDefined();
      const text = readFileSync(`${RULES_DIR}/${FILES[prefix!]}`, 'utf8').replace(/\s+/g, ' ');
      const lines = typeof value === 'string' ? [value] : [...(value as readonly string[])];
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(text).toContain(line.replace(/\s+/g, ' '));
    });
  }
});
