import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import pg from 'pg';
import { isLoopbackOrUnspecified, parseIp, type ReservedCheck, unmapped } from './address-policy';
import { defaultLookup, type LookupFn } from './resolve';

/**
 * The product's own destinations, which no tool, model connection, webhook or database tool may
 * reach whatever EGRESS_ALLOW_LIST says (docs/security.md): the ports this server listens on, on every
 * address of this machine, and its database. One per process, handed to every egress instance and
 * to the database tool, so there is one rule. Ports become known while the process starts (the HTTP
 * server's only once it listens, which can differ from PORT when PORT=0), so they are added later.
 */
export type ReservedDestinations = ReservedCheck & {
  /** A port of ours: reserved on every loopback and unspecified address and every local interface. */
  addLocalPort(port: number): void;
  /**
   * The product's database, from its connection URL: its host name and the addresses that name
   * resolves to now (once), on its port. A host on this machine (`localhost`, `127.0.0.1`, a Unix
   * socket) reserves that port on every local address.
   */
  addDatabase(url: string): Promise<void>;
};

export type ReservedDestinationsOptions = {
  localPorts?: number[];
  lookup?: LookupFn;
  /** This machine's interface addresses; read from os.networkInterfaces() at each check unless given. */
  interfaceAddresses?: () => string[];
};

function readInterfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((e) => e.address));
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const normaliseHostname = (hostname: string) => hostname.toLowerCase().replace(/\.$/, '');
const unbracketed = (host: string) => host.replace(/^\[(.*)\]$/, '$1');

export function createReservedDestinations(options: ReservedDestinationsOptions = {}): ReservedDestinations {
  const lookup = options.lookup ?? defaultLookup;
  const interfaceAddresses = options.interfaceAddresses ?? readInterfaceAddresses;
  const localPorts = new Set<number>();
  // Destinations elsewhere (a remote database): `name <host> <port>` and `ip <hex> <port>`.
  const remote = new Set<string>();

  // `address` is already unmapped: ::ffff:10.0.0.5 and 10.0.0.5 are the same destination.
  const isThisMachine = (address: Uint8Array) =>
    isLoopbackOrUnspecified(address) ||
    interfaceAddresses().some((local) => {
      const bytes = parseIp(local);
      return bytes !== undefined && hex(unmapped(bytes)) === hex(address);
    });

  function addLocalPort(port: number) {
    // PORT=0 means "any free port": the real one is added once the server listens.
    if (Number.isInteger(port) && port > 0 && port <= 65535) localPorts.add(port);
  }
  for (const port of options.localPorts ?? []) addLocalPort(port);

  function addAddress(text: string, port: number) {
    const bytes = parseIp(text);
    if (!bytes) return;
    const address = unmapped(bytes);
    if (isThisMachine(address)) addLocalPort(port);
    else remote.add(`ip ${hex(address)} ${port}`);
  }

  return {
    addLocalPort,

    async addDatabase(url) {
      // pg's own reading of the URL (host and port parameters, defaults), as the pool connects with it.
      const { host: rawHost, port } = new pg.Client({ connectionString: url });
      const host = unbracketed(rawHost ?? '');
      if (!host || host.startsWith('/')) {
        // A Unix socket: not reachable by a tool, but the same server usually listens on localhost too.
        addLocalPort(port);
        return;
      }
      if (isIP(host)) {
        addAddress(host, port);
        return;
      }
      const name = normaliseHostname(host);
      remote.add(`name ${name} ${port}`);
      const answers = await lookup(name).catch(() => []);
      for (const answer of answers) addAddress(answer.address, port);
    },

    isReserved(hostOrAddress, port) {
      const bare = unbracketed(hostOrAddress);
      const bytes = parseIp(bare);
      if (!bytes) return remote.has(`name ${normaliseHostname(bare)} ${port}`);
      const address = unmapped(bytes);
      return (localPorts.has(port) && isThisMachine(address)) || remote.has(`ip ${hex(address)} ${port}`);
    },
  };
}
