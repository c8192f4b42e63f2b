/**
 * Backups: the GM downloads a whole-campaign archive; an archive is restored into this
 * service, as a new campaign (what creating one needs) or over the same campaign
 * (?replace=true and its GM token). docs/backups.md.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { checkArchive, parseArchive } from '../../campaign/archive/checkArchive.js';
import { archiveFileName, exportCampaign, gzipArchive } from '../../campaign/archive/exportArchive.js';
import { CampaignArchiveSchema } from '../../campaign/archive/format.js';
import { restoreCampaign } from '../../campaign/archive/restoreArchive.js';
import { UseCaseError } from '../../campaign/errors.js';
import { appliedMigrations } from '../../campaign/read/appliedMigrations.js';
import { gmOf } from '../auth.js';
import { requireCreateRight } from '../createToken.js';
import { CampaignParams, ErrorReply, errors } from '../schemas.js';

/** Largest upload (a gzip archive is about a tenth of its JSON). */
export const RESTORE_BODY_LIMIT = 64 * 1024 * 1024;

const Restored = Type.Object({
  id: Type.String(), slug: Type.String(), name: Type.String(), turn: Type.Integer(),
  replaced: Type.Boolean({ description: 'true when a campaign with this id was replaced' }),
  rows: Type.Record(Type.String(), Type.Integer(), { description: 'rows written per table' }),
  inboundSetAside: Type.Integer({ description: 'received mails not yet read in the archive: restored as ignored, never read nor answered' }),
  mailCancelled: Type.Integer({ description: 'mails that were queued (or being sent) in the archive: restored as cancelled, never sent; the GM may send each again to the campaign\'s players and GM' }),
});

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config } = app.deps;
  // The restore body is read whole as bytes (gzip or JSON) and checked by checkArchive,
  // which names what is wrong; these parsers only apply to the routes of this file.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: RESTORE_BODY_LIMIT }, (_req, body, done) => done(null, body));
  app.addSchema(CampaignArchiveSchema);

  app.get('/campaigns/:id/archive', {
    schema: {
      tags: ['backups'], summary: 'Download the whole campaign as an archive (GM)',
      description: 'Every row of the campaign in every table: players (with their password hashes), turns, orders, events, battles, VP, missions, mails, audit. gzip-compressed JSON unless ?format=json. Keep it private.',
      params: CampaignParams,
      querystring: Type.Object({ format: Type.Optional(Type.Union([Type.Literal('gzip'), Type.Literal('json')], { default: 'gzip' })) }),
      response: {
        200: { description: 'the archive file', content: { 'application/gzip': { schema: { type: 'string', format: 'binary' } }, 'application/json': { schema: { $ref: 'CampaignArchive#' } } } },
        ...errors,
      },
    },
  }, async (req, reply) => {
    await gmOf(db, req, req.params.id);
    const archive = await exportCampaign(db, req.params.id);
    const name = archiveFileName(archive.campaign.slug, null);
    reply.header('cache-control', 'no-store');
    if (req.query.format === 'json') {
      return reply.header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name.replace(/\.gz$/, '')}"`)
        .send(JSON.stringify(archive));
    }
    return reply.header('content-type', 'application/gzip')
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(await gzipArchive(archive));
  });

  app.post('/campaigns/restore', {
    bodyLimit: RESTORE_BODY_LIMIT,
    // The body is bytes here; checkArchive validates it against CampaignArchive.
    validatorCompiler: () => (value: unknown) => ({ value }),
    schema: {
      tags: ['backups'], summary: 'Restore a campaign archive',
      description: 'The body is the file from GET /api/campaigns/:id/archive, gzip-compressed or plain JSON (64 MB at most). '
        + 'A campaign not on this service is created with all its ids (needs what creating a campaign needs: the CREATE_TOKEN when set). '
        + 'A campaign already here is refused (409) unless ?replace=true with its GM token: then it is replaced. One transaction: a bad archive writes nothing.',
      querystring: Type.Object({ replace: Type.Optional(Type.Boolean({ default: false, description: 'replace the campaign if it is here already' })) }),
      body: { content: { 'application/gzip': { schema: { type: 'string', format: 'binary' } }, 'application/json': { schema: { $ref: 'CampaignArchive#' } } } },
      response: { 201: Restored, 200: Restored, ...errors, 409: ErrorReply, 413: ErrorReply },
    },
  }, async (req, reply) => {
    const replace = parseReplace((req.query as Record<string, unknown>).replace);
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const archive = await checkArchive(parseArchive(body), await appliedMigrations(db));
    const done = await restoreCampaign(db, archive, {
      replace,
      authorize: async (existing) => { if (existing) await gmOf(db, req, archive.campaign.id, 'restore'); else await requireCreateRight(req, config); },
    });
    req.log.info({ campaign: done.id, replaced: done.replaced }, 'campaign restored from an archive');
    return reply.status(done.replaced ? 200 : 201).send(done);
  });
};

/** The querystring is not validated by Fastify on the restore route (see validatorCompiler). */
function parseReplace(v: unknown): boolean {
  if (v === undefined || v === '' || v === 'false' || v === '0') return false;
  if (v === 'true' || v === '1') return true;
  throw new UseCaseError('bad_request', 'bad_request', 'querystring.replace must be true or false');
}

export default routes;
