// The examples of the Workflow nodes guide: one support-triage workflow that uses every node kind, the
// answer of GET /api/executions/:id for one of its runs, and expressions. Plain data, so the docs chunk
// stays free of zod; workflow-examples.test.ts checks them against the contracts, the API's examples
// (the node kinds' `.meta()` in packages/contracts/src/node-kinds) and the engine's validation.

/** The classifier, the support agent (replies and order summaries) and the writer (its own output schema has `approved`). */
const CLASSIFIER_ID = '5b6f8a52-2f0e-4c1d-9a7e-3c2d1e0f9a41';
const SUPPORT_ID = '9c8d7e6f-5a4b-4c3d-8e2f-1a0b9c8d7e6f';
const WRITER_ID = '3a2b1c0d-9e8f-4a7b-8c6d-5e4f3a2b1c0d';
const TOOL_ID = 'e1c2d3f4-5a6b-4c7d-8e9f-0a1b2c3d4e5f';

type ExampleNode = {
  id: string;
  type: string;
  agentId?: string;
  position: { x: number; y: number };
  data: Record<string, unknown>;
};
type ExampleEdge = { id: string; source: string; target: string; sourceHandle?: string };

const node = (
  id: string,
  type: string,
  x: number,
  y: number,
  data: Record<string, unknown>,
  agentId?: string,
): ExampleNode => ({ id, type, ...(agentId ? { agentId } : {}), position: { x, y }, data });

/**
 * Start → classify → route: billing → lookup | bug, else → reply; → join → prepare → total → perOrder → draft
 * → screen: pass → approve, fail → End; approve: approved → wait → End | rejected, timeout → End.
 */
export const triageNodes: readonly ExampleNode[] = [
  node('start', 'start', 0, 160, { label: 'Start' }),
  node(
    'classify',
    'agent',
    220,
    160,
    {
      label: 'Classify',
      prompt: 'Classify this ticket from {{ input.customer }}:\n\n{{ input.subject }}\n{{ input.body }}',
      outputSchema: {
        type: 'object',
        properties: {
          category: { type: 'string', enum: ['billing', 'bug', 'other'] },
          urgent: { type: 'boolean' },
          orders: { type: 'array', items: { type: 'string' } },
        },
        required: ['category', 'urgent', 'orders'],
      },
    },
    CLASSIFIER_ID,
  ),
  node('route', 'condition', 440, 160, {
    label: 'Route',
    branches: [
      { id: 'billing', label: 'Billing', when: 'nodes.classify.data.category == "billing"' },
      {
        id: 'bug',
        label: 'Urgent bug',
        when: 'nodes.classify.data.category == "bug" && nodes.classify.data.urgent',
      },
    ],
  }),
  node('lookup', 'tool', 660, 60, {
    label: 'Look up orders',
    toolId: TOOL_ID,
    arguments: {
      customer: '{{ input.customer }}',
      orderIds: '{{ nodes.classify.data.orders }}',
      note: 'Ticket: {{ input.subject }}',
    },
  }),
  node('reply', 'agent', 660, 260, { label: 'General reply' }, SUPPORT_ID),
  node('join', 'merge', 880, 160, { label: 'Join', mode: 'all' }),
  node('prepare', 'transform', 1100, 160, {
    label: 'Prepare',
    assignments: [
      { name: 'orderCount', value: 'size(nodes.classify.data.orders)' },
      { name: 'priority', value: 'nodes.classify.data.urgent ? "high" : "normal"' },
    ],
  }),
  node('total', 'code', 1210, 300, {
    label: 'Total',
    language: 'javascript',
    source:
      'const total = input.items.reduce((sum, i) => sum + i.price, 0);\nreturn { total, large: total > 100 };',
  }),
  node('perOrder', 'map', 1320, 160, {
    label: 'Summarize each order',
    items: 'nodes.classify.data.orders',
    run: {
      agentId: SUPPORT_ID,
      prompt: 'Summarize order {{ item }} ({{ index + 1 }} of {{ vars.orderCount }})',
    },
    concurrency: 5,
    onItemError: 'continue',
  }),
  node('draft', 'loop', 1540, 160, {
    label: 'Draft until approved',
    run: {
      agentId: WRITER_ID,
      prompt:
        'Write the reply ({{ vars.priority }} priority).{{ last == null ? "" : " Reviewer notes: " + last.content }}',
    },
    until: 'last.data.approved == true',
    maxIterations: 3,
  }),
  node('screen', 'guardrail', 1650, 300, {
    label: 'Screen the answer',
    checks: [
      { type: 'pii', entities: ['email', 'card'], action: 'redact' },
      { type: 'secrets', action: 'block' },
      { type: 'injection', threshold: 0.7, action: 'flag' },
    ],
  }),
  node('approve', 'approval', 1760, 160, {
    label: 'Refund check',
    title: 'Refund for {{ input.customer }}?',
    message:
      'Refund the duplicate charge on {{ size(nodes.classify.data.orders) }} orders to {{ input.customer }}?',
    assignees: { roles: ['admin'] },
    policy: 'first',
    fields: [
      { name: 'amount', label: 'Amount to refund (€)', type: 'number', required: true },
      { name: 'note', label: 'Note to the customer', type: 'text', required: false },
    ],
    timeout: { seconds: 86400, onTimeout: 'branch' },
  }),
  node('wait', 'delay', 1980, 100, { label: 'Wait a day', seconds: 86400 }),
  node('about', 'note', 440, 360, {
    text: 'Billing tickets get their orders looked up; everything else gets a general reply.',
  }),
  node('end', 'end', 2200, 160, { label: 'End' }),
];

