// Which edges of a workflow a run went along, from what is known of its nodes (docs/product-rules.md,
// "Run review"): a path is taken once its source finished (a condition: only along the branch it
// took) and its target ran; it is not taken when either end was skipped or a condition took another
// branch. Everything else is unmarked: a run in progress shows only what it knows. Shared by the run
// graph (features/runs) and the builder's live marks (features/workflows/builder); pure, for tests.

/** What the paths need of a node's state in a run (the run graph's statuses and the live marks both fit). */
export interface PathNodeMark {
  status: string;
  /** A condition that completed: the branch it took (a branch id, or `else`). */
  branch?: string;
}

export type EdgePathMark = 'taken' | 'not-taken';

type PathEdge = { id: string; source: string; target: string; sourceHandle?: string | null };
type PathNode = { id: string; type: string };

const FINISHED = new Set(['completed', 'reused']);
const RAN = new Set(['running', 'completed', 'failed', 'reused']);

export function edgePathMarks(
  edges: readonly PathEdge[],
  nodes: readonly PathNode[],
  marks: Readonly<Record<string, PathNodeMark | undefined>>,
): Record<string, EdgePathMark> {
  const typeOf = new Map(nodes.map((node) => [node.id, node.type]));
  // Start has no mark of its own: it is passed once any step ran.
  const started = Object.values(marks).some((mark) => mark && RAN.has(mark.status));
  const finished = (id: string) =>
    typeOf.get(id) === 'start' ? started : FINISHED.has(marks[id]?.status ?? '');
  const result: Record<string, EdgePathMark> = {};
  for (const edge of edges) {
    const source = marks[edge.source];
    const target = marks[edge.target];
    const isCondition = typeOf.get(edge.source) === 'condition';
    const branch = isCondition ? source?.branch : undefined;
    if (source?.status === 'skipped' || target?.status === 'skipped') result[edge.id] = 'not-taken';
    else if (branch !== undefined && (edge.sourceHandle ?? null) !== branch) result[edge.id] = 'not-taken';
    else if (!finished(edge.source)) continue;
    else if (isCondition && branch === undefined) continue;
    else if (isCondition || typeOf.get(edge.target) === 'end' || RAN.has(target?.status ?? ''))
      result[edge.id] = 'taken';
  }
  return result;
}
