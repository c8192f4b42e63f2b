/**
 * `npm install` (postinstall) makes the embedded database's template once, so that the first
 * `npm start` and every new test database skip PostgreSQL's initdb (src/db/embedded.ts).
 * It never fails the install: without a template, the first new database makes it.
 */
import { existsSync } from 'node:fs';
import { makeTemplate, templatePath } from './embedded.js';

try {
  if (!existsSync(templatePath())) {
    const t0 = performance.now();
    await makeTemplate();
    console.log(`made the embedded database's template in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${templatePath()}`);
  }
} catch (err) {
  console.warn(`could not make the embedded database's template (the first start will): ${(err as Error).message}`);
}
