import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { RecordedRequest } from './testing/fake-llm-server';
import { startDatabaseMachine, type DatabaseMachine } from './testing/netns/database-machine';
import { cleanLeftovers, createNetwork, whyNoNamespaces, type Network } from './testing/netns/network';
import {
  API_PORT,
  FAKE_LLM_PORT,
  startFakeLlmMachine,
  startServerMachine,
  type MachineProcess,
} from './testing/netns/server-machine';
import { processApi, type ProcessApi } from './testing/process-api';
import { connectRealtime, type RealtimeClient } from './testing/realtime-client';
import { chainOf } from './testing/workflow-shapes';

/*
 * Several machines (docs/architecture.md, "Several machines"; docs/decisions/0054-multi-machine-suite.md):
 * PostgreSQL, two ROLE=api machines, three ROLE=worker machines and the fake model server, each in its
 * own Linux network namespace joined by a bridge, and nothing shared but the network and the database.
 * Runs go in through either API machine and are done by whichever worker claims them; workers die and
 * lose the network mid-run, the database restarts, and throughput is measured against the number of
 * worker machines. The fake model's request log, which records the calling machine's address, tells
 * which worker did what. Needs root and `ip netns`; it says why when it skips.
 */

/** Every namespace, link and folder of this suite starts with it, so a crashed run's leftovers are found. */
const PREFIX = 'cl42-';
const MACHINES = ['db', 'api1', 'api2', 'w1', 'w2', 'w3', 'llm'] as const;
type WorkerName = 'w1' | 'w2' | 'w3';
const WORKERS: WorkerName[] = ['w1', 'w2', 'w3'];
/** Runs one worker process works on at once (WORKER_CONCURRENCY). */
const SLOTS = 4;

await cleanLeftovers(PREFIX).catch(() => undefined);
const skipReason = await whyNoNamespaces(PREFIX);
if (skipReason) console.log(`several machines: skipped, ${skipReason}`);
else {
  // And the folders of a crashed run (its machines' database and data folders).
  for (const entry of readdirSync(os.tmpdir())) {
    if (entry.startsWith(PREFIX)) rmSync(path.join(os.tmpdir(), entry), { recursive: true, force: true });
  }
}

let network: Network;
let database: DatabaseMachine;
let pool: pg.Pool;
let fake: MachineProcess;
let fakeBase: string;
const apis: Record<'api1' | 'api2', MachineProcess> = {} as never;
const workers: Partial<Record<WorkerName, MachineProcess>> = {};
const sockets: RealtimeClient[] = [];
let root: string;
let shared: NodeJS.ProcessEnv;

const apiBase = (name: 'api1' | 'api2') => `http://${network.machines[name].address}:${API_PORT}`;
const callApi1 = processApi(() => apiBase('api1'), 10_000);
const callApi2 = processApi(() => apiBase('api2'), 10_000);

let token: string;
let organizationId: string;
/** Single-step workflow (agent Solo) and two-step chain (Alpha, then Bravo). */
let soloWorkflow: string;
let chainWorkflow: string;

function startWorker(name: WorkerName) {
  const worker = startServerMachine(network, network.machines[name], 'worker', shared);
  workers[name] = worker;
  return worker.ready;
}

async function stopWorker(name: WorkerName) {
  const worker = workers[name];
  if (!worker) return;
  delete workers[name];
  if (worker.exitCode === null && worker.signalCode === null) {
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.kill('SIGTERM');
    await exited;
  }
}

