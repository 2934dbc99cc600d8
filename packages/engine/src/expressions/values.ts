// Values crossing into and out of CEL (docs/decisions/0040-cel-expressions.md, "Numbers").
import { Optional } from '@marcbachmann/cel-js';

/**
 * JSON → CEL. JSON has one number type while CEL literals are ints (`1`) or doubles (`1.0`), and
 * CEL refuses `double + int`: an integral number (a safe integer) enters as an int (BigInt), any
 * other number as a double, so `count + 1` and `score > 0.5` both work on data from a model.
 */
export function toCel(value: unknown): unknown {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(toCel);
  if (value !== null && typeof value === 'object' && isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item !== undefined) out[key] = toCel(item);
    }
    return out;
  }
  return value;
}

export class ResultError extends Error {}

/**
 * CEL → JSON: ints become numbers, maps plain objects, timestamps ISO strings, bytes hex, so what
 * an expression gives can be stored and shown like any step output.
 */
export function fromCel(value: unknown): unknown {
  switch (typeof value) {
    case 'bigint':
      return Number(value);
    case 'number':
      if (!Number.isFinite(value))
        throw new ResultError('gave a number that is not finite (a division by zero?)');
      return value;
    case 'string':
    case 'boolean':
      return value;
    case 'undefined':
      return null;
    case 'object':
      break;
    default:
      return String(value);
  }
  if (value === null) return null;
  if (Array.isArray(value)) return value.map(fromCel);
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of value) out[String(fromCel(key))] = fromCel(item);
    return out;
  }
  if (value instanceof Set) return [...value].map(fromCel);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array)
    return [...value].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  if (value instanceof Optional) return value.hasValue() ? fromCel(value.value()) : null;
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = fromCel(item);
    return out;
  }
  // Durations, unsigned ints, types and wrapped messages print themselves (e.g. "3600s", "int").
  const own = Object.entries(value);
  if (own.length > 0 && !hasOwnToString(value)) return fromCel(Object.fromEntries(own));
  return String(value);
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function hasOwnToString(value: object): boolean {
  return Object.getPrototypeOf(value)?.toString !== Object.prototype.toString;
}

/** What a value is, in the words an error shows ("gave a string, not true or false"). */
export function describeKind(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'bigint' || typeof value === 'number') return 'number';
  if (typeof value === 'object') return 'object';
  return typeof value;
}