const edge = (source: string, target: string, sourceHandle?: string): ExampleEdge => ({
  id: `${source}-${sourceHandle ?? 'out'}-${target}`,
  source,
  target,
  ...(sourceHandle ? { sourceHandle } : {}),
});

export const triageEdges: readonly ExampleEdge[] = [
  edge('start', 'classify'),
  edge('classify', 'route'),
  edge('route', 'lookup', 'billing'),
  edge('route', 'reply', 'bug'),
  edge('route', 'reply', 'else'),
  edge('lookup', 'join'),
  edge('reply', 'join'),
  edge('join', 'prepare'),
  edge('prepare', 'total'),
  edge('total', 'perOrder'),
  edge('perOrder', 'draft'),
  edge('draft', 'screen'),
  edge('screen', 'approve', 'pass'),
  edge('screen', 'end', 'fail'),
  edge('approve', 'wait', 'approved'),
  edge('approve', 'end', 'rejected'),
  edge('approve', 'end', 'timeout'),
  edge('wait', 'end'),
];

/** The body of POST /api/workflows that creates it. */
export const triageWorkflow = {
  name: 'Support triage',
  description:
    'Classifies a ticket, looks up billing orders, summarizes them, drafts a reviewed reply and has an admin approve the refund.',
  processType: 'sequential',
  triggerType: 'manual',
  nodes: triageNodes,
  edges: triageEdges,
};

