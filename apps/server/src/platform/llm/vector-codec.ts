import { endianness } from 'node:os';

/**
 * Embeddings as stored in a `bytea` column: float32, little-endian, 4 bytes a dimension (a quarter
 * of JSON's size, and read back without parsing).
 */
export function encodeVector(vector: number[]): Buffer {
  const bytes = Buffer.allocUnsafe(vector.length * 4);
  for (let i = 0; i < vector.length; i++) bytes.writeFloatLE(vector[i], i * 4);
  return bytes;
}

const LITTLE_ENDIAN = endianness() === 'LE';

/** Rows of encodeVector back into one Float32Array, row after row, for the vector index. */
export function decodeVectors(rows: Buffer[], dimensions: number): Float32Array {
  const rowBytes = dimensions * 4;
  const out = new Float32Array(rows.length * dimensions);
  const outBytes = new Uint8Array(out.buffer);
  rows.forEach((row, r) => {
    if (row.length !== rowBytes) {
      throw new Error(`Vector ${r} has ${row.length / 4} dimensions, not ${dimensions}`);
    }
    // On little-endian machines (all that run this) the bytes are copied as they are.
    if (LITTLE_ENDIAN) outBytes.set(row, r * rowBytes);
    else for (let i = 0; i < dimensions; i++) out[r * dimensions + i] = row.readFloatLE(i * 4);
  });
  return out;
}
