import { loadOnce } from '../load-once';

// @node-rs/argon2 hashes with argon2id by default (its Algorithm enum is const, so it is not named here);
// the tests check the `$argon2id$` prefix.
const options = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** The native argon2 binding, loaded by the first sign-up or sign-in: ~7 MiB of a server at rest. */
const loadArgon2 = loadOnce(() => import('@node-rs/argon2'));

export async function hashPassword(password: string): Promise<string> {
  const { hash } = await loadArgon2();
  return hash(password, options);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  const { verify } = await loadArgon2();
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

// Verifying against this when the email is unknown makes both failures take the same time.
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword('not-a-real-password');
  return dummyHash;
}
