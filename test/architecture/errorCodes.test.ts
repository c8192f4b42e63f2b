/**
 * One error vocabulary: every error code ('orders/not_adjacent', 'battle/unknown_ship' ...)
 * is written once, in its layer's errors module, and used by name everywhere else, so a code
 * cannot be misspelt in one place or changed in only some of them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as rulesErrors from '../../src/rules/errors.js';
import * as ordersErrors from '../../src/orders/errors.js';
import * as exportErrors from '../../src/export/errors.js';
import * as campaignErrors from '../../src/campaign/errors.js';

const MODULES = ['src/rules/errors.ts', 'src/orders/errors.ts', 'src/export/errors.ts', 'src/campaign/errors.ts'];

function codesOf(mod: Record<string, unknown>): string[] {
  return Object.values(mod).flatMap((v) => (typeof v === 'object' && v !== null && !Array.isArray(v)
    ? Object.values(v).filter((c): c is string => typeof c === 'string' && /^[a-z_]+\/[a-z_]+$/.test(c))
    : []));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'generated' ? [] : sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** The code without its comments, which may quote a code to explain it. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

describe('error codes', () => {
  const declared = [rulesErrors, ordersErrors, exportErrors, campaignErrors].flatMap((m) => codesOf(m as Record<string, unknown>));
  const prefixes = new Set(declared.map((c) => c.split('/')[0]!));

  it('each is declared with one name per layer, and the layers agree on it', () => {
    expect(declared.length).toBeGreaterThan(100);
    expect(declared).toContain('orders/not_adjacent');
    // A layer's object spreads the one below it, so a code is the same value wherever it is read.
    expect(ordersErrors.ORDERS.notAdjacent).toBe(rulesErrors.ORDERS.notAdjacent);
    expect(campaignErrors.ORDERS.notAdjacent).toBe(rulesErrors.ORDERS.notAdjacent);
  });

  it('no code string is written outside the errors modules', () => {
    const root = join(import.meta.dirname, '../..');
    const found: string[] = [];
    for (const file of sourceFiles(join(root, 'src'))) {
      const rel = relative(root, file);
      if (MODULES.includes(rel)) continue;
      for (const m of code(readFileSync(file, 'utf8')).matchAll(/['"`]([a-z_]+)\/([a-z_]+)['"`]/g)) {
        if (prefixes.has(m[1]!)) found.push(`${rel}: ${m[0]}`);
      }
    }
    expect(found, 'use the name from the layer\'s errors module (src/*/errors.ts) instead').toEqual([]);
  });
});
