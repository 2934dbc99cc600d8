import { isIP, isIPv4, isIPv6 } from 'node:net';

/**
 * Which IP addresses tenant-controlled requests may reach (docs/security.md), and the
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

/** `::ffff:127.0.0.1` is 127.0.0.1 on the wire: the IPv4 bytes of an IPv4-mapped address, else `bytes`. */
export function unmapped(bytes: Uint8Array): Uint8Array {
  return bytes.length === 16 && inCidr(bytes, embeddingIpv6[0].range) ? bytes.slice(12) : bytes;
}

/** What no allow-list can open (the product's own ports and database): see reserved-destinations.ts. */
export type ReservedCheck = { isReserved(hostOrAddress: string, port: number): boolean };

export type AddressPolicy = {
  /** True when the allow-list names this hostname for this port: its addresses may then be private. */
  isHostAllowed(hostname: string, port: number): boolean;
  /**
   * True when the address is public, or private/reserved but inside an allow-listed IP or CIDR for
   * this port — and in both cases not one of the reserved destinations.
   */
  isAddressAllowed(address: string, port: number): boolean;
  /** True for the product's own ports and database, which every destination check refuses. */
  isReserved(hostOrAddress: string, port: number): boolean;
};

/** A hostname as written in a URL or allow-list: case and a trailing root dot do not matter. */
function normaliseHostname(hostname: string) {
  return hostname.toLowerCase().replace(/\.$/, '');
}

const hostnamePattern =
  /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/;

/** What an allow-list entry can be limited to, by a prefix: `model:127.0.0.1:11434`, `tool:10.0.0.0/8`. */
export const allowListUses = ['model', 'tool', 'webhook', 'database'] as const;
export type AllowListUse = (typeof allowListUses)[number];

/**
 * What a connection is for; each applies only the entries for it and those without a use. `service`
 * is the product's own configured services (Microsoft 365, Stripe): no entry can name it, so only
 * entries without a use (and the hosts they are configured with) apply to it.
 */
export type EgressUse = AllowListUse | 'service';

/** What each use opens a destination to, in the start-up warnings. */
const useNames: Record<AllowListUse, string> = {
  tool: 'tools',
  model: 'model connections',
  webhook: 'webhooks',
  database: 'database tools',
};
const everyUse = 'tools, model connections, webhooks and database tools';

/**
 * One allow-list entry: the use it is for (every use when absent), a name or a range, and the one
 * port it opens (every port when absent).
 */
type AllowRule = { raw: string; use?: AllowListUse; port?: number } & (
  { hostname: string; range?: undefined } | { range: Cidr; hostname?: undefined }
);

function parsePort(text: string): number | undefined {
  if (!/^\d{1,5}$/.test(text)) return undefined;
  const port = Number(text);
  return port >= 1 && port <= 65535 ? port : undefined;
}

/**
 * The use an entry starts with, and the rest. `database:5432` stays the host named database on port
 * 5432, as it always was: a use is followed by a destination, never by a bare port.
 */
function splitUse(entry: string): { use?: AllowListUse; destination: string } {
  const colon = entry.indexOf(':');
  const prefix = entry.slice(0, colon).toLowerCase();
  const rest = entry.slice(colon + 1).trim();
  const use = allowListUses.find((name) => name === prefix);
  if (colon === -1 || !use || /^\d*$/.test(rest)) return { destination: entry };
  return { use, destination: rest };
}

/**
 * Reads one entry: an optional use (`model:`, `tool:`, `webhook:`, `database:`), then `host`,
 * `host:port`, `ip`, `ip:port`, `cidr`, `cidr:port`. An IPv6 address or range takes a port only
 * inside brackets (`[::1]:11434`, `[fd00::/8]:443`), as in a URL: without them `::1` is an address and
 * its last group is not a port.
 */
function parseAllowRule(raw: string): AllowRule | undefined {
  const trimmed = raw.trim();
  if (trimmed === '') return undefined;
  const invalid = () =>
    new Error(
      `Invalid egress allow-list entry "${raw}": use a host, an IP address or a CIDR, optionally with a ` +
        'port (db.internal:5432, 127.0.0.1:11434, [::1]:11434, 10.0.0.0/8:5432, [fd00::/8]:443), ' +
        `optionally for one use (${allowListUses.map((use) => `${use}:`).join(', ')})`,
    );
  const { use, destination: entry } = splitUse(trimmed);
  let address = entry;
  let portText: string | undefined;
  const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(entry);
  if (bracketed) {
    [, address, portText] = bracketed;
  } else if (entry.indexOf(':') !== -1 && entry.indexOf(':') === entry.lastIndexOf(':')) {
    [address, portText] = entry.split(':');
  }
  let port: number | undefined;
  if (portText !== undefined) {
    port = parsePort(portText);
    if (port === undefined) throw invalid();
  }
  const range = parseCidr(address);
  if (range) return { raw: trimmed, use, range, port };
  const hostname = normaliseHostname(address);
  // Brackets hold IP addresses only, as in URLs.
  if (bracketed || address.includes('/') || !hostnamePattern.test(hostname)) throw invalid();
  return { raw: trimmed, use, hostname, port };
}

function parseAllowList(allowList: readonly string[]): AllowRule[] {
  return allowList.flatMap((raw) => parseAllowRule(raw) ?? []);
}

/** Throws the message of the first malformed entry, for the configuration to refuse it at start-up. */
export function checkAllowList(allowList: readonly string[]): void {
  parseAllowList(allowList);
}

