import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { MCP_GET_RUN_TOOL } from '@crewline/contracts';
import { processApi, signUpWithChain } from '../../testing/process-api';
import { startProcessCluster, type ProcessCluster } from '../../testing/process-cluster';
import type { ServerProcess } from '../../testing/server-process';

// docs/product-rules.md, MCP: the organization's server is stateless. Two API processes on one
// database and a worker process of their own: one MCP client's requests alternate between the two
// API processes (tools/list on one, tools/call on the other), and the process that waits for the
// run hears its end from the worker through Postgres.
let cluster: ProcessCluster;
let apis: ServerProcess[] = [];
let worker: ServerProcess;
const bases: string[] = [];
const call = processApi(() => bases[0]);

beforeAll(async () => {
  cluster = await startProcessCluster('mcp', (fake) => ({ EGRESS_ALLOW_LIST: `127.0.0.1:${fake.port}` }));
  apis = [cluster.start('api'), cluster.start('api')];
  worker = cluster.start('worker');
  bases.push(...(await Promise.all(apis.map((api) => api.url))));
  await worker.ready;
}, 60_000);

afterAll(() => cluster?.close());

describe('the MCP endpoint behind two API processes', () => {
  it('serves one client whose requests alternate between them', { timeout: 60_000 }, async () => {
    onTestFailed(() =>
      console.log(
        apis.map((api, i) => `--- api ${i} ---\n${api.output()}`).join('\n'),
        `\n--- worker ---\n${worker.output()}`,
      ),
    );
    const { token, organizationId, workflowId } = await signUpWithChain(call, cluster.fake, ['Forecaster']);
    const key = await call('POST', `/api/organizations/${organizationId}/api-keys`, { name: 'MCP' }, token);
    expect(key.status).toBe(201);
    const published = await call(
      'PUT',
      `/api/workflows/${workflowId}/publishing`,
      {
        mcp: {
          enabled: true,
          toolName: 'forecast',
          description: 'Forecast for a city',
          inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      },
      token,
    );
    expect(published.status).toBe(200);
    cluster.fake.script([{ content: 'Sunny in Lisbon', delayMs: 300 }]);

    // Each HTTP request goes to the next API process in turn; which one served what is kept.
    const served: { process: number; method: string }[] = [];
    let next = 0;
    const alternating = async (url: string | URL, init?: RequestInit) => {
      const process = next++ % bases.length;
      const target = new URL(url);
      target.host = new URL(bases[process]).host;
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : {};
      served.push({ process, method: body.method ?? init?.method ?? 'GET' });
      return fetch(target, init);
    };
    const client = new Client({ name: 'Claude', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${bases[0]}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key.body.key}` } },
        fetch: alternating,
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['forecast', MCP_GET_RUN_TOOL]);
      const result = await client.callTool({ name: 'forecast', arguments: { city: 'Lisbon' } });
      expect(result.isError).toBeFalsy();
      expect(result.content).toEqual([{ type: 'text', text: 'Sunny in Lisbon' }]);
    } finally {
      await client.close();
    }
    const processOf = (method: string) => served.find((s) => s.method === method)?.process;
    expect(processOf('tools/list')).toBeDefined();
    expect(processOf('tools/call')).toBeDefined();
    expect(processOf('tools/list')).not.toBe(processOf('tools/call'));

    // The run was the worker's, started over MCP by the client named Claude.
    const runs = await cluster.database.pool.query<{
      trigger: string;
      trigger_detail: string;
      status: string;
    }>('SELECT trigger, trigger_detail, status FROM workflow_executions WHERE workflow_id = $1', [
      workflowId,
    ]);
    expect(runs.rows).toEqual([{ trigger: 'mcp', trigger_detail: 'Claude', status: 'completed' }]);
  });
});
