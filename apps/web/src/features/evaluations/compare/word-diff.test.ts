import { describe, expect, it } from 'vitest';

import { diffWords } from './word-diff';

const removed = (before: string, after: string) =>
  diffWords(before, after)
    .filter((part) => part.kind === 'removed')
    .map((part) => part.text);
const added = (before: string, after: string) =>
  diffWords(before, after)
    .filter((part) => part.kind === 'added')
    .map((part) => part.text);

describe('diffWords', () => {
  it('finds the words that changed and keeps the rest as it was', () => {
    const parts = diffWords('The refund is approved today.', 'The refund is denied today.');
    expect(parts).toEqual([
      { kind: 'same', text: 'The refund is ' },
      { kind: 'removed', text: 'approved' },
      { kind: 'added', text: 'denied' },
      { kind: 'same', text: ' today.' },
    ]);
  });

  it('tells words added and removed in several places', () => {
    expect(added('a b c d', 'a x b c d y')).toEqual(['x ', ' y']);
    expect(removed('one two three four', 'one three')).toEqual(['two ', ' four']);
  });

  it('splits punctuation from words, so a changed full stop is one token', () => {
    expect(removed('Done.', 'Done!')).toEqual(['.']);
    expect(added('Done.', 'Done!')).toEqual(['!']);
  });

  it('answers one unchanged part for equal texts and one added part from nothing', () => {
    expect(diffWords('same text', 'same text')).toEqual([{ kind: 'same', text: 'same text' }]);
    expect(diffWords('', 'new')).toEqual([{ kind: 'added', text: 'new' }]);
    expect(diffWords('', '')).toEqual([]);
  });

  it('puts back both texts whole from its parts', () => {
    const before = 'Alpha beta, gamma delta — epsilon.\nZeta';
    const after = 'Alpha gamma, beta delta epsilon!\nEta zeta';
    const parts = diffWords(before, after);
    expect(
      parts
        .filter((p) => p.kind !== 'added')
        .map((p) => p.text)
        .join(''),
    ).toBe(before);
    expect(
      parts
        .filter((p) => p.kind !== 'removed')
        .map((p) => p.text)
        .join(''),
    ).toBe(after);
  });

  it('shows a very long change as removed then added rather than searching for long', () => {
    const before = Array.from({ length: 1500 }, (_, i) => `a${i}`).join(' ');
    const after = Array.from({ length: 1500 }, (_, i) => `b${i}`).join(' ');
    const parts = diffWords(before, after);
    expect(parts.map((p) => p.kind)).toEqual(['removed', 'added']);
  });
});
