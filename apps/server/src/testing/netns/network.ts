import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';

/*
 * A small network of "machines" on one Linux host, for the several-machines suite
 * (apps/server/src/multi-machine.netns.test.ts, docs/architecture.md "Several machines"): each machine
 * is a network namespace with one veth interface whose other end is a port of a bridge in the root
 * namespace. The bridge holds the first address of the subnet, so the test runner (in the root
 * namespace) reaches every machine, and the machines reach each other through it as through a switch.
 * Everything is named with one prefix, so a run that crashed leaves nothing a later run cannot find
 * and remove (cleanLeftovers).
 */

const run = promisify(execFile);

/** The machines' processes run at this niceness: above the suites beside them (spawn). */
const MACHINE_NICENESS = -10;

/** `ip` with its arguments; throws with ip's own message. */
async function ip(...args: string[]): Promise<string> {
  try {
    return (await run('ip', args)).stdout;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`ip ${args.join(' ')} failed: ${stderr || (error as Error).message}`, { cause: error });
  }
}

/**
 * Why namespaces cannot be made here, or null when they can: they need root, the `ip` tool and a
 * kernel that lets this process add a namespace (containers often do not). Tried for real with a
 * throwaway namespace of the prefix.
 */
export async function whyNoNamespaces(prefix: string): Promise<string | null> {
  if (process.platform !== 'linux') return `network namespaces are Linux only (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return 'network namespaces need root (this process is not root)';
  try {
    await run('ip', ['-V']);
  } catch {
    return 'the `ip` tool (iproute2) is not installed';
  }
  const probe = `${prefix}probe`;
  try {
    await ip('netns', 'add', probe);
  } catch (error) {
    return `\`ip netns add\` is not allowed here: ${(error as Error).message}`;
  }
  await ip('netns', 'del', probe).catch(() => undefined);
  return null;
}

/** Kills every process inside a namespace (SIGKILL): what pulling a machine's power cord does to them. */
export async function killNamespaceProcesses(namespace: string): Promise<number> {
  const pids = (await ip('netns', 'pids', namespace).catch(() => ''))
    .split('\n')
    .map(Number)
    .filter((pid) => pid > 0);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  return pids.length;
}

/**
 * Removes what a previous run with this prefix left (it crashed, or was killed before its cleanup):
 * the processes in its namespaces, the namespaces, and its links (host ends of veths, the bridge).
 */
export async function cleanLeftovers(prefix: string): Promise<void> {
  const namespaces = (await ip('netns', 'list').catch(() => ''))
    .split('\n')
    .map((line) => line.split(' ')[0])
    .filter((name) => name.startsWith(prefix));
  for (const namespace of namespaces) {
    await killNamespaceProcesses(namespace);
    await ip('netns', 'del', namespace).catch(() => undefined);
  }
  const links = (await ip('-o', 'link', 'show').catch(() => ''))
    .split('\n')
    .map((line) => /^\d+:\s+([^:@\s]+)/.exec(line)?.[1])
    .filter((name): name is string => !!name && name.startsWith(prefix));
  for (const link of links) await ip('link', 'del', link).catch(() => undefined);
}

export type Machine = {
  name: string;
  /** The namespace's name (`<prefix><name>`). */
  namespace: string;
  /** Its address on the bridge. */
  address: string;
  /** The bridge port of its cable, in the root namespace. */
  hostLink: string;
};

export type Network = Awaited<ReturnType<typeof createNetwork>>;

/**
 * One namespace per machine name, each at `<subnet>.<index + 2>` (the bridge is `<subnet>.1`), joined
 * by the bridge `<prefix>br`. Names stay under Linux's 15 characters for links: keep prefix + name
 * short (`cl42-` + `w1` + `-h`).
 */
export async function createNetwork<Name extends string>(
  prefix: string,
  names: readonly Name[],
  subnet = '10.42.0',
) {
  const bridge = `${prefix}br`;
  const started = new Set<ChildProcess>();
  await ip('link', 'add', bridge, 'type', 'bridge');
  await ip('addr', 'add', `${subnet}.1/24`, 'dev', bridge);
  await ip('link', 'set', bridge, 'up');

  const machines = {} as Record<Name, Machine>;
  for (const [index, name] of names.entries()) {
    const namespace = `${prefix}${name}`;
    const hostLink = `${prefix}${name}-h`;
    const address = `${subnet}.${index + 2}`;
    await ip('netns', 'add', namespace);
    // The machine's end is eth0 inside its namespace; the other end plugs into the bridge.
    await ip('link', 'add', hostLink, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', namespace);
    await ip('link', 'set', hostLink, 'master', bridge, 'up');
    await ip('-n', namespace, 'addr', 'add', `${address}/24`, 'dev', 'eth0');
    await ip('-n', namespace, 'link', 'set', 'eth0', 'up');
    // Loopback too: Postgres and Node expect a working localhost.
    await ip('-n', namespace, 'link', 'set', 'lo', 'up');
    machines[name] = { name, namespace, address, hostLink };
  }

  return {
    machines,
    /** The test runner's own address on the bridge. */
    hostAddress: `${subnet}.1`,
    /**
     * Starts `command` inside the machine (`ip netns exec`, then `nice`, each of which execs the next:
     * the child's pid is the command's own). Its output is kept for the test's failure messages. The
     * machines run above the test runner's other work (niceness MACHINE_NICENESS, we are root): in CI
     * the server and browser suites share the cores, and their load is not what the throughput figures
     * are about.
     */
    spawn(
      machine: Machine,
      command: string,
      args: string[],
      env: NodeJS.ProcessEnv,
    ): ChildProcess & { output(): string } {
      const niced = ['nice', '-n', String(MACHINE_NICENESS), command, ...args];
      const child = spawn('ip', ['netns', 'exec', machine.namespace, ...niced], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      const append = (chunk: Buffer) => (output += chunk.toString());
      child.stdout!.on('data', append);
      child.stderr!.on('data', append);
      started.add(child);
      child.once('exit', () => started.delete(child));
      return Object.assign(child, { output: () => output });
    },
    /** Cuts the machine's cable (its bridge port goes down) or plugs it back in. No process notices at once. */
    async setCable(machine: Machine, state: 'up' | 'down') {
      await ip('link', 'set', machine.hostLink, state);
    },
    /** SIGKILLs every process on the machine. */
    killAll: (machine: Machine) => killNamespaceProcesses(machine.namespace),
    /** Kills every process it started and every machine's processes, then removes the namespaces and the bridge. */
    async destroy() {
      for (const child of started) child.kill('SIGKILL');
      for (const machine of Object.values<Machine>(machines)) {
        await killNamespaceProcesses(machine.namespace);
        await ip('netns', 'del', machine.namespace).catch(() => undefined);
      }
      await ip('link', 'del', bridge).catch(() => undefined);
      await cleanLeftovers(prefix);
    },
  };
}