/** JSON on one line, with a space after each `,` and `:` (as the guide prints short values). */
function inlineJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inlineJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    return `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${inlineJson(v)}`).join(', ')} }`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * JSON indented by two spaces, with each object or list that fits in `width` columns on one line,
 * so a short value (a position, a list of names) does not take a line per item.
 */
export function formatJson(value: unknown, width = 76, indent = '', prefix = 0): string {
  const line = inlineJson(value);
  if (value === null || typeof value !== 'object' || indent.length + prefix + line.length <= width)
    return line;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    return `[\n${value.map((v) => inner + formatJson(v, width, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  const lines = entries.map(([k, v]) => {
    const key = `${JSON.stringify(k)}: `;
    return inner + key + formatJson(v, width, inner, key.length);
  });
  return `{\n${lines.join(',\n')}\n${indent}}`;
}

/** The example node of one kind. */
export const exampleNode = (type: string): ExampleNode => triageNodes.find((n) => n.type === type)!;

/** The node JSON the guide shows for a kind (its position left out: the canvas sets it). */
export const nodeJson = (type: string): string => {
  const { position: _, ...rest } = exampleNode(type);
  return formatJson(rest);
};

const triageInput = {
  customer: 'ada@example.com',
  subject: 'Charged twice for orders A-1001 and A-1002',
  body: 'My card was charged twice this week. Please refund the duplicate.',
  items: [
    { order: 'A-1001', price: 42.25 },
    { order: 'A-1002', price: 42.25 },
  ],
};

const usage = (promptTokens: number, completionTokens: number) => ({
  promptTokens,
  completionTokens,
  totalTokens: promptTokens + completionTokens,
});
const none = usage(0, 0);
const agentMeta = (agentName: string, role: string) => ({ agentName, role, model: 'gpt-4o-mini' });
const classifier = agentMeta('Ticket classifier', 'Support triage');
const support = agentMeta('Support agent', 'Support specialist');
const writer = agentMeta('Reply writer', 'Customer communication');
const replyText =
  'Hi Ada, we refunded the duplicate charge for orders A-1001 and A-1002. Sorry for the trouble!';
/** The admin's decision in the Inbox, with the form's answers. */
const refundAnswers = { amount: 84.5, note: 'Refunded within 3 days.' };
const refundDecision = {
  userId: '4e5f6a7b-8c9d-4e0f-a1b2-c3d4e5f6a7b8',
  userName: 'Alan Turing',
  decision: 'approve',
  comment: 'Duplicate confirmed with the bank.',
  fields: refundAnswers,
  at: '2026-12-02T10:02:41.000Z',
  via: 'inbox',
};

/**
 * GET /api/executions/:id for a run of the triage workflow that took the billing branch, whose refund
 * an admin approved in the Inbox 48 minutes later; it then waited a day.
 */
export const triageExecution = {
  id: '0b7c3e9a-6d2f-4a18-9c4e-5f1a2b3c4d5e',
  workflowId: '7d3e2c1b-0a9f-4e8d-8c7b-6a5f4e3d2c1b',
  workflowName: 'Support triage',
  processType: 'sequential',
  status: 'completed',
  workflowVersion: 3,
  input: triageInput,
  dynamicInstructions: null,
  parameters: {},
  output: {
    classify: {
      content: '{"category":"billing","urgent":true,"orders":["A-1001","A-1002"]}',
      metadata: classifier,
      executionTime: 1840,
      usage: usage(412, 31),
      kind: 'agent',
      data: { category: 'billing', urgent: true, orders: ['A-1001', 'A-1002'] },
      status: 'completed',
    },
    route: {
      content: '',
      metadata: {},
      executionTime: 1,
      usage: none,
      kind: 'condition',
      data: { branch: 'billing' },
      status: 'completed',
    },
    reply: {
      content: '',
      metadata: { baseNodeId: 'reply' },
      executionTime: 0,
      usage: none,
      kind: 'agent',
      status: 'skipped',
    },
    lookup: {
      content: '{"orders":[{"id":"A-1001","charged":2},{"id":"A-1002","charged":2}]}',
      metadata: {},
      executionTime: 236,
      usage: none,
      kind: 'tool',
      data: {
        orders: [
          { id: 'A-1001', charged: 2 },
          { id: 'A-1002', charged: 2 },
        ],
      },
      status: 'completed',
    },
    join: {
      content: '{"orders":[{"id":"A-1001","charged":2},{"id":"A-1002","charged":2}]}',
      metadata: {},
      executionTime: 0,
      usage: none,
      kind: 'merge',
      data: [
        {
          nodeId: 'lookup',
          content: '{"orders":[{"id":"A-1001","charged":2},{"id":"A-1002","charged":2}]}',
          data: {
            orders: [
              { id: 'A-1001', charged: 2 },
              { id: 'A-1002', charged: 2 },
            ],
          },
        },
      ],
      status: 'completed',
    },
    prepare: {
      content: '',
      metadata: {},
      executionTime: 0,
      usage: none,
      kind: 'transform',
      data: { orderCount: 2, priority: 'high' },
      status: 'completed',
    },
    total: {
      content: '{"total":84.5,"large":false}',
      metadata: {},
      executionTime: 14,
      usage: none,
      kind: 'code',
      data: { total: 84.5, large: false },
      status: 'completed',
    },
    'perOrder[0]': {
      content: 'A-1001: charged twice on 3 March.',
      metadata: { ...support, baseNodeId: 'perOrder' },
      executionTime: 910,
      usage: usage(96, 12),
      kind: 'agent',
      status: 'completed',
    },
    'perOrder[1]': {
      content: 'A-1002: charged twice on 3 March.',
      metadata: { ...support, baseNodeId: 'perOrder' },
      executionTime: 880,
      usage: usage(96, 12),
      kind: 'agent',
      status: 'completed',
    },
    perOrder: {
      content: 'A-1001: charged twice on 3 March.\n\nA-1002: charged twice on 3 March.',
      metadata: {},
      executionTime: 915,
      usage: none,
      kind: 'map',
      data: [
        { index: 0, status: 'completed', content: 'A-1001: charged twice on 3 March.', data: null },
        { index: 1, status: 'completed', content: 'A-1002: charged twice on 3 March.', data: null },
      ],
      status: 'completed',
    },
    'draft#1': {
      content: replyText,
      metadata: { ...writer, baseNodeId: 'draft' },
      executionTime: 1520,
      usage: usage(180, 40),
      kind: 'agent',
      data: { reply: replyText, approved: true },
      status: 'completed',
    },
    draft: {
      content: replyText,
      metadata: {},
      executionTime: 1525,
      usage: none,
      kind: 'loop',
      data: [
        { index: 0, status: 'completed', content: replyText, data: { reply: replyText, approved: true } },
      ],
      status: 'completed',
    },
    screen: {
      content: replyText,
      metadata: {},
      executionTime: 640,
      usage: usage(120, 4),
      kind: 'guardrail',
      data: { passed: true, text: replyText, findings: [] },
      status: 'completed',
    },
    approve: {
      content: 'Approved by Alan Turing',
      metadata: {},
      executionTime: 2912399,
      usage: none,
      kind: 'approval',
      data: { decision: 'approved', decisions: [refundDecision], fields: refundAnswers },
      status: 'completed',
    },
    wait: {
      content: '',
      metadata: {},
      executionTime: 86400000,
      usage: none,
      kind: 'delay',
      data: { until: '2026-12-03T10:02:41.000Z' },
      status: 'completed',
    },
  },
  metrics: { ...usage(904, 99), durationMs: 89317900, steps: 15 },
  logs: [],
  result: replyText,
  error: null,
  failedStep: null,
  retryOf: null,
  retriedBy: null,
  trigger: 'manual',
  triggerDetail: null,
  triggeredBy: '2c4e6a8b-1d3f-4a5b-8c7d-9e0f1a2b3c4d',
  triggeredByName: 'Grace Hopper',
  startedAt: '2026-12-02T09:14:03.120Z',
  completedAt: '2026-12-03T10:02:41.020Z',
  // The approval's 48 min 32 s and the delay's day: of its 24 h 49 min, the run worked 5.5 s.
  waitedMs: 89312399,
  createdAt: '2026-12-02T09:14:03.050Z',
  untrusted: false,
  waiting: null,
};

/** What an expression reads, with an example each (the scope says where it may be written). */
export const expressionExamples: readonly {
  expression: string;
  gives: string;
  scope: 'workflow' | 'map' | 'loop';
}[] = [
  {
    expression: 'nodes.classify.data.category == "billing"',
    gives: 'Whether the Classify step’s structured answer says billing.',
    scope: 'workflow',
  },
  {
    expression: 'size(input.items) > 0',
    gives: 'Whether the run’s input has a non-empty items list.',
    scope: 'workflow',
  },
  {
    expression: 'vars.total * 2',
    gives: 'Twice the total a Transform before this node set.',
    scope: 'workflow',
  },
  {
    expression: 'nodes.classify.status == "completed"',
    gives: 'Whether Classify ran (not skipped).',
    scope: 'workflow',
  },
  {
    expression: 'has(input.customer) ? input.customer : "unknown"',
    gives: 'A field that may be missing, with a fallback.',
    scope: 'workflow',
  },
  {
    expression: 'input.items.filter(i, i.price > 100).map(i, i.name)',
    gives: 'The names of the input’s items above 100.',
    scope: 'workflow',
  },
  { expression: 'run.trigger == "webhook"', gives: 'Whether a webhook started this run.', scope: 'workflow' },
  { expression: 'item.email', gives: 'In a map: a field of the current item.', scope: 'map' },
  { expression: 'index + 1', gives: 'In a map: the item’s position, from 1.', scope: 'map' },
  {
    expression: 'last.data.approved == true',
    gives: 'In a loop: the pass that just finished was approved.',
    scope: 'loop',
  },
];
