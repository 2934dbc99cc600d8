import path from 'node:path';
import type { Machine, Network } from './network';

const serverDir = path.join(import.meta.dirname, '..', '..');
const mainPath = path.join(serverDir, 'main.ts');
const fakeLlmPath = path.join(serverDir, 'testing', 'fake-llm-server.ts');

/** The port every API machine listens on (each machine has its own ports). */
export const API_PORT = 5000;
/** The fake model server's port on its machine. */
export const FAKE_LLM_PORT = 8080;

export type MachineProcess = ReturnType<Network['spawn']> & {
  /** Resolves once the process printed that it is ready (fails if it exits first). */
  ready: Promise<void>;
};

function watchFor(child: ReturnType<Network['spawn']>, pattern: RegExp, what: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    // Only the output's tail is read, and not after the line came: a process logs every request, and
    // reading its whole output again on each chunk kept the runner too busy to drain the pipes (a
    // process writing to a full pipe waits: Node writes to pipes synchronously on Linux).
    let tail = '';
    const check = (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-4096);
      if (!pattern.test(tail)) return;
      child.stdout!.off('data', check);
      child.stderr!.off('data', check);
      resolve();
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', (code, signal) =>
      reject(new Error(`${what} exited (${code ?? signal}) before it was ready:\n${child.output()}`)),
    );
  });
}

/**
 * A Crewline server process on a machine: the real entry point with the flag `npm start` gives it
 * (scripts/start.ts runs main.ts; the web build it may do first is no part of this), listening on the
 * machine's address. `env` holds what every machine shares (DATABASE_URL, secrets, …).
 */
export function startServerMachine(
  network: Network,
  machine: Machine,
  role: 'api' | 'worker',
  env: NodeJS.ProcessEnv,
): MachineProcess {
  const child = network.spawn(
    machine,
    process.execPath,
    ['--max-semi-space-size=8', '--import', 'tsx', mainPath],
    {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LOG_LEVEL: 'info',
      ...env,
      ROLE: role,
      HOST: machine.address,
      PORT: String(API_PORT),
      // Its own disk: machines share nothing but the network.
      DATA_DIR: path.join(String(env.DATA_DIR), machine.name),
    },
  );
  const ready = watchFor(
    child,
    role === 'worker' ? /worker started/ : /Crewline is running at/,
    `${role} on ${machine.name}`,
  );
  ready.catch(() => undefined);
  return Object.assign(child, { ready });
}

/** The fake model server (apps/server/src/testing/fake-llm-server.ts) alone on its machine. */
export function startFakeLlmMachine(network: Network, machine: Machine): MachineProcess {
  const child = network.spawn(
    machine,
    process.execPath,
    ['--import', 'tsx', fakeLlmPath, '--host', machine.address, '--port', String(FAKE_LLM_PORT)],
    { PATH: process.env.PATH, HOME: process.env.HOME },
  );
  const ready = watchFor(child, /^http:\/\//m, `the fake model on ${machine.name}`);
  ready.catch(() => undefined);
  return Object.assign(child, { ready });
}
