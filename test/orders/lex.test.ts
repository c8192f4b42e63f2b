import { describe, expect, it } from 'vitest';
import { lex, rawOf, toPieces } from '../../src/orders/lex.js';
import { readLines, maskPassword, stripBullet } from '../../src/orders/clean.js';

const kinds = (s: string) => lex(s).tokens.map((t) => `${t.kind}:${t.text}`);

describe('lex: a line into tokens', () => {
  it('splits words on spaces and keeps , ; : apart', () => {
    expect(kinds('FLEET Jamaica Squadron: MOVE a, b; c')).toEqual([
      'word:FLEET', 'word:Jamaica', 'word:Squadron', 'sep::', 'word:MOVE', 'word:a', 'sep:,', 'word:b', 'sep:;', 'word:c',
    ]);
  });

  it('reads double, curly and guillemet quotes as one name', () => {
    expect(kinds('MOVE "St. Kitts" “Mona Passage” «Box 1»')).toEqual(['word:MOVE', 'quoted:St. Kitts', 'quoted:Mona Passage', 'quoted:Box 1']);
  });

  it('reads single quotes as a name only when they open and close at word edges', () => {
    expect(kinds("MOVE 'St. Kitts'")).toEqual(['word:MOVE', 'quoted:St. Kitts']);
    expect(kinds("FLEET Admiral's Squadron:")).toEqual(['word:FLEET', "word:Admiral's", 'word:Squadron', 'sep::']);
  });

  it('reports a quote that is not closed', () => {
    expect(lex('MOVE "St. Kitts').error).toBe('a quote is not closed: "St. Kitts');
  });

  it('makes arrows and a lone dash separators, but keeps a hyphen inside a word', () => {
    expect(kinds('a -> b => c → d - e – f windward-passage')).toEqual([
      'word:a', 'sep:->', 'word:b', 'sep:=>', 'word:c', 'sep:→', 'word:d', 'sep:-', 'word:e', 'sep:–', 'word:f', 'word:windward-passage',
    ]);
    expect(kinds('Kingston->Windward')).toEqual(['word:Kingston', 'sep:->', 'word:Windward']);
  });

  it('splits a token into the words of its normal form', () => {
    const pieces = toPieces(lex('windward-passage St. (Atlantic)').tokens);
    expect(pieces.map((p) => (p.kind === 'sep' ? p.raw : p.norm))).toEqual(['windward', 'passage', 'st', 'atlantic']);
    expect(rawOf(pieces.slice(0, 2), 'windward-passage St. (Atlantic)')).toBe('windward-passage');
    expect(rawOf(pieces.slice(1, 3), 'windward-passage St. (Atlantic)')).toBe('passage St.');
  });
});

describe('clean: what is not orders', () => {
  it('marks quoted reply lines, the "wrote:" line before them, and a signature', () => {
    const lines = readLines('FLEET x: HOLD\n\nOn Mon, 3 Jan 1805, the GM wrote:\n> old\n>> older\nThanks\n-- \nNelson\n\nFLEET y: HOLD\n');
    expect(lines.map((l) => l.kind)).toEqual(['text', 'blank', 'quoted', 'quoted', 'quoted', 'text', 'after-end', 'after-end', 'blank', 'after-end', 'blank']);
  });

  it('keeps a "wrote:" line that no quote follows', () => {
    expect(readLines('On reflection I wrote:\nFLEET x: HOLD').map((l) => l.kind)).toEqual(['text', 'text']);
  });

  it('cuts at a forwarded or Outlook original', () => {
    expect(readLines('FLEET x: HOLD\n-----Original Message-----\nFLEET y: HOLD').map((l) => l.kind)).toEqual(['text', 'after-end', 'after-end']);
    expect(readLines('FLEET x: HOLD\n________________________________\nFrom: GM').map((l) => l.kind)).toEqual(['text', 'after-end', 'after-end']);
  });

  it('a double dash with other text is not a signature', () => {
    expect(readLines('-- see below\nFLEET x: HOLD').map((l) => l.kind)).toEqual(['text', 'text']);
  });

  it('makes odd spaces plain and handles CRLF', () => {
    const [a, b] = readLines('FLEET\u00a0x:\tHOLD\r\nEND');
    expect(a!.text).toBe('FLEET x: HOLD');
    expect(b!.text).toBe('END');
  });

  it('strips list bullets', () => {
    expect(stripBullet('- FLEET x: HOLD')).toBe('FLEET x: HOLD');
    expect(stripBullet('2) FLEET x: HOLD')).toBe('FLEET x: HOLD');
    expect(stripBullet('-> a')).toBe('-> a');
  });

  it('masks password lines, quoted or not, and the password elsewhere', () => {
    expect(maskPassword('PASSWORD hearts-of-oak')).toBe('PASSWORD ****');
    expect(maskPassword('password: hearts-of-oak')).toBe('PASSWORD ****');
    expect(maskPassword('> PASSWORD x')).toBe('> PASSWORD ****');
    expect(maskPassword('my pw is hearts-of-oak!', 'hearts-of-oak')).toBe('my pw is ****!');
  });
});
