/**
 * One error vocabulary: every error code ('orders/not_adjacent', 'auth/bad_token' ...) is
 * written once, in its layer's errors module (every errors.ts under src/), and used by name
 * everywhere else, so a code cannot be misspelt in one place or changed in only some of them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as rulesErrors from '../../src/rules/errors.js';
import * as ordersErrors from '../../src/orders/errors.js';
import * as campaignErrors from '../../src/campaign/errors.js';
import * as httpErrors from '../../src/http/errors.js';
import * as inboundErrors from '../../src/inbound/errors.js';

const ROOT = join(import.meta.dirname, '../..');
const CODE = /^[a-z_]+\/[a-z_]+$/;
/** The top-level media types (RFC 6838): 'text/plain', 'application/pdf' ... are not error codes. */
const MEDIA_TYPES = new Set(['application', 'audio', 'font', 'haptics', 'image', 'message', 'model', 'multipart', 'text', 'video']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'generated' ? [] : sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Every errors module of every layer, found rather than listed, so a new one is read too. */
const MODULES = sourceFiles(join(ROOT, 'src')).filter((f) => f.endsWith('/errors.ts')).map((f) => relative(ROOT, f)).sort();
const loaded = await Promise.all(MODULES.map(async (m) => (await import(pathToFileURL(join(ROOT, m)).href)) as Record<string, unknown>));

function codesOf(mod: Record<string, unknown>): string[] {
  return Object.values(mod).flatMap((v) => (typeof v === 'object' && v !== null && !Array.isArray(v)
    ? Object.values(v).filter((c): c is string => typeof c === 'string' && CODE.test(c))
    : []));
}

/** The code without its comments, which may quote a code to explain it. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/**
 * The code strings a source text writes out: any 'prefix/name' literal whose prefix is a
 * declared one, and any 'prefix/name' handed over as an error code (a UseCaseError's code,
 * `code:`, `error:`, `code ===`), so a code with a new prefix is caught too. Media types and
 * module specifiers ('typebox/value') are neither.
 */
function literalCodes(text: string, prefixes: ReadonlySet<string>): string[] {
  const body = code(text).replace(/^\s*import\b[^;]*;/gm, '');
  const found = new Set<string>();
  for (const m of body.matchAll(/['"`]([a-z_]+)\/([a-z_]+)['"`]/g)) {
    if (prefixes.has(m[1]!) && !MEDIA_TYPES.has(m[1]!)) found.add(m[0]);
  }
  const asCode = /(?:\bcode\s*(?:[!=]==?|:)|\berror\s*:|\bUseCaseError\(\s*['"`][a-z_]+['"`]\s*,)\s*(['"`]([a-z_]+)\/[a-z_]+['"`])/g;
  for (const m of body.matchAll(asCode)) {
    if (!MEDIA_TYPES.has(m[2]!)) found.add(m[1]!);
  }
  return [...found];
}

describe('error codes', () => {
  const declared = loaded.flatMap(codesOf);
  const prefixes = new Set(declared.map((c) => c.split('/')[0]!));

  it('each is declared with one name per layer, and the layers agree on it', () => {
    expect(declared.length).toBeGreaterThan(100);
    expect(declared).toContain('orders/not_adjacent');
    // A layer's object spreads the one below it, so a code is the same value wherever it is read.
    expect(ordersErrors.ORDERS.notAdjacent).toBe(rulesErrors.ORDERS.notAdjacent);
    expect(campaignErrors.ORDERS.notAdjacent).toBe(rulesErrors.ORDERS.notAdjacent);
    expect(httpErrors.AUTH.badToken).toBe(campaignErrors.AUTH.badToken);
    expect(inboundErrors.MAIL.notDone).toBe(campaignErrors.MAIL.notDone);
  });

  it('reads the errors module of every layer that has one', () => {
    expect(MODULES).toEqual(expect.arrayContaining([
      'src/campaign/errors.ts', 'src/export/errors.ts', 'src/http/errors.ts',
      'src/inbound/errors.ts', 'src/orders/errors.ts', 'src/rules/errors.ts',
    ]));
    expect([...prefixes].sort()).toEqual(expect.arrayContaining(['archive', 'auth', 'battle', 'convert', 'database', 'mail', 'orders', 'rate_limit', 'rollback', 'view']));
  });

  it('each code string is written once across all the errors modules', () => {
    const written = MODULES.flatMap((m) => [...code(readFileSync(join(ROOT, m), 'utf8')).matchAll(/['"`]([a-z_]+\/[a-z_]+)['"`]/g)].map((x) => x[1]!));
    const twice = written.filter((c, i) => written.indexOf(c) !== i);
    expect(twice, 'a layer adds to the code object below it by spreading it, not by writing its codes again').toEqual([]);
  });

  it('no code prefix is a media type, so media types can be told apart from codes', () => {
    expect([...prefixes].filter((p) => MEDIA_TYPES.has(p))).toEqual([]);
  });

  it('the check finds a written-out code and passes media types and module names', () => {
    const sample = [
      "import { Value } from 'typebox/value';",
      "import 'dotenv/config';",
      "// 'auth/missing' in a comment explains, it does not use",
      "reply.header('content-type', 'application/pdf'); const t = 'text/plain';",
      "throw new UseCaseError('unauthorized', 'auth/missing', 'send a token');",
      "reply.send({ error: 'brand_new/code', message: '' });",
      "if (err.code === 'another/new') return;",
    ].join('\n');
    expect(literalCodes(sample, prefixes).sort()).toEqual(["'another/new'", "'auth/missing'", "'brand_new/code'"]);
  });

  it('no code string is written outside the errors modules', () => {
    const found: string[] = [];
    for (const file of sourceFiles(join(ROOT, 'src'))) {
      const rel = relative(ROOT, file);
      if (MODULES.includes(rel)) continue;
      for (const literal of literalCodes(readFileSync(file, 'utf8'), prefixes)) found.push(`${rel}: ${literal}`);
    }
    expect(found, 'use the name from the layer\'s errors module (src/*/errors.ts) instead').toEqual([]);
  });
});
