import { describe, expect, it } from 'vitest';
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
