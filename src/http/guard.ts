/**
 * One guard for every route, API and pages alike: text no database or mail can carry is
 * refused at the edge with a 400 that names the field, before any handler runs. A NUL
 * (\u0000) is refused by PostgreSQL text columns, and half of a UTF-16 surrogate pair
 * (a "lone surrogate", e.g. "\ud800" in JSON) is not text at all; before this guard
 * both reached the database and came back as a 500.
 *
 * Every string is checked: path parameters, the query string and the parsed body (a
 * scenario's names and ids too), and object keys; and, once validated, every number (no
 * Infinity: nonFinite). Raw bodies (a mail to the inbound
 * webhook) are bytes and are read by the mail handler, which makes them readable itself.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UseCaseError, type Problem } from '../campaign/errors.js';
import { badCharacter } from '../orders/index.js';
import { INPUT } from './errors.js';

/** At most this many problems are listed (a body full of NULs needs only a few to be fixed). */
const MAX_PROBLEMS = 20;

function problemFor(path: string, text: string): Problem | undefined {
  const bad = badCharacter(text);
  if (!bad) return undefined;
  const where = text.includes('\n') ? ` on line ${bad.line}` : '';
  return { path, message: `holds ${bad.what}${where}; send plain text (UTF-8) without it` };
}

/**
 * Walks every string and number (and object key) in a parsed value, without recursion (a
 * deeply nested body cannot overflow the stack), collecting what `look` finds wrong.
 */
function walk(root: unknown, rootPath: string, look: (v: string | number, path: string) => Problem | undefined): Problem[] {
  const problems: Problem[] = [];
  const stack: [unknown, string][] = [[root, rootPath]];
  const add = (p: Problem | undefined) => { if (p) problems.push(p); };
  while (stack.length > 0 && problems.length < MAX_PROBLEMS) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string' || typeof v === 'number') {
      add(look(v, path));
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}.${i}`]);
    } else if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v)) {
      for (const [k, x] of Object.entries(v as Record<string, unknown>).reverse()) {
        add(look(k, `${path} (a field name)`));
        stack.push([x, `${path}.${k}`]);
      }
    }
  }
  return problems;
}

/** Every string in a parsed value that no database or mail can carry. */
export function badText(root: unknown, rootPath: string): Problem[] {
  return walk(root, rootPath, (v, path) => (typeof v === 'string' ? problemFor(path, v) : undefined));
}

const NOT_FINITE = 'must be a whole number written in digits (such as 3); Infinity, NaN and numbers too large to store are refused';

/**
 * Every number that is not finite. Ajv coerces a path, query or body string to a number
 * before checking it, and reads "Infinity", "-Infinity" and "1e400" as ±Infinity; its
 * integer, minimum and maximum checks then let the value through (they only look at finite
 * numbers), and the database refused it with a 500. JSON cannot carry Infinity or NaN, so
 * after validation a number that is not finite came from such a string.
 */
export function nonFinite(root: unknown, rootPath: string): Problem[] {
  return walk(root, rootPath, (v, path) => (typeof v === 'number' && !Number.isFinite(v) ? { path, message: NOT_FINITE } : undefined));
}

function check(req: FastifyRequest): Problem[] {
  return [...badText(req.params, 'params'), ...badText(req.query, 'querystring'), ...badText(req.body, 'body')];
}

function checkNumbers(req: FastifyRequest): Problem[] {
  return [...nonFinite(req.params, 'params'), ...nonFinite(req.query, 'querystring'), ...nonFinite(req.body, 'body')];
}

export function addInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (req) => {
    const problems = check(req);
    if (problems.length === 0) return;
    throw new UseCaseError('bad_request', INPUT.badCharacter, problems.map((p) => `${p.path} ${p.message}`).join('; '), problems);
  });
  // After validation: the numbers are what Ajv made of the strings (nonFinite).
  app.addHook('preHandler', async (req) => {
    const problems = checkNumbers(req);
    if (problems.length === 0) return;
    throw new UseCaseError('bad_request', INPUT.notANumber, problems.map((p) => `${p.path} ${p.message}`).join('; '), problems);
  });
}
