/**
 * `npm install` (postinstall) makes the embedded database's template once, so that the first
 * `npm start` and every new test database skip PostgreSQL's initdb (src/db/embedded.ts).
 */
import { existsSync } from 'node:fs';
import { makeTemplate, templatePath } from './embedded.js';

if (!existsSync(templatePath())) {
  const t0 = performance.now();
  await makeTemplate();
  console.log(`made the embedded database's template in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${templatePath()}`);
}
