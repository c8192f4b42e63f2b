/**
 * The pages' small hand-written CSS and JavaScript (public/*.css, public/*.js), served
 * from /assets/<file>. No bundler; only plain file names from that one folder.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync } from 'fastify';

export const PUBLIC_DIR = fileURLToPath(new URL('../../../public/', import.meta.url));

const TYPES: Record<string, string> = { css: 'text/css; charset=utf-8', js: 'text/javascript; charset=utf-8' };

const routes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { file: string } }>('/assets/:file', async (req, reply) => {
    const m = /^([a-z0-9][a-z0-9-]*)\.(css|js)$/.exec(req.params.file);
    const body = m ? await readFile(`${PUBLIC_DIR}${req.params.file}`, 'utf8').catch(() => null) : null;
    if (!m || body === null) return reply.status(404).type('text/plain; charset=utf-8').send('not found');
    return reply
      .header('content-type', TYPES[m[2]!]!)
      .header('cache-control', 'public, max-age=300')
      .header('x-content-type-options', 'nosniff')
      .send(body);
  });
};

export default routes;
