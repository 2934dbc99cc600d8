import { describe, expect, it } from 'vitest';
import { decodeVectors, encodeVector } from './vector-codec';

describe('vector codec', () => {
  it('stores float32 little-endian, 4 bytes a dimension', () => {
    const bytes = encodeVector([1, -2.5]);
    expect(bytes).toHaveLength(8);
    expect(bytes.readFloatLE(0)).toBe(1);
    expect(bytes.readFloatLE(4)).toBe(-2.5);
    expect([...bytes.subarray(0, 4)]).toEqual([0x00, 0x00, 0x80, 0x3f]);
  });

  it('reads rows back into one array, row after row, at float32 precision', () => {
    const rows = [encodeVector([0.1, 0.2, 0.3]), encodeVector([-1, 0, 1])];
    // A row in a larger buffer at an odd offset, as a database driver may hand it over.
    const shifted = Buffer.concat([Buffer.from([9]), encodeVector([4, 5, 6])]).subarray(1);
    const out = decodeVectors([...rows, shifted], 3);
    expect(Array.from(out)).toEqual(Array.from(Float32Array.from([0.1, 0.2, 0.3, -1, 0, 1, 4, 5, 6])));
  });

  it('refuses a row of another length', () => {
    expect(() => decodeVectors([encodeVector([1, 2])], 3)).toThrow('Vector 0 has 2 dimensions, not 3');
  });
});
