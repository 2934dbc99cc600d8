import { describe, expect, it } from 'vitest';
import type { CodeCall, RunDefinition, RunPorts } from '../run-workflow';
import { runWorkflow } from '../run-workflow';
import { codeKind } from './code';
import { taskOf, validationContext } from './kind-fixtures';

const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

describe('validating a code step', () => {
  it('needs code to run', () => {
    const errorsOf = (source: string) =>
      codeKind.validate([{ id: 'c', type: 'code', data: { label: 'Total', source } }], validationContext());
    expect(errorsOf('return 1')).toEqual([]);
    expect(errorsOf('  \n')).toEqual(['Code "Total" has no code to run']);
  });
});

/** Start → total (code) → route: large | else → end. */
const totals: RunDefinition = {
  processType: 'sequential',
  agents: {},
  nodes: [
    { id: 'start', type: 'start' },
    {
      id: 'total',
      type: 'code',
      data: { label: 'Total', source: 'return input.items.length', timeoutMs: 500 },
    },
    {
      id: 'route',
      type: 'condition',
      data: { branches: [{ id: 'large', label: 'Large', when: 'nodes.total.data > 2' }] },
    },
    { id: 'end', type: 'end' },
  ],
  edges: [
    { source: 'start', target: 'total' },
    { source: 'total', target: 'route' },
    { source: 'route', target: 'end', sourceHandle: 'large' },
    { source: 'route', target: 'end', sourceHandle: 'else' },
  ],
};

describe('a code step in a run', () => {
  it('hands the sandbox plain JSON and its limits, and its value is what later steps read', async () => {
    const calls: CodeCall[] = [];
    const port: RunPorts = {
      now: () => 0,
      callAgent: async () => ({ content: '', usage }),
      async runCode(call) {
        calls.push(call);
        return { value: (call.globals.input as { items: unknown[] }).items.length, logs: ['counted'] };
      },
    };
    const { output } = await runWorkflow(totals, { input: { items: [1, 2, 3] } }, port);
    expect(calls[0]).toMatchObject({
      source: 'return input.items.length',
      globals: { input: { items: [1, 2, 3] }, nodes: {}, vars: {} },
      timeoutMs: 500,
      memoryMb: 64,
    });
    expect(output.total).toMatchObject({ content: '3', data: 3 });
    expect(output.route.data).toEqual({ branch: 'large' });
  });

  it('keeps its console lines in its record, and a returned string as its text', async () => {
    const node = { id: 'c', type: 'code' as const, data: { source: 'console.log("hi"); return "hello"' } };
    const result = await codeKind.executor!.execute(taskOf(node), {
      callAgent: async () => ({ content: '', usage }),
      runCode: async () => ({ value: 'hello', logs: ['hi'] }),
    });
    expect(result).toMatchObject({
      content: 'hello',
      data: 'hello',
      evaluation: { kind: 'code', result: 'hello', logs: ['hi'] },
    });
  });

  it('fails its run where there is no sandbox', async () => {
    const port: RunPorts = { now: () => 0, callAgent: async () => ({ content: '', usage }) };
    await expect(runWorkflow(totals, { input: { items: [] } }, port)).rejects.toThrow(
      'Code "Total" cannot run here: this run has no sandbox',
    );
  });
});
