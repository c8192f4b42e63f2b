/**
 * `npm start`: the service. Embedded PostgreSQL under DATA_DIR unless DATABASE_URL is
 * set; a demo campaign on first start; the GM's link and every secret printed.
 * The web server's packages (src/serve.ts) load while the database opens (docs/startup.md).
 */
import 'dotenv/config';
import { launch } from './launch.js';

launch();
