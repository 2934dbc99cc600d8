import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const mainPath = path.join(import.meta.dirname, '..', 'main.ts');

export type ServerProcess = {
  child: ChildProcess;
  /** Resolves with the base URL once the API listens (never for ROLE=worker). */
  url: Promise<string>;
  /** Resolves once the line matching `readyWhen` was printed. */
  ready: Promise<void>;
  exited: Promise<number | null>;
  output(): string;
};

/**
 * A server process's environment: this machine's PATH and HOME (nothing else of the test runner's),
 * loopback on a free port, and info logs (startServerProcess waits for lines printed at info);
 * `env` adds the rest (DATABASE_URL, DATA_DIR, secrets, EGRESS_ALLOW_LIST, …) or overrides.
 */
export function processEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'info',
    ...env,
  };
}

/** The real entry point (main.ts) in a child process, as `npm start` runs it. */
export function startServerProcess(
  env: NodeJS.ProcessEnv,
  readyWhen = /Crewline is running at/,
): ServerProcess {
  // The flag `npm start` gives (see docs/decisions/0008-node-24-from-npm.md): an idle server's memory
  // without Node 24's larger young generation.
  const child = spawn(process.execPath, ['--max-semi-space-size=8', '--import', 'tsx', mainPath], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const watch = <T>(pattern: RegExp, pick: (match: RegExpExecArray) => T) =>
    new Promise<T>((resolve, reject) => {
      const onData = () => {
        const match = pattern.exec(output);
        if (match) resolve(pick(match));
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      void exited.then((code) => reject(new Error(`server exited (${code}) before ${pattern}:\n${output}`)));
    });
  const append = (chunk: Buffer) => (output += chunk.toString());
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const url = watch(/Crewline is running at (http:\/\/[^"\s]+)/, (m) =>
    m[1].replace('localhost', '127.0.0.1'),
  );
  const ready = watch(readyWhen, () => undefined);
  // Awaited only by the tests that expect them.
  url.catch(() => undefined);
  ready.catch(() => undefined);
  return { child, url, ready, exited, output: () => output };
}

/** SIGTERM (graceful) or SIGKILL (a crash); resolves with the exit code. */
export async function stopServerProcess(server: ServerProcess, signal: NodeJS.Signals = 'SIGTERM') {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  return server.exited;
}
