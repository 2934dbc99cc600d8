import { CODE_MEMORY_MB, CODE_TIMEOUT_MS, codeMessages, nodeKinds } from '@crewline/contracts';
import { WorkflowRunError } from '../errors';
import { nodeName } from '../step-name';
import { noModelResult } from './no-model';
import type { EngineNodeKind } from './types';

const codeData = (data: Record<string, unknown> | undefined) =>
  nodeKinds.code.data.safeParse(data ?? {}).data ?? { language: 'javascript' as const, source: '' };

/**
 * Runs the node's JavaScript in the sandbox (the `runCode` port; docs/decisions/0046) with the run's
 * `input`, `nodes` and `vars` as plain JSON: the returned value is its data, its text that value as
 * JSON (a string as it is), and its `console.log` lines are kept in its record.
 */
export const codeKind: EngineNodeKind<'code'> = {
  kind: 'code',
  validate(nodes) {
    return nodes.flatMap((node) =>
      codeData(node.data).source.trim() ? [] : [codeMessages.noSource(nodeName(node))],
    );
  },
  executor: {
    async execute({ step, node, expressions }, ports) {
      const { source, timeoutMs, memoryMb } = codeData(node.data);
      if (!source.trim()) throw new WorkflowRunError(codeMessages.noSource(nodeName(node)));
      if (!ports.runCode)
        throw new WorkflowRunError(`Code "${nodeName(node)}" cannot run here: this run has no sandbox`);
      const { value, logs } = await ports.runCode({
        step,
        source,
        globals: { input: expressions.input ?? null, nodes: expressions.nodes, vars: expressions.vars },
        timeoutMs: timeoutMs ?? CODE_TIMEOUT_MS.default,
        memoryMb: memoryMb ?? CODE_MEMORY_MB.default,
      });
      const content = typeof value === 'string' ? value : JSON.stringify(value ?? null);
      const result = noModelResult('code', value ?? null, [], content);
      return { ...result, evaluation: { ...result.evaluation!, logs } };
    },
  },
};
