import { isIP, isIPv4, isIPv6 } from 'node:net';

/**
 * Which IP addresses tenant-controlled requests may reach (DESIGN.md §6 "SSRF protection"), and the
 * admin allow-list that makes exceptions (local LLM servers, test servers, an internal database API).
 *
 * Addresses are compared as bytes rather than strings so that every spelling of an address
 * (`::ffff:7f00:1`, `::ffff:127.0.0.1`, `0:0:0:0:0:0:0:1`) lands on the same decision.
 */

type Cidr = { bytes: Uint8Array; prefix: number };

/** 4 bytes for IPv4, 16 for IPv6, undefined when `text` is not an IP address. A zone id is ignored. */
export function parseIp(text: string): Uint8Array | undefined {
  const address = stripZone(text);
  if (isIPv4(address)) return Uint8Array.from(address.split('.').map(Number));
  if (isIPv6(address)) return parseIpv6(address);
  return undefined;
}

function stripZone(text: string) {
  const zone = text.indexOf('%');
  return zone === -1 ? text : text.slice(0, zone);
}

// Only called on text node:net already accepted as IPv6, so the shape is known to be valid.
function parseIpv6(text: string): Uint8Array {
  let address = text;
  const lastColon = address.lastIndexOf(':');
  const tail = address.slice(lastColon + 1);
  if (tail.includes('.')) {
    // A trailing dotted quad (`::ffff:1.2.3.4`) stands for the last two 16-bit groups.
    const [a, b, c, d] = tail.split('.').map(Number);
    address = `${address.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = address.split('::');
  const headGroups = head ? head.split(':') : [];
  const restGroups = rest ? rest.split(':') : [];
  const zeros = rest === undefined ? 0 : 8 - headGroups.length - restGroups.length;
  const groups = [...headGroups, ...Array<string>(zeros).fill('0'), ...restGroups];
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    const value = parseInt(group, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 0xff;
  });
  return bytes;
}

function parseCidr(text: string): Cidr | undefined {
  const slash = text.indexOf('/');
  const bytes = parseIp(slash === -1 ? text : text.slice(0, slash));
  if (!bytes) return undefined;
  const maxPrefix = bytes.length * 8;
  if (slash === -1) return { bytes, prefix: maxPrefix };
  const prefixText = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  return prefix <= maxPrefix ? { bytes, prefix } : undefined;
}

function cidr(text: string): Cidr {
  const parsed = parseCidr(text);
  if (!parsed) throw new Error(`Invalid built-in CIDR ${text}`);
  return parsed;
}

function inCidr(bytes: Uint8Array, range: Cidr): boolean {
  if (bytes.length !== range.bytes.length) return false;
  let bits = range.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i] & mask) !== (range.bytes[i] & mask)) return false;
  }
  return true;
}

const blockedIpv4 = [
  '0.0.0.0/8', // "this network", includes the unspecified 0.0.0.0 (which Linux connects to localhost)
  '10.0.0.0/8', // private
  '100.64.0.0/10', // carrier-grade NAT; includes Alibaba Cloud's metadata service 100.100.100.200
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local; includes the AWS/GCP/Azure metadata service 169.254.169.254
  '172.16.0.0/12', // private
  '192.0.0.0/24', // IETF protocol assignments; includes Oracle Cloud's metadata service 192.0.0.192
  '192.0.2.0/24', // documentation
  '192.88.99.0/24', // deprecated 6to4 relay anycast
  '192.168.0.0/16', // private
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation
  '203.0.113.0/24', // documentation
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, includes broadcast 255.255.255.255
].map(cidr);

/**
 * IPv6 prefixes whose last bits carry an IPv4 address that decides. The transition mechanisms
 * reach that IPv4 host, so `::ffff:127.0.0.1` or `64:ff9b::a9fe:a9fe` are as local as the address
 * they embed — while NAT64 of a public address stays usable on IPv6-only hosts.
 */
const embeddingIpv6: { range: Cidr; offset: number }[] = [
  { range: cidr('::ffff:0:0/96'), offset: 12 }, // IPv4-mapped
  { range: cidr('::ffff:0:0:0/96'), offset: 12 }, // IPv4-translated (SIIT)
  { range: cidr('64:ff9b::/96'), offset: 12 }, // NAT64 well-known prefix
  { range: cidr('2002::/16'), offset: 2 }, // 6to4
];

// Only global unicast (2000::/3) is reachable on the internet; everything else — ::, ::1, the
// deprecated IPv4-compatible ::/96, fc00::/7 (incl. the AWS metadata fd00:ec2::254), fe80::/10,
// fec0::/10, ff00::/8, 100::/64, local-use NAT64 64:ff9b:1::/48 — is refused by not being in it.
const globalUnicast = cidr('2000::/3');
const blockedInGlobalUnicast = [
  '2001::/23', // IETF protocol assignments, includes Teredo 2001::/32 (its IPv4 is obfuscated)
  '2001:db8::/32', // documentation
  '3fff::/20', // documentation
].map(cidr);

function embeddedIpv4(bytes: Uint8Array): Uint8Array | undefined {
  if (bytes.length !== 16) return undefined;
  const match = embeddingIpv6.find(({ range }) => inCidr(bytes, range));
  return match ? bytes.slice(match.offset, match.offset + 4) : undefined;
}

/**
 * True when `address` is loopback, private, link-local, a cloud metadata service, unspecified,
 * carrier-grade NAT, multicast, reserved, an IPv6 form of one of those — or not an IP at all.
 */
export function isBlockedAddress(address: string): boolean {
  const bytes = parseIp(address);
  if (!bytes) return true;
  return isBlockedBytes(bytes);
}

function isBlockedBytes(bytes: Uint8Array): boolean {
  if (bytes.length === 4) return blockedIpv4.some((range) => inCidr(bytes, range));
  const ipv4 = embeddedIpv4(bytes);
  if (ipv4) return isBlockedBytes(ipv4);
  if (!inCidr(bytes, globalUnicast)) return true;
  return blockedInGlobalUnicast.some((range) => inCidr(bytes, range));
}

export type AddressPolicy = {
  /** True when the admin allow-list names this hostname: its addresses are then not checked. */
  isHostAllowed(hostname: string): boolean;
  /** True when the address is public, or private/reserved but inside an allow-listed IP or CIDR. */
  isAddressAllowed(address: string): boolean;
};

/** A hostname as written in a URL or allow-list: case and a trailing root dot do not matter. */
function normaliseHostname(hostname: string) {
  return hostname.toLowerCase().replace(/\.$/, '');
}

const hostnamePattern =
  /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/;

/**
 * Builds the policy from the admin allow-list. Entries are hostnames (`localhost`, `db.internal`,
 * matched exactly — no wildcards), IP addresses (`127.0.0.1`, `::1`) or CIDRs (`10.0.0.0/8`).
 * A malformed entry throws at start-up rather than silently allowing or refusing something else.
 */
export function createAddressPolicy(allowList: readonly string[] = []): AddressPolicy {
  const hostnames = new Set<string>();
  const ranges: Cidr[] = [];
  for (const raw of allowList) {
    const entry = raw.trim().replace(/^\[(.*)\]$/, '$1');
    if (entry === '') continue;
    const range = parseCidr(entry);
    if (range) {
      ranges.push(range);
      continue;
    }
    const hostname = normaliseHostname(entry);
    if (entry.includes('/') || !hostnamePattern.test(hostname)) {
      throw new Error(`Invalid egress allow-list entry "${raw}": use a hostname, an IP address or a CIDR`);
    }
    hostnames.add(hostname);
  }

  const inAllowedRange = (bytes: Uint8Array) => ranges.some((range) => inCidr(bytes, range));

  return {
    isHostAllowed(hostname) {
      const bare = hostname.replace(/^\[(.*)\]$/, '$1');
      // IP literals are judged by address (an IP entry is a /32 or /128 range), never by name.
      if (isIP(stripZone(bare))) return false;
      return hostnames.has(normaliseHostname(bare));
    },
    isAddressAllowed(address) {
      const bytes = parseIp(address);
      if (!bytes) return false;
      if (!isBlockedBytes(bytes)) return true;
      if (inAllowedRange(bytes)) return true;
      // `::ffff:127.0.0.1` is 127.0.0.1 on the wire, so an IPv4 entry covers it too.
      const mapped =
        bytes.length === 16 && inCidr(bytes, embeddingIpv6[0].range) ? bytes.slice(12) : undefined;
      return mapped !== undefined && inAllowedRange(mapped);
    },
  };
}
