import type { LookupAddress } from 'node:dns';
import type { Agent as HttpAgent } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { http } from '../node-http';

/**
 * Keep-alive connection pools for the egress module: one agent per destination, so a model provider
 * is not a TCP (and TLS) handshake per step. Pools never widen what a request may reach — the hop is
 * resolved and checked before a pool is picked, and the pool is picked by what was checked.
 */

export type PoolOptions = {
  /** Open sockets per destination; requests beyond it wait for a free one (they still count against their timeout). */
  maxSockets?: number;
  /** Idle sockets kept per destination; more are closed as they come free. */
  maxFreeSockets?: number;
  /** An idle socket is closed after this long (sooner when the server announces a shorter Keep-Alive timeout). */
  idleMs?: number;
  /** Destinations with a pool; past it the least recently used pool is closed. */
  maxDestinations?: number;
};

type Destination = {
  secure: boolean;
  /** Without IPv6 brackets, as the URL parser spelled it (lower case). */
  hostname: string;
  port: number;
  /** The checked addresses of this hop; the socket may only ever connect to these. */
  addresses: LookupAddress[];
};

export type Pools = {
  agentFor(destination: Destination): HttpAgent;
  /** Closes every pooled socket, idle or in use (for shutdown); later requests open new ones. */
  close(): void;
};

const DEFAULT_MAX_SOCKETS = 32;
const DEFAULT_MAX_FREE_SOCKETS = 16;
// Below the idle timeouts servers commonly use (Node's 5 s, most proxies' 60 s and more), so we
// close an idle connection before the server does and seldom write to one it has just closed.
const DEFAULT_IDLE_MS = 4_000;
const DEFAULT_MAX_DESTINATIONS = 256;

export function createPools(options: PoolOptions = {}): Pools {
  const maxSockets = whole('maxSockets', options.maxSockets ?? DEFAULT_MAX_SOCKETS);
  const maxFreeSockets = whole('maxFreeSockets', options.maxFreeSockets ?? DEFAULT_MAX_FREE_SOCKETS);
  const idleMs = whole('idleMs', options.idleMs ?? DEFAULT_IDLE_MS);
  const maxDestinations = whole('maxDestinations', options.maxDestinations ?? DEFAULT_MAX_DESTINATIONS);
  // Insertion order is use order: a pool is moved to the end each time it is used.
  const agents = new Map<string, HttpAgent>();

  return {
    agentFor(destination) {
      const key = poolKey(destination);
      const existing = agents.get(key);
      if (existing) {
        agents.delete(key);
        agents.set(key, existing);
        return existing;
      }
      const Agent = destination.secure ? https.Agent : http.Agent;
      // autoSelectFamily reaches net.connect through the agent; @types/node only lists it on net's options.
      const agentOptions: https.AgentOptions & { autoSelectFamily?: boolean } = {
        keepAlive: true,
        maxSockets,
        maxFreeSockets,
        // For an idle socket Node closes it; for a socket in use it only emits 'timeout', which
        // nothing listens to: the request's own deadline is egressFetch's.
        timeout: idleMs,
        // The agent's options override the request's, so every socket this agent ever opens connects
        // to the addresses it was created for, whichever request makes it open one.
        lookup: pinnedLookup(destination.addresses),
        // Tries every checked address (e.g. ::1 then 127.0.0.1 for "localhost"), never another one.
        autoSelectFamily: true,
      };
      const agent = new Agent(agentOptions);
      agents.set(key, agent);
      if (agents.size > maxDestinations) {
        const [oldestKey, oldest] = agents.entries().next().value!;
        agents.delete(oldestKey);
        retire(oldest);
      }
      return agent;
    },
    close() {
      for (const agent of agents.values()) agent.destroy();
      agents.clear();
    },
  };
}

/**
 * A socket is shared only by requests to the same scheme, host name and port whose DNS answer was
 * the same set of checked addresses. The name keeps destinations on a shared IP (a CDN, a tenant's
 * name pointing at a provider's address) apart, with their own Host, SNI and certificate check; the
 * address set means an answer that changed gets new sockets to what was just checked. The order of
 * the answer does not matter (round-robin DNS would otherwise defeat the pool): every address in the
 * set passed the check.
 */
function poolKey({ secure, hostname, port, addresses }: Destination): string {
  const set = addresses.map((a) => a.address).sort();
  return JSON.stringify([secure ? 'https' : 'http', hostname, port, set]);
}

/**
 * Hands the socket the already-checked addresses instead of resolving again, so a DNS answer that
 * changes between check and connect (DNS rebinding) cannot redirect the connection. The request
 * keeps the hostname, so the Host header and TLS SNI/certificate check use the real name.
 */
export function pinnedLookup(addresses: LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  };
}

/**
 * An evicted pool keeps no idle sockets, but requests still running or waiting on it finish normally:
 * their sockets close when they come free (the agent keeps none once maxFreeSockets is 0).
 */
function retire(agent: HttpAgent) {
  agent.maxFreeSockets = 0;
  for (const sockets of Object.values(agent.freeSockets))
    for (const socket of sockets ?? []) socket.destroy();
}

function whole(name: string, value: number) {
  if (!Number.isInteger(value) || value <= 0)
    throw new TypeError(`egress pool ${name} must be a whole number > 0`);
  return value;
}
