/** Node and edge lists of workflows the tests and benches run, as the builder would save them. */

/** Start → agent 1 → agent 2 → … → End; agent nodes are n1, n2, …. */
export function chainOf(agentIds: string[]) {
  const nodes = [
    { id: 'start', type: 'start' as const, position: { x: 0, y: 0 }, data: {} },
    ...agentIds.map((agentId, i) => ({
      id: `n${i + 1}`,
      type: 'agent' as const,
      agentId,
      position: { x: 200 * (i + 1), y: 0 },
      data: {},
    })),
    { id: 'end', type: 'end' as const, position: { x: 200 * (agentIds.length + 1), y: 0 }, data: {} },
  ];
  const edges = nodes.slice(1).map((node, i) => ({ id: `e${i}`, source: nodes[i].id, target: node.id }));
  return { nodes, edges };
}

/** Start → each agent → End, side by side (for parallel runs). */
export function fanOf(agentIds: string[]) {
  const { nodes } = chainOf(agentIds);
  const edges = agentIds.flatMap((_, i) => [
    { id: `s${i}`, source: 'start', target: `n${i + 1}` },
    { id: `t${i}`, source: `n${i + 1}`, target: 'end' },
  ]);
  return { nodes, edges };
}

/** Start → one map node `enrich` (over `input.leads`, running `run` for each) → End. */
export function mapOf(run: Record<string, unknown>, data: Record<string, unknown> = {}) {
  const nodes = [
    { id: 'start', type: 'start' as const, position: { x: 0, y: 0 }, data: {} },
    {
      id: 'enrich',
      type: 'map' as const,
      position: { x: 200, y: 0 },
      data: { label: 'Enrich', items: 'input.leads', run, ...data },
    },
    { id: 'end', type: 'end' as const, position: { x: 400, y: 0 }, data: {} },
  ];
  const edges = [
    { id: 'e1', source: 'start', target: 'enrich' },
    { id: 'e2', source: 'enrich', target: 'end' },
  ];
  return { nodes, edges };
}

const at = { x: 0, y: 0 };

/**
 * Start → draft (agent) → approve (an Approval step, `approval` added to its data) → approved: send |
 * rejected: sorry → End: the refund workflow of the approvals suites. `agents` names the drafter,
 * the sender and the apologizer.
 */
export function refundApprovalOf(
  agents: { drafter: string; sender: string; apologizer: string },
  approval: Record<string, unknown> = {},
) {
  return {
    nodes: [
      { id: 'start', type: 'start' as const, position: at, data: {} },
      {
        id: 'draft',
        type: 'agent' as const,
        agentId: agents.drafter,
        position: at,
        data: { label: 'Draft' },
      },
      {
        id: 'approve',
        type: 'approval' as const,
        position: at,
        data: {
          label: 'Approve refund',
          title: 'Refund {{ input.amount }} € to {{ input.customer }}?',
          ...approval,
        },
      },
      { id: 'send', type: 'agent' as const, agentId: agents.sender, position: at, data: { label: 'Send' } },
      {
        id: 'sorry',
        type: 'agent' as const,
        agentId: agents.apologizer,
        position: at,
        data: { label: 'Sorry' },
      },
      { id: 'end', type: 'end' as const, position: at, data: {} },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'draft' },
      { id: 'e2', source: 'draft', target: 'approve' },
      { id: 'e3', source: 'approve', target: 'send', sourceHandle: 'approved' },
      { id: 'e4', source: 'approve', target: 'sorry', sourceHandle: 'rejected' },
      { id: 'e5', source: 'send', target: 'end' },
      { id: 'e6', source: 'sorry', target: 'end' },
    ],
  };
}

/** Start → wait (a Delay step of a day, "Wait a day") → send (agent) → End. */
export function delayedSendOf(senderId: string) {
  return {
    nodes: [
      { id: 'start', type: 'start' as const, position: at, data: {} },
      { id: 'wait', type: 'delay' as const, position: at, data: { label: 'Wait a day', seconds: 86400 } },
      { id: 'send', type: 'agent' as const, agentId: senderId, position: at, data: { label: 'Send' } },
      { id: 'end', type: 'end' as const, position: at, data: {} },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'wait' },
      { id: 'e2', source: 'wait', target: 'send' },
      { id: 'e3', source: 'send', target: 'end' },
    ],
  };
}
