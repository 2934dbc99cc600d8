// The builder stays fluid with 200 nodes (docs/product-rules.md): time to render a 200-agent workflow and the
// frame rate while the canvas is panned, in headless Chromium against the real built server.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const NODES = 200;
const port = 5399;
const base = `http://127.0.0.1:${port}`;
const root = path.join(import.meta.dirname, '..');

async function waitForHealth() {
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('server did not start');
}

export async function runBuilder200() {
  if (!existsSync(path.join(root, 'apps/web/dist/index.html'))) throw new Error('run npm run build first');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'crewline-bench-ui-'));
  chmodSync(dataDir, 0o755);
  const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  try {
    await waitForHealth();
    const post = async (url: string, body: unknown, token?: string) =>
      (
        await fetch(base + url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify(body),
        })
      ).json() as Promise<Record<string, never>>;
    const { token } = await post('/api/auth/signup', {
      username: 'benchui',
      email: 'benchui@example.com',
      password: 'bench-password',
      confirmPassword: 'bench-password',
    });
    const agent = await post('/api/agents', { name: 'Worker', role: 'Worker', goal: 'Work' }, token);
    const agents = Array.from({ length: NODES }, (_, i) => ({
      id: `n${i}`,
      type: 'agent',
      agentId: agent.id,
      position: { x: 100 + (i % 20) * 280, y: 250 + Math.floor(i / 20) * 140 },
      data: { label: `Step ${i + 1}`, agentId: agent.id },
    }));
    const ids = ['start', ...agents.map((n) => n.id), 'end'];
    const workflow = await post(
      '/api/workflows',
      {
        name: `${NODES} agents`,
        nodes: [
          { id: 'start', type: 'start', position: { x: 100, y: 100 }, data: { label: 'Start' } },
          ...agents,
          { id: 'end', type: 'end', position: { x: 500, y: 100 }, data: { label: 'End' } },
        ],
        edges: ids.slice(1).map((target, i) => ({ id: `e${i}`, source: ids[i], target })),
      },
      token,
    );

    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      await page.goto(`${base}/login`);
      await page.evaluate((t) => localStorage.setItem('authToken', t), token);
      const started = performance.now();
      await page.goto(`${base}/workflows/edit/${workflow.id}`);
      await page.locator('.react-flow__node').first().waitFor();
      const renderMs = performance.now() - started;
      await page.screenshot({ path: path.join(root, 'bench/results/builder-200-nodes.png') });
      const rendered = await page.locator('.react-flow__node').count();

      // Pan the canvas for two seconds while counting animation frames and the longest frame.
      const pane = (await page.locator('.react-flow__pane').boundingBox())!;
      // A string, not a function: tsx would inject its __name helper, which the page does not have.
      await page.evaluate(
        'window.__rafTimes = []; (function tick(t) { if (t) window.__rafTimes.push(t); requestAnimationFrame(tick); })()',
      );
      const x = pane.x + pane.width / 2;
      const y = pane.y + pane.height / 2;
      await page.mouse.move(x, y);
      await page.mouse.down();
      const panStart = performance.now();
      for (let i = 0; performance.now() - panStart < 2000; i++) {
        await page.mouse.move(x + Math.sin(i / 8) * 300, y + Math.cos(i / 8) * 200);
      }
      await page.mouse.up();
      const frames = (await page.evaluate('window.__rafTimes')) as number[];
      const gaps = frames.slice(1).map((t, i) => t - frames[i]);
      const span = (frames.at(-1)! - frames[0]) / 1000;
      const round = (n: number) => Math.round(n * 10) / 10;
      return {
        nodes: NODES + 2,
        renderedNodes: rendered,
        openToRenderedMs: round(renderMs),
        panFramesPerSecond: round(gaps.length / span),
        longestFrameMs: round(Math.max(...gaps)),
        note: 'headless Chromium without GPU on a 2-core machine; React Flow draws only the visible nodes',
      };
    } finally {
      await browser.close();
    }
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
