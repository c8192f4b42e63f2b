/**
 * The Gazette and rumours over the API (docs/gazette.md). Anyone reads the published issues;
 * the GM reads and writes the open turn's draft, puts in the turn's public news, publishes,
 * and sends a power a rumour; a player reads the rumours sent to their power (the text only:
 * the GM's note of truth is in the GM's list alone). Thin: every check and cut is the use case's.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { notFound } from '../../campaign/errors.js';
import { gmIssueOf, publishedIssues } from '../../campaign/gazette.js';
import { gazetteNews } from '../../campaign/gazetteNews.js';
import { publishGazette } from '../../campaign/publishGazette.js';
import { readRumours } from '../../campaign/rumours.js';
import { sendRumour } from '../../campaign/sendRumour.js';
import { addGazetteNews, writeGazette } from '../../campaign/writeGazette.js';
import { MAX_GAZETTE_CHARS, MAX_RUMOUR_CHARS } from '../../words/gazette.js';
import { callerOf, gmOf } from '../auth.js';
import { actorOf } from '../../campaign/access.js';
import { CampaignParams, PowerKey, errors } from '../schemas.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Format = Type.Union([Type.Literal('markdown'), Type.Literal('plain')]);

const Issue = Type.Object({
  turn: Type.Integer({ description: 'the turn it belongs to: it heads that turn\'s reports' }),
  text: Type.String({ description: 'as the GM wrote it' }),
  format: Format,
  html: Type.String({ description: 'the text drawn as safe HTML (raw HTML in the text is escaped; no images; links to http(s) and mailto only)' }),
  updatedAt: Type.String({ format: 'date-time' }),
  publishedAt: Nullable(Type.String({ format: 'date-time', description: 'null: a draft, read by the GM alone' })),
});

const News = Type.Object({ key: Type.String(), text: Type.String() });

const Desk = Type.Object({
  turn: Type.Integer({ description: 'the open turn, whose issue this is' }),
  issue: Nullable(Issue),
  news: Type.Array(News, { description: 'public news since the last resolve, to put in with one click' }),
});

const DraftBody = Type.Object({
  text: Type.String({ maxLength: MAX_GAZETTE_CHARS * 2, description: `the issue, at most ${MAX_GAZETTE_CHARS} characters; an empty text throws the draft away` }),
  format: Type.Optional(Format),
}, { additionalProperties: false });

const NewsBody = Type.Object({
  keys: Type.Union([Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 100 }), Type.Literal('all')], { description: 'keys from the desk\'s news, or all' }),
}, { additionalProperties: false });

const Rumour = Type.Object({
  id: Type.String(),
  turn: Type.Integer({ description: 'the turn open when it was sent' }),
  power: Type.String({ description: 'the power it was sent to' }),
  text: Type.String(),
  sentAt: Type.String({ format: 'date-time' }),
  truth: Type.Optional(Nullable(Type.String({ description: 'GM only: true, false or unknown, as the GM noted it in the audit' }))),
  basis: Type.Optional(Nullable(Type.String({ description: 'GM only: what it was based on' }))),
});

const RumourBody = Type.Object({
  power: PowerKey('the power it goes to (key or name)'),
  text: Type.String({ maxLength: MAX_RUMOUR_CHARS * 2, description: `the rumour, at most ${MAX_RUMOUR_CHARS} characters: the only thing the player is sent` }),
  truth: Type.Optional(Nullable(Type.Union([Type.Literal('true'), Type.Literal('false'), Type.Literal('unknown')], { description: 'kept in the audit only' }))),
  basis: Type.Optional(Nullable(Type.String({ maxLength: MAX_RUMOUR_CHARS, description: 'what it was based on; kept in the audit only' }))),
}, { additionalProperties: false });

const tags = ['gazette'];

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get('/campaigns/:id/gazette', {
    schema: {
      tags, summary: 'The published Gazette issues, newest first (anyone: the Gazette is public)', security: [],
      params: CampaignParams, response: { 200: Type.Object({ issues: Type.Array(Issue) }), ...errors },
    },
  }, async (req) => {
    const pub = await publishedIssues(db, req.params.id);
    if (!pub || pub.campaign.id !== req.params.id) throw notFound('campaign');
    return { issues: pub.issues };
  });

  app.get('/campaigns/:id/gazette/draft', {
    schema: { tags, summary: 'GM: the open turn\'s issue (draft or published) and the news to put in it', params: CampaignParams, response: { 200: Desk, ...errors } },
  }, async (req) => {
    await gmOf(db, req, req.params.id);
    const [{ turn, issue }, news] = await Promise.all([gmIssueOf(db, req.params.id), gazetteNews(db, req.params.id)]);
    return { turn, issue, news };
  });

  app.put('/campaigns/:id/gazette/draft', {
    schema: {
      tags, summary: 'GM: write the open turn\'s issue (kept as a draft until published; an empty text throws it away). Audited',
      description: 'Refused with 409 once the issue is published (it is never changed after), 400 for a text over the limit or an unknown format.',
      params: CampaignParams, body: DraftBody, response: { 200: Type.Object({ turn: Type.Integer(), issue: Nullable(Issue) }), 409: errors[400], ...errors },
    },
  }, async (req) => {
    const gm = await gmOf(db, req, req.params.id);
    return writeGazette(db, req.params.id, req.body, actorOf(gm));
  });

  app.post('/campaigns/:id/gazette/draft/news', {
    schema: {
      tags, summary: 'GM: put news in the draft with one click: the items named by key (or all), each as a paragraph at the end',
      params: CampaignParams, body: NewsBody, response: { 200: Type.Object({ turn: Type.Integer(), issue: Nullable(Issue), added: Type.Integer() }), 409: errors[400], ...errors },
    },
  }, async (req) => {
    const gm = await gmOf(db, req, req.params.id);
    // The validator may hand a lone 'all' over as a list of it (types are coerced to arrays).
    const keys = req.body.keys === 'all' || (req.body.keys.length === 1 && req.body.keys[0] === 'all') ? 'all' : req.body.keys;
    return addGazetteNews(db, req.params.id, keys, actorOf(gm));
  });

  app.post('/campaigns/:id/gazette/publish', {
    schema: {
      tags, summary: 'GM: publish the open turn\'s issue now (otherwise it goes out with the turn\'s reports at the resolve); the campaign\'s webhooks hear it',
      params: CampaignParams, response: { 200: Issue, 409: errors[400], ...errors },
    },
  }, async (req) => {
    const gm = await gmOf(db, req, req.params.id);
    return publishGazette(db, req.params.id, actorOf(gm));
  });

  app.get('/campaigns/:id/rumours', {
    schema: {
      tags, summary: 'Rumours: a player\'s, those sent to their power (the text only); the GM\'s, every one with the note of truth and its basis',
      params: CampaignParams, response: { 200: Type.Object({ rumours: Type.Array(Rumour) }), ...errors },
    },
  }, async (req) => {
    const caller = await callerOf(db, req, req.params.id);
    const reader = caller.role === 'gm' ? { role: 'gm' as const } : { role: 'player' as const, power: caller.power };
    return { rumours: await readRumours(db, req.params.id, reader) };
  });

  app.post('/campaigns/:id/rumours', {
    schema: {
      tags, summary: 'GM: send one power a rumour: only its text is mailed to that player, at once; truth and basis go to the audit only',
      params: CampaignParams, body: RumourBody, response: { 201: Rumour, 409: errors[400], ...errors },
    },
  }, async (req, reply) => {
    const gm = await gmOf(db, req, req.params.id);
    const r = await sendRumour(db, req.params.id, req.body, actorOf(gm));
    return reply.status(201).send(r);
  });
};

export default routes;
