import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/**
 * `@modelcontextprotocol/server-everything`, the protocol's reference test server from npm, in its
 * Streamable HTTP mode on a free loopback port: a real MCP server (another SDK, sessions and all) for
 * the client side's tests. Started and stopped by each file that uses it.
 */
export type EverythingServer = { url: string; close(): Promise<void> };

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export async function startEverythingServer(): Promise<EverythingServer> {
  const entry = fileURLToPath(import.meta.resolve('@modelcontextprotocol/server-everything/dist/index.js'));
  const port = await freePort();
  const child = spawn(process.execPath, [entry, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let said = '';
    const timer = setTimeout(() => reject(new Error(`server-everything did not start: ${said}`)), 15_000);
    child.stderr.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes(`listening on port ${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited (${code}): ${said}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      if (child.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      });
    },
  };
}
