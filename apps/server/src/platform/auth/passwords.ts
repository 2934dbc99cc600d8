import { hash, verify } from '@node-rs/argon2';

// @node-rs/argon2 hashes with argon2id by default (its Algorithm enum is const, so it is not named here);
// the tests check the `$argon2id$` prefix.
const options = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

// Verifying against this when the email is unknown makes both failures take the same time.
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hash('not-a-real-password', options);
  return dummyHash;
}
