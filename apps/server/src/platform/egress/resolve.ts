import { promises as dns, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import type { AddressPolicy } from './address-policy';

/** Resolves a hostname to all its addresses; `dns.lookup(host, { all: true })` unless injected. */
export type LookupFn = (hostname: string) => Promise<LookupAddress[]>;

export const defaultLookup: LookupFn = (hostname) => dns.lookup(hostname, { all: true });

export type ResolveOutcome =
  | { ok: true; addresses: LookupAddress[] }
  | { ok: false; reason: 'blocked' }
  | { ok: false; reason: 'unresolved'; cause?: unknown };

/**
 * The one SSRF rule for every outbound connection (HTTP and database tools): resolve the host once and
 * return only addresses the policy allows on `port`, for the caller to pin. An IP literal is checked
 * as is. Every address must pass, not just one: the socket may use any of them, and a name answering
 * with a public and a private address is the classic way around a check of the first. An allow-listed
 * name skips the private-address check, never the reserved destinations (the product's own ports and
 * database), and a non-IP answer still never reaches a socket.
 */
export async function resolvePermitted(
  policy: AddressPolicy,
  lookup: LookupFn,
  hostname: string,
  port: number,
): Promise<ResolveOutcome> {
  const literalFamily = isIP(hostname);
  if (literalFamily) {
    return policy.isAddressAllowed(hostname, port)
      ? { ok: true, addresses: [{ address: hostname, family: literalFamily }] }
      : { ok: false, reason: 'blocked' };
  }
  if (policy.isReserved(hostname, port)) return { ok: false, reason: 'blocked' };
  let results: LookupAddress[];
  try {
    results = (await lookup(hostname)) ?? [];
  } catch (cause) {
    return { ok: false, reason: 'unresolved', cause };
  }
  if (results.length === 0) return { ok: false, reason: 'unresolved' };
  const allowedByName = policy.isHostAllowed(hostname, port);
  const permitted = (address: string) =>
    allowedByName ? !policy.isReserved(address, port) : policy.isAddressAllowed(address, port);
  if (!results.every((r) => permitted(r.address))) return { ok: false, reason: 'blocked' };
  const usable = results.flatMap((r) => {
    const family = isIP(r.address);
    return family ? [{ address: r.address, family }] : [];
  });
  return usable.length > 0 ? { ok: true, addresses: usable } : { ok: false, reason: 'unresolved' };
}
