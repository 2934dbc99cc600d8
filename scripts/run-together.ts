// Runs npm scripts at the same time and fails if any fails: the suites that mostly wait (on browsers,
// on Postgres) share the machine's cores instead of queueing, which keeps CI under its time limit.
// Each line is prefixed with its script's name; a script's exit is reported as it happens, and a failed
// script's last lines are printed again at the end, where CI's tail shows them.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: run-together.ts <npm script>…');
  process.exit(2);
}

const TAIL_LINES = 60;

const children = scripts.map((script) => {
  const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  const tail: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      console.log(`[${script}] ${line}`);
      tail.push(line);
      if (tail.length > TAIL_LINES) tail.shift();
    });
  }
  return { script, child, tail };
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => children.forEach(({ child }) => child.kill(signal)));
}

const codes = await Promise.all(
  children.map(
    ({ script, child }) =>
      new Promise<number>((resolve) => {
        child.on('close', (code, signal) => {
          const status = code ?? 1;
          console.log(`[${script}] ${status === 0 ? 'passed' : `failed (${signal ?? `exit ${status}`})`}`);
          resolve(status);
        });
      }),
  ),
);
const failed = children.filter((_, index) => codes[index] !== 0);
for (const { script, tail } of failed) {
  console.error(`\n--- the last ${tail.length} lines of ${script} ---`);
  for (const line of tail) console.error(line);
}
if (failed.length > 0) console.error(`failed: ${failed.map(({ script }) => script).join(', ')}`);
process.exit(failed.length > 0 ? 1 : 0);
