/**
 * One guard for every route, API and pages alike: text no database or mail can carry is
 * refused at the edge with a 400 that names the field, before any handler runs. A NUL
 * (\u0000) is refused by PostgreSQL text columns, and half of a UTF-16 surrogate pair
 * (a "lone surrogate", e.g. "\ud800" in JSON) is not text at all; before this guard
 * both reached the database and came back as a 500.
 *
 * Every string is checked: path parameters, the query string and the parsed body (a
 * scenario's names and ids too), and object keys. Raw bodies (a mail to the inbound
 * webhook) are bytes and are read by the mail handler, which makes them readable itself.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UseCaseError, type Problem } from '../campaign/errors.js';
import { badCharacter } from '../orders/index.js';

/** At most this many problems are listed (a body full of NULs needs only a few to be fixed). */
const MAX_PROBLEMS = 20;

function problemFor(path: string, text: string): Problem | undefined {
  const bad = badCharacter(text);
  if (!bad) return undefined;
  const where = text.includes('\n') ? ` on line ${bad.line}` : '';
  return { path, message: `holds ${bad.what}${where}; send plain text (UTF-8) without it` };
}

/** Every string in a parsed value, walked without recursion (a deeply nested body cannot overflow the stack). */
export function badText(root: unknown, rootPath: string): Problem[] {
  const problems: Problem[] = [];
  const stack: [unknown, string][] = [[root, rootPath]];
  while (stack.length > 0 && problems.length < MAX_PROBLEMS) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      const p = problemFor(path, v);
      if (p) problems.push(p);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}.${i}`]);
    } else if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v)) {
      for (const [k, x] of Object.entries(v as Record<string, unknown>).reverse()) {
        const p = problemFor(`${path} (a field name)`, k);
        if (p) problems.push(p);
        stack.push([x, `${path}.${k}`]);
      }
    }
  }
  return problems;
}

function check(req: FastifyRequest): Problem[] {
  return [...badText(req.params, 'params'), ...badText(req.query, 'querystring'), ...badText(req.body, 'body')];
}

export function addInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (req) => {
    const problems = check(req);
    if (problems.length === 0) return;
    throw new UseCaseError('bad_request', 'input/bad_character', problems.map((p) => `${p.path} ${p.message}`).join('; '), problems);
  });
}
