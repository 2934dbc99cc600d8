// Runs npm scripts at the same time, each line of their output prefixed with the script's name, and
// exits with the first failure's code (0 when all pass). `npm test` runs the external-database suite
// beside the browser tests this way: the browser tests mostly wait on pages, so the two together take
// little longer than the browser tests alone (README).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: run-together <npm script> [<npm script> …]');
  process.exit(2);
}

const children = scripts.map((name) => {
  const child = spawn('npm', ['run', name], { stdio: ['ignore', 'pipe', 'pipe'] });
  for (const [stream, write] of [
    [child.stdout, (line: string) => process.stdout.write(line)],
    [child.stderr, (line: string) => process.stderr.write(line)],
  ] as const) {
    createInterface({ input: stream }).on('line', (line) => write(`[${name}] ${line}\n`));
  }
  return { name, child };
});

// A signal from CI reaches every script, so none is left running.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => children.forEach(({ child }) => child.kill(signal)));
}

const codes = await Promise.all(
  children.map(
    ({ name, child }) =>
      new Promise<number>((resolve) => {
        child.on('error', (error) => {
          console.error(`[${name}] could not start: ${error.message}`);
          resolve(1);
        });
        child.on('exit', (code, signal) => {
          const result = code ?? 1;
          console.log(`[${name}] ${result === 0 ? 'passed' : `failed (${signal ?? `exit ${result}`})`}`);
          resolve(result);
        });
      }),
  ),
);
process.exit(codes.find((code) => code !== 0) ?? 0);
