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
