/** `npm run migrate`: apply pending migrations to DATABASE_URL (or the embedded database). */
import 'dotenv/config';
import { loadConfig } from '../config.js';
import { openConfigured } from './open.js';

const config = loadConfig();
const db = await openConfigured(config, (m) => console.log(m), { migrate: true });
console.log(`database is up to date (${db.kind}: ${db.location})`);
await db.close();
