// The files CI runs on one database only (DATABASE_FREE_* in vitest.config.ts) must open
// none: none may import a database, the service or a use case, call a helper that opens one,
// or read DATABASE_URL. A file that starts to need a database fails here, and leaves the list
// so that it runs on both.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BROWSER_ONCE, DATABASE_FREE_DIRS, DATABASE_FREE_FILES } from '../../vitest.config.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Modules that open or need a database (an errors module of theirs is only constants). */
const OPENS_A_DATABASE = [
  /\/src\/(db|generated|campaign|http)\//, /\/src\/main\.js$/, /\/support\/(db|service|browserCampaign|battleCampaign)\.js$/,
  /^pg$/, /^@electric-sql\/pglite/, /^@prisma\//,
];
/** Test helpers that open a database or start the service, wherever they are imported from. */
const HELPERS = ['testDatabase', 'freshTarget', 'openDatabase', 'openPGlite', 'buildApp', 'startService', 'freshServiceEnv', 'serviceFixture', 'campaignWithBattle', 'browserCampaign'];

function testFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    return e.isDirectory() ? testFiles(rel) : e.name.endsWith('.test.ts') ? [rel] : [];
  });
}

/** What in `file` could open a database, in words; empty when nothing can. */
function databaseUse(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/import\s+(type\s+)?([\s\S]*?)\s*from\s*'([^']+)'|import\(\s*'([^']+)'\s*\)/g)) {
    if (m[1]) continue; // a type is no database
    const spec = m[3] ?? m[4]!;
    if (!spec.endsWith('/errors.js') && OPENS_A_DATABASE.some((re) => re.test(spec))) out.push(`${file} imports ${spec}`);
    for (const name of HELPERS) if (new RegExp(`\\b${name}\\b`).test(m[2] ?? '')) out.push(`${file} imports ${name}`);
  }
  if (file !== 'test/architecture/databaseFree.test.ts' && text.includes('DATABASE_URL')) out.push(`${file} reads DATABASE_URL`);
  return out;
}

describe('the tests CI runs on one database only', () => {
  const files = [...DATABASE_FREE_DIRS.flatMap((d) => testFiles(`test/${d}`)), ...DATABASE_FREE_FILES];

  it('are many, and each exists', () => {
    expect(files.length).toBeGreaterThan(40);
    for (const f of [...DATABASE_FREE_FILES, ...BROWSER_ONCE]) expect(existsSync(path.join(ROOT, f)), f).toBe(true);
  });

  it('import no database, service or use case, and do not read DATABASE_URL', () => {
    expect(files.flatMap(databaseUse)).toEqual([]);
  });

  it('the check finds a file that opens a database', () => {
    expect(databaseUse('test/http/api.test.ts').length).toBeGreaterThan(0);
    expect(databaseUse('test/db/embedded.test.ts').length).toBeGreaterThan(0);
  });
});