const opensPort = (rule: AllowRule, port: number) => rule.port === undefined || rule.port === port;

/**
 * Builds the policy of one use from the admin allow-list (see parseAllowRule for the forms; hostnames
 * match exactly — no wildcards): the entries for that use and those without a use. An entry with a
 * port opens that port only, one without opens every port. A malformed entry throws at start-up rather
 * than silently allowing or refusing something else. `reserved` wins over everything: the allow-list
 * can never open the product's own ports or database.
 */
export function createAddressPolicy(
  use: EgressUse,
  allowList: readonly string[] = [],
  reserved?: ReservedCheck,
): AddressPolicy {
  const rules = parseAllowList(allowList).filter((rule) => rule.use === undefined || rule.use === use);
  const isReserved = (hostOrAddress: string, port: number) =>
    reserved?.isReserved(hostOrAddress, port) ?? false;
  const inAllowedRange = (bytes: Uint8Array, port: number) =>
    rules.some((rule) => rule.range && opensPort(rule, port) && inCidr(bytes, rule.range));

  return {
    isHostAllowed(hostname, port) {
      const bare = hostname.replace(/^\[(.*)\]$/, '$1');
      // IP literals are judged by address (an IP entry is a /32 or /128 range), never by name.
      if (isIP(stripZone(bare))) return false;
      const name = normaliseHostname(bare);
      return rules.some((rule) => rule.hostname === name && opensPort(rule, port));
    },
    isAddressAllowed(address, port) {
      const bytes = parseIp(address);
      if (!bytes || isReserved(address, port)) return false;
      if (!isBlockedBytes(bytes)) return true;
      // An IPv4 entry covers the IPv4-mapped spelling of its addresses too.
      return inAllowedRange(bytes, port) || inAllowedRange(unmapped(bytes), port);
    },
    isReserved,
  };
}

// What reaches this machine whatever its interfaces: loopback, and the unspecified address (Linux
// connects 0.0.0.0 and :: to localhost; the rest of 0.0.0.0/8 is included as it is never remote).
const thisMachine = ['127.0.0.0/8', '0.0.0.0/8', '::1/128', '::/128'].map(cidr);

/** True for a loopback or unspecified address, in any spelling (`::ffff:127.0.0.1` included). */
export function isLoopbackOrUnspecified(bytes: Uint8Array): boolean {
  const address = unmapped(bytes);
  return thisMachine.some((range) => inCidr(address, range));
}

function overlaps(a: Cidr, b: Cidr) {
  return (
    a.bytes.length === b.bytes.length &&
    inCidr(a.bytes, { bytes: b.bytes, prefix: Math.min(a.prefix, b.prefix) })
  );
}

/** An IPv6 range inside ::ffff:0:0/96 as the IPv4 range it stands for. */
function unmappedRange(range: Cidr): Cidr {
  return range.prefix >= 96 && inCidr(range.bytes, embeddingIpv6[0].range)
    ? { bytes: range.bytes.slice(12), prefix: range.prefix - 96 }
    : range;
}

/** "tools, model connections, webhooks and database tools", or the uses the entries are limited to. */
function describeUses(rules: AllowRule[]): string {
  if (rules.some((rule) => rule.use === undefined)) return everyUse;
  const names = allowListUses
    .filter((use) => rules.some((rule) => rule.use === use))
    .map((use) => useNames[use]);
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

const quoted = (rules: AllowRule[]) => rules.map((rule) => `"${rule.raw}"`).join(', ');

/**
 * The start-up warning for allow-list entries that open every port of this machine (`127.0.0.1`,
 * `localhost`, `::1`, `127.0.0.0/8`… without a port): every organization could then reach every local
 * service. Undefined when there are none.
 */
export function loopbackWarning(allowList: readonly string[]): string | undefined {
  const open = parseAllowList(allowList).filter((rule) => {
    if (rule.port !== undefined) return false;
    if (rule.hostname !== undefined)
      return rule.hostname === 'localhost' || rule.hostname.endsWith('.localhost');
    const range = unmappedRange(rule.range);
    return thisMachine.some((local) => overlaps(range, local));
  });
  if (open.length === 0) return undefined;
  const [noun, verb] = open.length === 1 ? ['entry', 'opens'] : ['entries', 'open'];
  return (
    `EGRESS_ALLOW_LIST ${noun} ${quoted(open)} ${verb} every port on this machine to every organization's ` +
    `${describeUses(open)}. Allow only the port you need, e.g. model:127.0.0.1:11434 for a local Ollama.`
  );
}

/**
 * The start-up warning for entries without a use: they open their destination to every organization's
 * tools, model connections, webhooks and database tools alike. Undefined when every entry names one.
 */
export function useWarning(allowList: readonly string[]): string | undefined {
  const open = parseAllowList(allowList).filter((rule) => rule.use === undefined);
  if (open.length === 0) return undefined;
  const [noun, verb, pronoun] = open.length === 1 ? ['entry', 'names', 'it'] : ['entries', 'name', 'them'];
  return (
    `EGRESS_ALLOW_LIST ${noun} ${quoted(open)} ${verb} no use, so every organization's ${everyUse} ` +
    `may reach ${pronoun} alike. Name the use each entry is for, e.g. model:127.0.0.1:11434 for a local ` +
    'Ollama or tool:10.0.0.0/8 for internal APIs.'
  );
}

/** Every start-up warning about the allow-list, in the order to log them. */
export function allowListWarnings(allowList: readonly string[]): string[] {
  return [loopbackWarning(allowList), useWarning(allowList)].filter((warning) => warning !== undefined);
}
