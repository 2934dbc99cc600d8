import { describe, expect, it } from 'vitest';
import { chunkText } from './chunk-text';

const words = (n: number, word = 'word') => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');

describe('chunkText', () => {
  it('keeps a short text whole, trimmed, and answers nothing for blank text', () => {
    expect(chunkText('  A short note.\n')).toEqual(['A short note.']);
    expect(chunkText(' \n\t ')).toEqual([]);
    expect(chunkText('')).toEqual([]);
  });

  it('cuts at paragraph breaks when it can', () => {
    const first = `${'Alpha sentence here. '.repeat(30).trim()}`; // 629 characters
    const second = `${'Beta sentence here. '.repeat(30).trim()}`;
    const chunks = chunkText(`${first}\n\n${second}`, { overlap: 0 });
    expect(chunks).toEqual([first, second]);
  });

  it('cuts after a sentence when a paragraph is too long', () => {
    const sentence = 'The quick brown fox jumps over the lazy dog.';
    const text = Array.from({ length: 40 }, () => sentence).join(' ');
    const chunks = chunkText(text, { size: 200, overlap: 0 });
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(200);
      expect(chunk.endsWith('dog.')).toBe(true);
      expect(chunk.startsWith('The quick')).toBe(true);
    }
  });

  it('cuts between words when there is no sentence end, and never beyond the size', () => {
    const text = words(500);
    const chunks = chunkText(text, { size: 100, overlap: 0 });
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(100);
      expect(chunk).toMatch(/^word\d+( word\d+)*$/);
    }
    expect(chunks.join(' ')).toBe(text);
  });

  it('repeats the end of each chunk at the start of the next, from a word start', () => {
    const text = words(400);
    const chunks = chunkText(text, { size: 300, overlap: 60 });
    for (let i = 1; i < chunks.length; i++) {
      const [firstWord] = chunks[i].split(' ');
      const previous = chunks[i - 1];
      expect(previous).toContain(` ${firstWord} `);
      const repeated = previous.slice(previous.indexOf(` ${firstWord} `) + 1);
      expect(chunks[i].startsWith(repeated)).toBe(true);
      expect(repeated.length).toBeGreaterThan(30);
      expect(repeated.length).toBeLessThanOrEqual(60);
    }
    // Every word is in some chunk.
    const seen = new Set(chunks.flatMap((c) => c.split(' ')));
    expect(text.split(' ').every((w) => seen.has(w))).toBe(true);
  });

  it('uses 1,000 characters with 150 of overlap by default', () => {
    const chunks = chunkText(words(2000));
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThanOrEqual(1000);
    expect(Math.max(...chunks.map((c) => c.length))).toBeGreaterThan(900);
    const [, second] = chunks;
    const overlapStart = chunks[0].indexOf(second.split(' ')[0] + ' ');
    expect(chunks[0].length - overlapStart).toBeGreaterThan(100);
    expect(chunks[0].length - overlapStart).toBeLessThanOrEqual(150);
  });

  it('cuts text without spaces hard, without splitting a surrogate pair', () => {
    const chunks = chunkText('x'.repeat(9) + '😀'.repeat(10), { size: 10, overlap: 0 });
    expect(chunks.join('')).toBe('x'.repeat(9) + '😀'.repeat(10));
    for (const chunk of chunks) expect(chunk).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it('moves on when overlap is large and boundaries are far apart', () => {
    const text = `${'a'.repeat(90)} ${'b'.repeat(90)} ${'c'.repeat(90)}`;
    const chunks = chunkText(text, { size: 100, overlap: 95 });
    expect(chunks.length).toBeLessThan(20);
    expect(chunks.at(-1)!.endsWith('c')).toBe(true);
  });

  it('is deterministic', () => {
    const text = `${words(300)}.\n\n${words(300, 'other')}. Last sentence!`;
    expect(chunkText(text)).toEqual(chunkText(text));
  });

  it('refuses a size or overlap that cannot work', () => {
    expect(() => chunkText('x', { size: 0 })).toThrow(RangeError);
    expect(() => chunkText('x', { size: 10, overlap: 10 })).toThrow(RangeError);
    expect(() => chunkText('x', { overlap: -1 })).toThrow(RangeError);
  });
});