/** The fake model's control API (apps/server/src/testing/fake-llm-server.ts). */
async function fakeControl(what: 'reset' | 'script' | 'requests', body?: unknown) {
  const res = await fetch(`${fakeBase}/__control/${what}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  if (!res.ok) throw new Error(`fake control ${what} answered ${res.status}`);
  return res.json() as Promise<unknown>;
}

/** Addresses of the machines that asked the fake model as `agent` about the run marked `marker`, in order. */
async function modelCallers(agent: string, marker?: string): Promise<string[]> {
  type Message = { role: string; content: unknown };
  const requests = (await fakeControl('requests')) as RecordedRequest[];
  return requests
    .filter((r) => {
      if (!r.path.endsWith('/chat/completions')) return false;
      const messages = r.body.messages as Message[];
      const text = (role: string) =>
        messages.filter((m) => m.role === role).map((m) => JSON.stringify(m.content));
      return (
        text('system').some((t) => t.includes(`You are ${agent},`)) &&
        (!marker || text('user').some((t) => t.includes(marker)))
      );
    })
    .map((r) => (r.from ?? '').replace(/^::ffff:/, ''));
}

const workerAt = (address: string) => WORKERS.find((name) => network.machines[name].address === address);

/** Queues a run through an API machine; its id. */
async function execute(call: ProcessApi, workflowId: string, task: string): Promise<string> {
  const queued = await call('POST', `/api/workflows/${workflowId}/execute`, { input: { task } }, token);
  if (queued.status !== 202)
    throw new Error(`execute answered ${queued.status}: ${JSON.stringify(queued.body)}`);
  return queued.body.id as string;
}

/** Waits until every run completed (failing at once if one failed), within `ms`. */
async function allCompleted(ids: string[], ms: number) {
  await expect
    .poll(
      async () => {
        const { rows } = await pool.query<{ id: string; status: string; error: string | null }>(
          'select id, status, error from workflow_executions where id = any($1::uuid[])',
          [ids],
        );
        const failed = rows.find((r) => r.status === 'failed');
        if (failed) throw new Error(`run ${failed.id} failed: ${failed.error}`);
        return rows.filter((r) => r.status === 'completed').length;
      },
      { timeout: ms, interval: 250 },
    )
    .toBe(ids.length);
}

/** Stored steps per run: node id → how many rows, and all completed. */
async function storedSteps(ids: string[]) {
  const { rows } = await pool.query<{ id: string; node: string; rows: number; completed: number }>(
    `select workflow_execution_id as id, node_id as node, count(*)::int as rows,
       count(*) filter (where status = 'completed')::int as completed
     from agent_executions where workflow_execution_id = any($1::uuid[]) group by 1, 2`,
    [ids],
  );
  const byRun = new Map<string, Record<string, string>>();
  for (const id of ids) byRun.set(id, {});
  for (const row of rows) byRun.get(row.id)![row.node] = `${row.rows} row(s), ${row.completed} completed`;
  return Object.fromEntries(byRun);
}

/**
 * Six chain runs whose Bravo (second) step is slow: returns once every run's Bravo call reached the
 * fake, with the worker machine holding the most of them in flight and the runs it holds.
 */
async function chainRunsMidBravo(label: string) {
  await fakeControl('reset');
  const markers = Array.from({ length: 6 }, (_, i) => `${label}-${i}`);
  // Alpha answers at once and its answer carries the marker into Bravo's request; Bravo thinks for
  // 8 s, longer than the fault, the lease (2 s) and the resumed attempt take together.
  await fakeControl('script', {
    replies: markers.flatMap((marker) => [
      { when: marker, content: `Alpha read ${marker}` },
      { when: marker, content: `Bravo (first attempt) read ${marker}`, delayMs: 8000 },
    ]),
  });
  const ids = new Map<string, string>();
  for (const [i, marker] of markers.entries()) {
    ids.set(marker, await execute(i % 2 ? callApi2 : callApi1, chainWorkflow, marker));
  }
  await expect.poll(async () => (await modelCallers('Bravo')).length, { timeout: 20_000 }).toBe(6);
  const holders = new Map<string, string>();
  for (const marker of markers) holders.set(marker, (await modelCallers('Bravo', marker))[0]);
  const counts = WORKERS.map(
    (name) =>
      [name, [...holders.values()].filter((a) => a === network.machines[name].address).length] as const,
  );
  const [victim] = [...counts].sort((a, b) => b[1] - a[1])[0];
  const victimMarkers = markers.filter((m) => holders.get(m) === network.machines[victim].address);
  return { markers, ids, victim, victimMarkers };
}

/**
 * After a worker was lost mid-Bravo: every run completed, each step stored once, Alpha (finished
 * before the fault) asked once per run, Bravo once per run, plus once more on another machine for
 * the runs the lost worker held; those runs are on their second attempt.
 */
async function expectExactlyOncePerStep(run: Awaited<ReturnType<typeof chainRunsMidBravo>>) {
  const victimAddress = network.machines[run.victim].address;
  const ids = [...run.ids.values()];
  const steps = await storedSteps(ids);
  for (const id of ids)
    expect(steps[id]).toEqual({ n1: '1 row(s), 1 completed', n2: '1 row(s), 1 completed' });
  for (const marker of run.markers) {
    expect(await modelCallers('Alpha', marker), marker).toHaveLength(1);
    const bravo = await modelCallers('Bravo', marker);
    if (run.victimMarkers.includes(marker)) {
      expect(bravo, marker).toHaveLength(2);
      expect(bravo[0]).toBe(victimAddress);
      expect(bravo[1]).not.toBe(victimAddress);
      expect(workerAt(bravo[1]), `${marker} resumed on a worker machine`).toBeDefined();
    } else {
      expect(bravo, marker).toHaveLength(1);
    }
  }
  const { rows } = await pool.query<{ id: string; attempt: number; result: string }>(
    'select id, attempt, result from workflow_executions where id = any($1::uuid[])',
    [ids],
  );
  for (const marker of run.markers) {
    const row = rows.find((r) => r.id === run.ids.get(marker))!;
    const lost = run.victimMarkers.includes(marker);
    expect(row.attempt, marker).toBe(lost ? 2 : 1);
    // The resumed Bravo got the fake's default answer; the lost attempt's answer never landed.
    expect(row.result, marker).toMatch(lost ? /^Fake reply to: / : /^Bravo \(first attempt\)/);
  }
}

describe.skipIf(skipReason)('several machines on one PostgreSQL', () => {
  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), PREFIX));
    // As root, Postgres runs as the "postgres" user and must enter the folder.
    chmodSync(root, 0o755);
    network = await createNetwork(PREFIX, MACHINES);
    const { machines } = network;
    database = await startDatabaseMachine(network, machines.db, path.join(root, 'db'));
    pool = new pg.Pool({ connectionString: database.url, max: 4 });
    pool.on('error', () => {});
    fake = startFakeLlmMachine(network, machines.llm);
    await fake.ready;
    fakeBase = `http://${machines.llm.address}:${FAKE_LLM_PORT}`;
    shared = {
      DATABASE_URL: database.url,
      DATA_DIR: path.join(root, 'machines'),
      JWT_SECRET: 'several-machines-test-secret-long-enough-0123',
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      // The fake model's machine, for model calls only (a private address is refused otherwise).
      EGRESS_ALLOW_LIST: `model:${machines.llm.address}:${FAKE_LLM_PORT}`,
      WORKER_CONCURRENCY: String(SLOTS),
      // A short lease so a lost worker's runs are resumed within seconds.
      RUN_LEASE_SECONDS: '2',
    };
    // One machine migrates first; the others would wait on its migration lock anyway.
    apis.api1 = startServerMachine(network, machines.api1, 'api', shared);
    await apis.api1.ready;
    apis.api2 = startServerMachine(network, machines.api2, 'api', shared);
    await Promise.all([apis.api2.ready, ...WORKERS.map(startWorker)]);

    const signup = await callApi1('POST', '/api/auth/signup', {
      username: 'machines',
      email: 'machines@example.com',
      password: 'machines1',
      confirmPassword: 'machines1',
      firstName: 'Many',
      lastName: 'Machines',
      role: 'user',
    });
    expect(signup.status).toBe(201);
    token = signup.body.token as string;
    organizationId = signup.body.organization.id as string;
    // Enterprise, paid by invoice: no monthly run limit, and 50 runs in progress at once (the plan's
    // default for its concurrency limit), well above the 12 the throughput part needs.
    await pool.query(
      `update subscriptions set plan = 'enterprise', subscription_status = 'active', payment_method = 'invoice',
         current_period_end = now() + interval '1 year', concurrent_runs = 50 where organization_id = $1`,
      [organizationId],
    );
    const configured = await callApi1(
      'PUT',
      '/api/tools/configurations/openai_config',
      { config: { apiKey: 'sk-machines', baseUrl: `${fakeBase}/v1` } },
      token,
    );
    expect(configured.status).toBe(200);
    const agent = async (name: string) => {
      const res = await callApi1(
        'POST',
        '/api/agents',
        { name, role: `${name} role`, goal: 'Help', llmModel: 'gpt-4o' },
        token,
      );
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const workflow = async (name: string, agentIds: string[]) => {
      const res = await callApi1(
        'POST',
        '/api/workflows',
        { name, status: 'active', ...chainOf(agentIds) },
        token,
      );
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    soloWorkflow = await workflow('Solo', [await agent('Solo')]);
    chainWorkflow = await workflow('Chain', [await agent('Alpha'), await agent('Bravo')]);
  }, 180_000);

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await pool?.end().catch(() => undefined);
    // A clean shutdown first, so the killed cluster leaves no shared memory behind.
    await database?.stop().catch(() => undefined);
    await network?.destroy();
    await cleanLeftovers(PREFIX);
    if (root) rmSync(root, { recursive: true, force: true });
  }, 60_000);

  // What each machine said is the first thing to read when a part fails.
  const printOutputOnFailure = () =>
    onTestFailed(() => {
      for (const [name, child] of Object.entries({ ...apis, ...workers, llm: fake })) {
        console.log(`--- ${name} ---\n${child?.output().slice(-4000)}`);
      }
      console.log(`--- db ---\n${database?.output().slice(-2000)}`);
    });

  it('runs submitted to either API machine complete on every worker machine; events reach the other API machine', async () => {
    printOutputOnFailure();
    const live = {
      api1: connectRealtime(`ws://${network.machines.api1.address}:${API_PORT}/ws?token=${token}`),
      api2: connectRealtime(`ws://${network.machines.api2.address}:${API_PORT}/ws?token=${token}`),
    };
    sockets.push(live.api1, live.api2);
    expect((await live.api1.subscribe(organizationId)).type).toBe('subscribed');
    expect((await live.api2.subscribe(organizationId)).type).toBe('subscribed');

    await fakeControl('reset');
    // Each answer takes a second, so twelve runs fill the three workers' twelve slots.
    await fakeControl('script', {
      replies: Array.from({ length: 12 }, () => ({ content: 'done', delayMs: 1000 })),
    });
    const submitted = { api1: [] as string[], api2: [] as string[] };
    for (let i = 0; i < 12; i++) {
      const via = i % 2 ? 'api2' : 'api1';
      submitted[via].push(await execute(via === 'api1' ? callApi1 : callApi2, soloWorkflow, `spread-${i}`));
    }
    const ids = [...submitted.api1, ...submitted.api2];
    await allCompleted(ids, 30_000);
    const { rows } = await pool.query<{ concurrency_limit: number }>(
      'select concurrency_limit from workflow_executions where id = $1',
      [ids[0]],
    );
    expect(rows[0].concurrency_limit).toBe(50);

    // Every worker machine did some of them (the fake saw its address), and only worker machines did.
    const callers = await modelCallers('Solo');
    const attempts = await pool.query<{ id: string; attempt: number }>(
      'select id, attempt from workflow_executions where id = any($1::uuid[]) and attempt <> 1',
      [ids],
    );
    expect(attempts.rows).toEqual([]);
    expect(callers).toHaveLength(12);
    expect(new Set(callers.map(workerAt))).toEqual(new Set(WORKERS));
    // Each socket heard every run finish: the ones queued through its own API machine and the other's.
    for (const socket of [live.api1, live.api2]) {
      for (const id of ids) {
        await socket.waitFor(
          (m) => m.type === 'workflow_execution_completed' && m.executionId === id,
          10_000,
        );
      }
    }
    const perWorker = Object.fromEntries(
      WORKERS.map((w) => [w, callers.filter((a) => workerAt(a) === w).length]),
    );
    console.log(`several machines: 12 runs via api1 and api2 done by ${JSON.stringify(perWorker)}`);
  });

  it('a worker machine whose processes are SIGKILLed mid-run: another worker resumes its runs after the lease, each step once', async () => {
    printOutputOnFailure();
    const run = await chainRunsMidBravo('kill');
    expect(run.victimMarkers.length).toBeGreaterThan(0);
    const killed = await network.killAll(network.machines[run.victim]);
    expect(killed).toBeGreaterThan(0);
    delete workers[run.victim];
    await allCompleted([...run.ids.values()], 30_000);
    await expectExactlyOncePerStep(run);
    console.log(
      `several machines: SIGKILL on ${run.victim} mid-run: ${run.victimMarkers.length} of 6 runs resumed elsewhere, each step stored once`,
    );
    // The machine comes back.
    await startWorker(run.victim);
  });

  it('a worker machine cut off the network mid-run: its runs are resumed elsewhere, and its late answers change nothing once it is back', async () => {
    printOutputOnFailure();
    const run = await chainRunsMidBravo('cut');
    expect(run.victimMarkers.length).toBeGreaterThan(0);
    const victim = network.machines[run.victim];
    await network.setCable(victim, 'down');
    try {
      await allCompleted([...run.ids.values()], 30_000);
    } finally {
      // Plugged back in, mostly before the fake's delayed answers (8 s after Bravo was asked) are due:
      // the cut worker gets them, or first hears from a lease renewal that its runs were taken over.
      // Either way it must not store a step of those runs again.
      await network.setCable(victim, 'up');
    }
    const ids = [...run.ids.values()];
    const before = await storedSteps(ids);
    // Until every delayed answer was sent and a few seconds more for the cut worker to act on it.
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    expect(await storedSteps(ids)).toEqual(before);
    await expectExactlyOncePerStep(run);
    // The cut worker itself is alive and works again.
    expect(workers[run.victim]!.exitCode).toBe(null);
    console.log(
      `several machines: ${run.victim} cut off mid-run: ${run.victimMarkers.length} of 6 runs resumed elsewhere, each step stored once`,
    );
  });

  it('the database machine restarting: every run in flight completes, each step once, and both API machines answer again', async () => {
    printOutputOnFailure();
    await fakeControl('reset');
    const markers = Array.from({ length: 6 }, (_, i) => `restart-${i}`);
    await fakeControl('script', {
      replies: markers.map((marker) => ({ when: marker, content: `Alpha read ${marker}`, delayMs: 2000 })),
    });
    const ids: string[] = [];
    for (const [i, marker] of markers.entries())
      ids.push(await execute(i % 2 ? callApi2 : callApi1, chainWorkflow, marker));
    await expect.poll(async () => (await modelCallers('Alpha')).length, { timeout: 20_000 }).toBe(6);

    await database.stop();
    expect((await callApi1('GET', '/api/health')).status).toBe(503);
    expect((await callApi2('GET', '/api/workflows', undefined, token)).status).toBe(503);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await database.start();

    for (const call of [callApi1, callApi2]) {
      await expect.poll(async () => (await call('GET', '/api/health')).status, { timeout: 20_000 }).toBe(200);
    }
    await allCompleted(ids, 60_000);
    const steps = await storedSteps(ids);
    for (const id of ids)
      expect(steps[id]).toEqual({ n1: '1 row(s), 1 completed', n2: '1 row(s), 1 completed' });
    // Realtime events sent while a process's LISTEN connection reconnects are lost (the browser
    // refetches then, platform/events.ts); once every machine listens again, they flow again.
    await expect
      .poll(
        async () =>
          (
            await pool.query(
              "select count(*)::int as n from pg_stat_activity where application_name = 'crewline-listener'",
            )
          ).rows[0].n,
        { timeout: 20_000 },
      )
      .toBe(5);
    // Through the API machine that was not asked for the run.
    const after = connectRealtime(`ws://${network.machines.api2.address}:${API_PORT}/ws?token=${token}`);
    sockets.push(after);
    expect((await after.subscribe(organizationId)).type).toBe('subscribed');
    const id = await execute(callApi1, soloWorkflow, 'after-restart');
    await allCompleted([id], 20_000);
    await after.waitFor((m) => m.type === 'workflow_execution_completed' && m.executionId === id, 20_000);
  });

  it(
    'throughput grows with worker machines: 1, 2 and 3 workers with 4 slots each finish about 4, 8 and 12 runs/s',
    { timeout: 240_000 },
    async () => {
      printOutputOnFailure();
      const table: {
        workers: number;
        runs: number;
        seconds: number;
        runsPerSecond: number;
        meanRunSeconds: number;
        lastQueuedAfter: number;
      }[] = [];
      await stopWorker('w2');
      await stopWorker('w3');
      for (const count of [1, 2, 3]) {
        if (count === 2) await startWorker('w2');
        if (count === 3) await startWorker('w3');
        if (!workers.w1) await startWorker('w1');
        await fakeControl('reset');
        // Twenty rounds of every slot (each model call takes 1 s): long enough that the first second or
        // so, while the runs are still being queued through the API machines (longer on a busy CI
        // machine), weighs little. The suite runs beside the browser tests, which take far longer.
        const runs = 20 * SLOTS * count;
        await fakeControl('script', {
          replies: Array.from({ length: runs }, () => ({ content: 'ok', delayMs: 1000 })),
        });
        const ids: string[] = [];
        // Queued faster than the workers take them (16 requests at a time, through both API machines).
        let next = 0;
        await Promise.all(
          Array.from({ length: 16 }, async () => {
            while (next < runs) {
              const i = next++;
              ids.push(await execute(i % 2 ? callApi2 : callApi1, soloWorkflow, `throughput-${count}-${i}`));
            }
          }),
        );
        await allCompleted(ids, 60_000);
        const { rows } = await pool.query<{ seconds: number; runSeconds: number; queuedSeconds: number }>(
          `select extract(epoch from max(completed_at) - min(started_at))::float8 as seconds,
           avg(extract(epoch from completed_at - started_at))::float8 as "runSeconds",
           extract(epoch from max(created_at) - min(started_at))::float8 as "queuedSeconds"
         from workflow_executions where id = any($1::uuid[])`,
          [ids],
        );
        const { seconds, runSeconds, queuedSeconds } = rows[0];
        table.push({
          workers: count,
          runs,
          seconds: Number(seconds.toFixed(2)),
          runsPerSecond: Number((runs / seconds).toFixed(2)),
          // What the time went on: a run's own duration (1 s of model call and the rest), and how long
          // after the first start the last run was queued.
          meanRunSeconds: Number(runSeconds.toFixed(2)),
          lastQueuedAfter: Number(queuedSeconds.toFixed(2)),
        });
        const callers = await modelCallers('Solo');
        expect(new Set(callers.map(workerAt)).size).toBe(count);
      }
      console.log('several machines: throughput (1 s per model call, WORKER_CONCURRENCY=4)');
      console.table(table);
      for (const row of table) {
        const expected = SLOTS * row.workers;
        expect(row.runsPerSecond, `${row.workers} worker(s)`).toBeGreaterThanOrEqual(expected * 0.8);
        expect(row.runsPerSecond, `${row.workers} worker(s)`).toBeLessThanOrEqual(expected * 1.2);
      }
    },
  );
});

// Says so in the test report too, not only in the log, when the machine does not allow namespaces.
if (skipReason) {
  describe('several machines on one PostgreSQL', () => {
    it.skip(`skipped: ${skipReason}`, () => {});
  });
}
