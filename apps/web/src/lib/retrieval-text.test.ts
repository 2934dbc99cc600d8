import { describe, expect, it } from 'vitest';

import { hitsLabel, passageLabel, retrievalScore } from './retrieval-text';

describe('retrieval text', () => {
  it('shows a score as two decimals within 0 and 1', () => {
    expect(retrievalScore(0.8734)).toBe('0.87');
    expect(retrievalScore(0.5)).toBe('0.50');
    expect(retrievalScore(1.0000002)).toBe('1.00');
    expect(retrievalScore(-0.02)).toBe('0.00');
    expect(retrievalScore(Number.NaN)).toBe('–');
  });

  it('names the passage when the store numbers it', () => {
    expect(passageLabel({ passage: 3 })).toBe('passage 3');
    expect(passageLabel({})).toBeNull();
  });

  it('counts the passages found', () => {
    expect(hitsLabel(0)).toBe('No passages found');
    expect(hitsLabel(1)).toBe('1 passage found');
    expect(hitsLabel(5)).toBe('5 passages found');
  });
});
