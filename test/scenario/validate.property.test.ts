import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { validateScenario } from '../../src/scenario/validate.js';
import { loadBuiltinScenario } from '../../src/scenario/load.js';
import { smallScenario, setPath } from './fixture.js';

/** Every path to a leaf value of a JSON object, in the validator's syntax (`nodes[0].rating.crew`). */
function leafPaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leafPaths(v, `${prefix}[${i}]`));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([k, v]) => leafPaths(v, prefix === '' ? k : `${prefix}.${k}`));
  }
  return [prefix];
}

const SMALL_PATHS = leafPaths(smallScenario());

describe('validateScenario properties', () => {
  it('never throws, whatever it is given', () => {
    fc.assert(fc.property(fc.anything(), (input) => {
      const r = validateScenario(input);
      expect(typeof r.ok).toBe('boolean');
    }), { numRuns: 300 });
  });

  it('never throws when any one field of a good scenario is replaced by any JSON value, and every problem has a path', () => {
    fc.assert(fc.property(fc.constantFrom(...SMALL_PATHS), fc.jsonValue(), (path, value) => {
      const s = smallScenario();
      setPath(s, path, value);
      const r = validateScenario(s);
      if (!r.ok) {
        expect(r.problems.length).toBeGreaterThan(0);
        for (const p of r.problems) {
          expect(typeof p.path).toBe('string');
          expect(p.message.length).toBeGreaterThan(0);
        }
      }
    }), { numRuns: 500 });
  });

  it('reports any unknown node put at either end of any edge of the built-in map, at that exact path', () => {
    const base = loadBuiltinScenario();
    const ids = new Set(base.nodes.map((n) => n.id));
    const slug = fc.stringMatching(/^[a-z]{3,10}(-[a-z]{2,6})?$/).filter((id) => !ids.has(id));
    fc.assert(fc.property(fc.nat(base.edges.length - 1), fc.constantFrom('a', 'b'), slug, (i, end, id) => {
      const s = loadBuiltinScenario();
      setPath(s, `edges[${i}].${end}`, id);
      const r = validateScenario(s);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.problems).toContainEqual({ path: `edges[${i}].${end}`, message: expect.stringContaining(`unknown node '${id}'`) });
    }), { numRuns: 200 });
  });
});
