import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Execution } from '@crewline/contracts';
import { startProcessCluster, type ProcessCluster } from '../../testing/process-cluster';
import { stopServerProcess, type ServerProcess } from '../../testing/server-process';
import { connectRealtime } from '../../testing/realtime-client';
import { chainOf } from '../../testing/workflow-shapes';

// docs/architecture.md, Runs with real processes: an API process and a worker process share one Postgres; the
// worker is SIGKILLed while the second of three agents is answering, after the workflow was edited.
// A new worker resumes the run on the version it started with, and the fake model's request log
// proves the finished agent was not paid for twice and the edit was not used.
let cluster: ProcessCluster;
let api: ServerProcess;

beforeAll(async () => {
  cluster = await startProcessCluster('durability', () => ({
    EGRESS_ALLOW_LIST: '127.0.0.1',
    // A short lease so the dead worker's run is handed over within seconds.
    RUN_LEASE_SECONDS: '2',
  }));
  api = cluster.start('api');
}, 60_000);

afterAll(() => cluster?.close());

/** Requests the fake model received for one agent (its name is in the system prompt). */
const callsTo = (agentName: string) =>
  cluster.fake.requests.filter(
    (r) =>
      r.path.endsWith('/chat/completions') &&
      (r.body.messages as { role: string; content: string }[]).some(
        (m) => m.role === 'system' && m.content.includes(agentName),
      ),
  ).length;

describe('a worker killed in the middle of a run', () => {
  it(
    'the run completes after a restart without calling the finished agents again',
    { timeout: 120_000 },
    async () => {
      const base = await api.url;
      const call = async (method: string, path: string, body?: unknown, token?: string) => {
        const res = await fetch(`${base}${path}`, {
          method,
          headers: {
            ...(body ? { 'content-type': 'application/json' } : {}),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: body ? JSON.stringify(body) : undefined,
        });
        return { status: res.status, body: (await res.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
      };
      const signup = await call('POST', '/api/auth/signup', {
        username: 'durable',
        email: 'durable@example.com',
        password: 'durable1',
        confirmPassword: 'durable1',
        firstName: 'Dura',
        lastName: 'Ble',
        role: 'user',
      });
      const token = signup.body.token as string;
      // The browser's view: events published by the worker processes reach the API process's /ws.
      const live = connectRealtime(`${base.replace('http', 'ws')}/ws?token=${token}`);
      expect((await live.subscribe(signup.body.organization.id as string)).type).toBe('subscribed');
      await call(
        'PUT',
        '/api/tools/configurations/openai_config',
        { config: { apiKey: 'sk-x', baseUrl: cluster.fake.url } },
        token,
      );
      const agents = [];
      for (const name of ['Alpha', 'Bravo', 'Charlie', 'Delta']) {
        const res = await call(
          'POST',
          '/api/agents',
          { name, role: `${name} role`, goal: 'Help', llmModel: 'gpt-4o' },
          token,
        );
        agents.push(res.body as { id: string });
      }
      const { nodes, edges } = chainOf(agents.slice(0, 3).map((a) => a.id));
      const workflow = await call(
        'POST',
        '/api/workflows',
        { name: 'Durable', status: 'active', nodes, edges },
        token,
      );
      expect(workflow.status).toBe(201);

      // Alpha answers at once; Bravo is still thinking when its worker dies.
      cluster.fake.script([{ content: 'ALPHA-DONE' }, { content: 'never delivered', delayMs: 60_000 }]);
      let worker = cluster.start('worker');
      await worker.ready;
      const queued = await call(
        'POST',
        `/api/workflows/${workflow.body.id}/execute`,
        { input: { task: 'go' } },
        token,
      );
      expect(queued.status).toBe(202);
      const id = queued.body.id as string;
      await expect.poll(() => callsTo('Bravo'), { timeout: 20_000 }).toBe(1);
      const midRun = (await call('GET', `/api/executions/${id}`, undefined, token)).body as Execution;
      expect(midRun.status).toBe('running');
      const stored = await cluster.database.pool.query(
        'select node_id from agent_executions where workflow_execution_id = $1',
        [id],
      );
      expect(stored.rows.map((r) => r.node_id)).toEqual(['n1']);
      expect(midRun.workflowVersion).toBe(1);

      // Meanwhile the workflow is edited while active (version 2: Alpha → Delta): the run keeps version 1.
      const edited = await call(
        'PUT',
        `/api/workflows/${workflow.body.id}`,
        { ...chainOf([agents[0].id, agents[3].id]), versionNote: 'Delta instead' },
        token,
      );
      expect(edited.status).toBe(200);

      await stopServerProcess(worker, 'SIGKILL');
      cluster.fake.script([{ content: 'BRAVO-DONE' }, { content: 'CHARLIE-DONE' }]);
      worker = cluster.start('worker');

      let done: Execution | undefined;
      await expect
        .poll(
          async () => {
            done = (await call('GET', `/api/executions/${id}`, undefined, token)).body as Execution;
            return done.status;
          },
          { timeout: 30_000, interval: 200 },
        )
        .toBe('completed');

      await live.waitFor((m) => m.type === 'workflow_execution_completed' && m.executionId === id);
      const progress = live.messages
        .filter((m) => m.executionId === id)
        .map((m) => `${m.type}:${m.nodeId ?? ''}`);
      expect(progress).toEqual(
        expect.arrayContaining([
          'workflow_execution_created:',
          'workflow_execution_started:',
          'execution_node_completed:n1',
          'execution_node_completed:n2',
          'execution_node_completed:n3',
        ]),
      );
      live.close();

      expect(callsTo('Alpha')).toBe(1); // finished before the crash: never called again
      expect(callsTo('Bravo')).toBe(2); // the interrupted call, then the resumed one
      expect(callsTo('Charlie')).toBe(1);
      expect(callsTo('Delta')).toBe(0); // version 2 came after the run started
      expect(done!.workflowVersion).toBe(1);
      expect(done!.result).toBe('CHARLIE-DONE');
      const output = done!.output as Record<string, { content: string }>;
      expect(output.n1.content).toBe('ALPHA-DONE');
      expect(output.n2.content).toBe('BRAVO-DONE');
      expect(output.n3.content).toBe('CHARLIE-DONE');
      expect(done!.metrics).toMatchObject({ steps: 3, attempts: 2 });
      // The killed attempt's log lines up to its last stored step survive it, before the resumed ones.
      const messages = (done!.logs as { message: string }[]).map((l) => l.message);
      const at = (prefix: string) => messages.findIndex((m) => m.startsWith(prefix));
      expect(at('Run started')).toBeGreaterThan(-1);
      expect(at('Alpha finished in')).toBeGreaterThan(at('Run started'));
      expect(at('Resumed (attempt 2)')).toBeGreaterThan(at('Alpha finished in'));
      expect(at('Run completed')).toBeGreaterThan(at('Resumed (attempt 2)'));
      const steps = await cluster.database.pool.query(
        'select node_id from agent_executions where workflow_execution_id = $1 order by completed_at',
        [id],
      );
      expect(steps.rows.map((r) => r.node_id)).toEqual(['n1', 'n2', 'n3']);

      // A graceful stop of the worker leaves no postgres backends or errors behind.
      expect(await stopServerProcess(worker)).toBe(0);
    },
  );
});
