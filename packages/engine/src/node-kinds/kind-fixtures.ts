// What the kinds' tests give validation and executors (tests only).
import type { ExpressionContext } from '../expressions';
import type { NodeValidationContext, StepTask } from './types';

/** A validation context: no agent exists, nothing is upstream, no edges, a sequential workflow. */
export const validationContext = (overrides: Partial<NodeValidationContext> = {}): NodeValidationContext => ({
  agentExists: () => false,
  processType: 'sequential',
  outgoing: () => [],
  scopeOf: () => ({ nodes: {}, vars: [] }),
  ...overrides,
});

/** What expressions read in a run that has just started with `input`. */
const expressionsOf = (overrides: Partial<ExpressionContext> = {}): ExpressionContext => ({
  input: {},
  nodes: {},
  vars: {},
  run: { id: 'run-1', trigger: 'manual', startedAt: '2026-12-01T10:00:00.000Z' },
  ...overrides,
});

/** A step task for `node`, with nothing upstream. */
export const taskOf = (node: StepTask['node'], overrides: Partial<StepTask> = {}): StepTask => ({
  step: { nodeId: node.id, baseNodeId: node.id, agentId: null, kind: node.type },
  node,
  user: '',
  expressions: expressionsOf(),
  inputs: [],
  run: {
    agentById: () => undefined,
    // Child steps run at once, without the run's lifecycle (run-workflow.test.ts covers that).
    child: async (parent, stepId, ref, work) => ({
      ...(await work({ nodeId: stepId, baseNodeId: parent.baseNodeId, ...ref })),
      executionTime: 0,
      kind: ref.kind,
      status: 'completed',
    }),
  },
  ...overrides,
});
