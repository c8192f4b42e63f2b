import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compact, levenshtein, NameTable, normalise } from '../../src/orders/names.js';

describe('normalise', () => {
  it('reads St Kitts, st. kitts, st-kitts, Saint Kitts and "ST. KITTS" as one name', () => {
    for (const s of ['St Kitts', 'st. kitts', 'st-kitts', 'Saint Kitts', 'ST. KITTS', '  St.  Kitts ']) expect(normalise(s)).toBe('st kitts');
  });

  it('drops accents and apostrophes, reads harbour as harbor and & as and', () => {
    expect(normalise('Cap Français')).toBe('cap francais');
    expect(normalise("Admiral's Squadron")).toBe('admirals squadron');
    expect(normalise('English Harbour')).toBe('english harbor');
    expect(normalise('Box 1 (Atlantic)')).toBe('box 1 atlantic');
    expect(normalise('Turks & Caicos')).toBe('turks and caicos');
    expect(compact('St. Kitts')).toBe('stkitts');
  });
});

describe('levenshtein', () => {
  it('counts edits', () => {
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(levenshtein('', 'abc')).toBe(3);
    expect(levenshtein('jamica', 'jamaica')).toBe(1);
    expect(levenshtein('same', 'same')).toBe(0);
  });
});

describe('NameTable', () => {
  const t = new NameTable([
    { value: 'st-kitts', label: 'St. Kitts', keys: ['st-kitts', 'St. Kitts'] },
    { value: 'box-1', label: 'Box 1 (Atlantic)', keys: ['box-1', 'Box 1 (Atlantic)'], aliases: ['Box 1'] },
    { value: 'mona', label: 'Mona Passage', keys: ['mona', 'Mona Passage'] },
  ]);

  it('finds by id, name, loose name and name without spaces', () => {
    for (const s of ['st-kitts', 'St. Kitts', 'st kitts', 'StKitts', 'saint kitts']) expect(t.lookup(s).map((e) => e.value)).toEqual(['st-kitts']);
  });

  it('uses aliases only when no key matches', () => {
    expect(t.lookup('Box 1').map((e) => e.value)).toEqual(['box-1']);
  });

  it('suggests the nearest name, or a name that contains what was written', () => {
    expect(t.nearest('Mona Pasage')?.entry.label).toBe('Mona Passage');
    expect(t.nearest('St Kits')?.entry.label).toBe('St. Kitts');
    expect(t.nearest('Mona')?.entry.label).toBe('Mona Passage');
    expect(t.nearest('Havana')).toBeUndefined();
  });
});

// The matcher was made linear (one message of near misses froze the service). These
// compare it with the straightforward version it replaced, written out here, so that
// suggestions stay exactly as helpful as before.
describe('the fast matcher gives what the plain one gave', () => {
  const SYN: Record<string, string> = { saint: 'st', harbour: 'harbor' };
  const plainNormalise = (s: string) => {
    const t = s.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/&/g, ' and ')
      .replace(/['’‘`´]/g, '').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
    return t ? t.split(' ').map((w) => SYN[w] ?? w).join(' ') : '';
  };
  const plainLevenshtein = (a: string, b: string): number => {
    const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
    for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1), d[i - 1]![j]! + 1, d[i]![j - 1]! + 1);
    }
    return d[a.length]![b.length]!;
  };
  const allowance = (n: number) => (n <= 4 ? 1 : n <= 8 ? 2 : Math.max(3, Math.floor(n / 5)));
  const entries = [
    { value: 'st-kitts', label: 'St. Kitts', keys: ['st-kitts', 'St. Kitts'] },
    { value: 'box-1', label: 'Box 1 (Atlantic)', keys: ['box-1', 'Box 1 (Atlantic)'], aliases: ['Box 1'] },
    { value: 'mona', label: 'Mona Passage', keys: ['mona', 'Mona Passage'] },
    { value: 'kingston', label: 'Kingston (Jamaica)', keys: ['kingston', 'Kingston (Jamaica)'], aliases: ['Kingston'] },
    { value: 'cap', label: 'Cap Français', keys: ['cap-francais', 'Cap Français'] },
    { value: 'eh', label: 'English Harbour', keys: ['english-harbour', 'English Harbour'] },
  ];
  const plainNearest = (text: string) => {
    const q = plainNormalise(text);
    if (!q) return undefined;
    const qc = q.replace(/ /g, '');
    let best: { label: string; score: number } | undefined;
    for (const e of entries) for (const key of [...e.keys, ...(e.aliases ?? [])]) {
      const k = plainNormalise(key);
      if (!k) continue;
      const d = Math.min(plainLevenshtein(q, k), plainLevenshtein(qc, k.replace(/ /g, '')));
      let score: number;
      if (d <= allowance(Math.max(q.length, k.length)) && d < k.length) score = d;
      else if (` ${k} `.includes(` ${q} `)) score = 50 + (k.length - q.length);
      else continue;
      if (!best || score < best.score) best = { label: e.label, score };
    }
    return best;
  };
  const table = new NameTable(entries);
  // Text near the names: pieces of them, with letters changed, dropped and doubled.
  const nearText = fc.array(fc.oneof(
    fc.constantFrom('st', 'kitts', 'kits', 'saint', 'box', '1', 'atlantic', 'mona', 'pasage', 'passage', 'kingston', 'kingstn', 'jamaica', 'cap', 'français', 'francais', 'english', 'harbour', 'harbor', 'habour', '&', "'", '-', '.'),
    fc.string({ maxLength: 6 }),
  ), { maxLength: 6 }).map((ws) => ws.join(' '));

  it('normalises as before', () => {
    fc.assert(fc.property(fc.oneof(nearText, fc.string(), fc.string({ unit: 'grapheme' })), (s) => normalise(s) === plainNormalise(s)), { seed: 13, numRuns: 500 });
  });

  it('counts edits as before, and stops early only past the limit', () => {
    fc.assert(fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), fc.integer({ min: 0, max: 6 }), (a, b, max) => {
      const d = plainLevenshtein(a, b);
      expect(levenshtein(a, b)).toBe(d);
      expect(levenshtein(a, b, max)).toBe(d <= max ? d : max + 1);
    }), { seed: 13, numRuns: 500 });
  });

  it('suggests the same name, with the same score', () => {
    fc.assert(fc.property(nearText, (s) => {
      const got = table.nearest(s);
      const want = plainNearest(s);
      expect(got ? { label: got.entry.label, score: got.score } : undefined).toEqual(want);
    }), { seed: 13, numRuns: 500 });
  });
});
