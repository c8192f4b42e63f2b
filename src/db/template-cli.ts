/**
 * `npm install` (postinstall) makes the embedded database's two templates once (initdb,
 * and initdb with every migration applied), so that the first `npm start` and every new
 * test database skip PostgreSQL's initdb and the migration history (src/db/embedded.ts).
 * It never fails the install: without a template, the first new database makes it.
 */
import { existsSync } from 'node:fs';
import { makeMigratedTemplate, makeTemplate, migratedTemplatePath, templatePath } from './embedded.js';

for (const [what, file, make] of [
  ['template', templatePath(), makeTemplate],
  ['migrated template', await migratedTemplatePath(), makeMigratedTemplate],
] as const) {
  try {
    if (!existsSync(file)) {
      const t0 = performance.now();
      await make();
      console.log(`made the embedded database's ${what} in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${file}`);
    }
  } catch (err) {
    console.warn(`could not make the embedded database's ${what} (the first start will): ${(err as Error).message}`);
  }
}
