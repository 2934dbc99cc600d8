import { isIP } from 'node:net';
import { vi } from 'vitest';
import type { LookupFn } from '../platform/egress/resolve';

/** A DNS stand-in: the names it knows map to the given addresses, the rest fail like ENOTFOUND. */
export function fakeDns(table: Record<string, string[]>) {
  return vi.fn<LookupFn>(async (hostname) => {
    const addresses = table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: isIP(address) }));
  });
}
