// One run's state as the web knows it, folded from its realtime events and its read from the server
// (GET /api/executions/:id). One state per execution serves every view of a run: the builder's canvas
// marks (`nodes`), the run panel and the run details (`steps`, their answers as the model streams
// them), and the executions cards' step line (`heard`). The store that keeps one per run and the hook
// that reads it are in run-store.ts; this module stays pure. Workflows that decide (conditions) add
// two facts: the path a condition took (`branch` on its mark) and the nodes whose path was not taken
// (`skipped`, never run, so never counted as steps). A map's items (`map[3]`) and a loop's passes
// (`loop#2`) are child steps of their node: they are steps, but never their node's mark; they count
// as its progress (`items`: `37/100`, `pass 2`). People in the loop add a waiting run (`waiting`:
// for an approval or a time, holding no worker) and a node's waiting mark (its step started and now
// waits for the decision or the delay).
import {
  stepNodeId,
  type Execution,
  type ExecutionWait,
  type NodeOutput,
  type RealtimeEvent,
  type RealtimeEventType,
} from '@crewline/contracts';

export type RunStatus = 'running' | 'waiting' | 'completed' | 'failed' | 'cancelled';
type StepStatus = 'running' | 'completed' | 'failed';
/** A node's mark: a step's status, or waiting (an approval or a delay the run stopped at). */
export type NodeStatus = StepStatus | 'waiting';

/** A workflow node's mark on the canvas (a delegation's step marks its co-worker's node). */
export interface NodeRunState {
  status: NodeStatus;
  /** Milliseconds the agent took (completed nodes). */
  executionTime?: number;
  totalTokens?: number;
  /** A condition that completed: the path it took (a branch id, or `else`). */
  branch?: string;
}

/** One step as it happens. */
export interface RunStep {
  /** The step's id: its node id, or `${baseNodeId}#n` for a hierarchical delegation. */
  stepId: string;
  /** The workflow node it runs. */
  baseNodeId: string;
  agentName: string | null;
  status: StepStatus;
  /** The answer streamed so far. */
  text: string;
  /** How far into the answer `text` reaches (updates say where they start). */
  end: number;
  /** Some of the answer was not heard (the view opened mid-step, or an update was lost). */
  missed: boolean;
  executionTime?: number;
  totalTokens?: number;
  error?: string;
  /** The step waits (an approval, a delay): it writes no answer meanwhile. */
  waiting?: true;
}

/** The step events heard, by workflow node (a delegation counts as its co-worker's node). */
export interface StepsHeard {
  /** Nodes whose step started, in the order they started (a node started again moves to the end). */
  started: string[];
  /** Nodes whose latest step ended (completed or failed). */
  ended: string[];
}

export const NOTHING_HEARD: StepsHeard = { started: [], ended: [] };

export interface RunState {
  executionId: string;
  workflowId: string | null;
  /** Null until the run is heard starting or read (a pending run counts as running). */
  status: RunStatus | null;
  error: string | null;
  /** What a waiting run waits for (its event or its read); null otherwise. */
  waiting: ExecutionWait | null;
  nodes: Record<string, NodeRunState>;
  /**
   * Nodes whose path was not taken, as their events or the stored output said: they never run. Kept
   * apart from `nodes` (the steps that ran) so a skipped node is never counted as a step.
   */
  skipped: Readonly<Record<string, true>>;
  /** In the order they started. */
  steps: RunStep[];
  /** Step events only: what the stored outputs say is merged by the card (see heardFromOutput). */
  heard: StepsHeard;
  /** A map's items and a loop's passes, by the map's or loop's node id. */
  items: Readonly<Record<string, NodeItems>>;
}

/** A map's or a loop's child steps as heard or read. */
export interface NodeItems {
  /**
   * Items the map goes over (its items event, or its stored data once it finished); null while
   * unknown (a run read mid-way: the count is not stored until the map ends) and for a loop.
   */
  total: number | null;
  /** Each child step by its id (`map[3]`, `loop#2`): running, completed or failed. */
  children: Readonly<Record<string, StepStatus>>;
}

/** What a map or a loop shows of its progress. */
export interface ItemProgress {
  total: number | null;
  /** Items completed. */
  done: number;
  /** Items failed (a map that keeps the error and goes on, or the one that stopped it). */
  failed: number;
  /** A loop's latest pass (1 for `loop#1`); null for a map. */
  pass: number | null;
}

const ITEM_ID = /\[(\d+)\]$/;
const PASS_ID = /#(\d+)$/;

/**
 * A map's item (`map[3]`, `item` 3) or a loop's pass (`loop#2`, `pass` 2) of node `baseNodeId`, else
 * null. A hierarchical delegation (`coder#2`) has the pass form too: callers tell them apart.
 */
export function childStepOf(stepId: string, baseNodeId: string): { kind: 'item' | 'pass'; n: number } | null {
  if (stepId.length <= baseNodeId.length || !stepId.startsWith(baseNodeId)) return null;
  const rest = stepId.slice(baseNodeId.length);
  const item = ITEM_ID.exec(rest);
  if (item && item.index === 0) return { kind: 'item', n: Number(item[1]) };
  const pass = PASS_ID.exec(rest);
  if (pass && pass.index === 0) return { kind: 'pass', n: Number(pass[1]) };
  return null;
}

/** The counts a map or a loop shows, from its child steps. */
export function itemProgress(items: NodeItems): ItemProgress {
  let done = 0;
  let failed = 0;
  let pass: number | null = null;
  for (const [id, status] of Object.entries(items.children)) {
    if (status === 'completed') done += 1;
    else if (status === 'failed') failed += 1;
    const match = PASS_ID.exec(id);
    if (match) pass = Math.max(pass ?? 0, Number(match[1]));
  }
  return { total: items.total, done, failed, pass };
}

export const RUN_EVENTS = [
  'workflow_execution_started',
  'workflow_execution_completed',
  'workflow_execution_failed',
  'workflow_execution_cancelled',
  'workflow_execution_waiting',
  'execution_node_started',
  'execution_node_delta',
  'execution_node_completed',
  'execution_node_failed',
  'execution_node_skipped',
  'execution_node_waiting',
  'execution_node_items',
] as const satisfies readonly RealtimeEventType[];

/** Marks a gap in a streamed answer (at its start when the view opened mid-step). */
export const GAP = ' … ';

export function emptyRun(executionId: string, workflowId: string | null = null): RunState {
  return {
    executionId,
    workflowId,
    status: null,
    error: null,
    waiting: null,
    nodes: {},
    skipped: {},
    steps: [],
    heard: NOTHING_HEARD,
    items: {},
  };
}

function newStep(stepId: string, baseNodeId: string): RunStep {
  return { stepId, baseNodeId, agentName: null, status: 'running', text: '', end: 0, missed: false };
}

/** `text` continuing the answer at `offset`: appended, its overlap dropped, a gap marked. */
function withUpdate(step: RunStep, offset: number, text: string): RunStep {
  const end = offset + text.length;
  if (end <= step.end) return step; // heard already
  if (offset <= step.end) return { ...step, text: step.text + text.slice(step.end - offset), end };
  return { ...step, text: `${step.text}${GAP}${text}`, end, missed: true };
}

/** The record of steps heard after one step event (a skipped node ends without starting). */
export function heardStep(heard: StepsHeard, event: { type: string; baseNodeId: string }): StepsHeard {
  const node = event.baseNodeId;
  if (event.type === 'execution_node_started') {
    return {
      started: [...heard.started.filter((id) => id !== node), node],
      ended: heard.ended.filter((id) => id !== node),
    };
  }
  return heard.ended.includes(node) ? heard : { ...heard, ended: [...heard.ended, node] };
}

/** `change` applied to the nodes still under way (running or waiting); null drops the mark. */
function mapRunningNodes(
  nodes: Record<string, NodeRunState>,
  change: (node: NodeRunState) => NodeRunState | null,
): Record<string, NodeRunState> {
  const next: Record<string, NodeRunState> = {};
  for (const [id, node] of Object.entries(nodes)) {
    const changed = node.status === 'running' || node.status === 'waiting' ? change(node) : node;
    if (changed) next[id] = changed;
  }
  return next;
}

type StepEvent = Extract<RealtimeEvent, { nodeId: string; baseNodeId: string }>;

/**
 * Whether a step event is a map's item or a loop's pass: an item always; a `#n` step only when its
 * node ran as a step of its own (a loop) or is known to have children, never a hierarchical
 * delegation (its co-worker never runs under its own id).
 */
function isChildEvent(state: RunState, event: StepEvent): boolean {
  const child = childStepOf(event.nodeId, event.baseNodeId);
  if (!child) return false;
  if (child.kind === 'item') return true;
  return !!state.items[event.baseNodeId] || state.steps.some((step) => step.stepId === event.baseNodeId);
}

const ENDED: ReadonlySet<StepStatus> = new Set(['completed', 'failed']);

/** A child's status after one of its events: an ended child stays ended (events may arrive late). */
function childStatus(was: StepStatus | undefined, event: StepEvent): StepStatus | null {
  if (event.type === 'execution_node_started') return was && ENDED.has(was) ? null : 'running';
  if (event.type === 'execution_node_completed') return 'completed';
  if (event.type === 'execution_node_failed') return 'failed';
  return null;
}

function withChild(state: RunState, baseNodeId: string, childId: string, status: StepStatus): RunState {
  const was = state.items[baseNodeId] ?? { total: null, children: {} };
  if (was.children[childId] === status) return state;
  return {
    ...state,
    items: { ...state.items, [baseNodeId]: { ...was, children: { ...was.children, [childId]: status } } },
  };
}

/**
 * A child step's event: the step itself as any other, and its node's progress; its node's mark and
 * the steps heard stay its node's own (a node heard only by its children is running).
 */
function reduceChild(state: RunState, event: StepEvent): RunState {
  const { nodeId, baseNodeId } = event;
  const stepped = reduceStep(state, event, { child: true });
  const status = childStatus(state.items[baseNodeId]?.children[nodeId], event);
  let next = status ? withChild(stepped, baseNodeId, nodeId, status) : stepped;
  if (event.type !== 'execution_node_delta' && !next.nodes[baseNodeId] && !next.skipped[baseNodeId]) {
    next = {
      ...next,
      status: next.status ?? 'running',
      nodes: { ...next.nodes, [baseNodeId]: { status: 'running' } },
      heard: heardStep(next.heard, { type: 'execution_node_started', baseNodeId }),
    };
  }
  return next;
}

function reduceItems(state: RunState, event: Extract<RealtimeEvent, { type: 'execution_node_items' }>) {
  const was = state.items[event.baseNodeId] ?? { total: null, children: {} };
  if (was.total === event.total) return state;
  return {
    ...state,
    status: state.status ?? 'running',
    items: { ...state.items, [event.baseNodeId]: { ...was, total: event.total } },
  };
}

function withoutWaiting(step: RunStep): RunStep {
  if (!step.waiting) return step;
  const { waiting: _done, ...rest } = step;
  return rest;
}

/**
 * A step that now waits (an approval, a delay): its node marked waiting, the step kept running but
 * flagged (no answer streams meanwhile). A child step's wait is its node's progress only.
 */
function reduceWaitingStep(
  state: RunState,
  event: Extract<RealtimeEvent, { type: 'execution_node_waiting' }>,
) {
  const index = state.steps.findIndex((step) => step.stepId === event.nodeId);
  const current = index >= 0 ? state.steps[index]! : newStep(event.nodeId, event.baseNodeId);
  if (current.status !== 'running') return state;
  const step: RunStep = { ...current, waiting: true };
  const steps = index >= 0 ? state.steps.map((was, i) => (i === index ? step : was)) : [...state.steps, step];
  if (event.nodeId !== event.baseNodeId && childStepOf(event.nodeId, event.baseNodeId))
    return { ...state, steps };
  const wasStarted = state.heard.started.includes(event.baseNodeId);
  return {
    ...state,
    status: state.status ?? 'running',
    steps,
    nodes: { ...state.nodes, [event.baseNodeId]: { status: 'waiting' as const } },
    heard: wasStarted
      ? state.heard
      : heardStep(state.heard, { type: 'execution_node_started', baseNodeId: event.baseNodeId }),
  };
}

function reduceStep(state: RunState, event: StepEvent, { child = false } = {}): RunState {
  const index = state.steps.findIndex((step) => step.stepId === event.nodeId);
  const current = index >= 0 ? state.steps[index] : newStep(event.nodeId, event.baseNodeId);
  let step: RunStep;
  let node: NodeRunState | null = null;
  switch (event.type) {
    case 'execution_node_started':
      step = { ...current, agentName: event.agentName ?? current.agentName };
      node = { status: 'running' };
      break;
    case 'execution_node_delta':
      // The answer streams; the run's marks and record of steps do not change.
      if (current.status !== 'running') return state;
      step = withUpdate(current, event.offset, event.text);
      if (step === current) return state;
      break;
    case 'execution_node_completed':
      step = {
        ...withoutWaiting(current),
        status: 'completed',
        executionTime: event.executionTime,
        totalTokens: event.totalTokens,
      };
      node = {
        status: 'completed',
        executionTime: event.executionTime,
        totalTokens: event.totalTokens,
        ...(event.branch !== undefined ? { branch: event.branch } : {}),
      };
      break;
    case 'execution_node_failed':
      step = { ...withoutWaiting(current), status: 'failed', error: event.error };
      node = { status: 'failed' };
      break;
    default:
      return state;
  }
  const steps = index >= 0 ? state.steps.map((was, i) => (i === index ? step : was)) : [...state.steps, step];
  if (!node || child) return { ...state, steps };
  return {
    ...state,
    // A run heard only by its steps (the view opened mid-run) is running.
    status: state.status ?? 'running',
    steps,
    nodes: { ...state.nodes, [event.baseNodeId]: node },
    heard: heardStep(state.heard, event),
  };
}

/** A node whose path was not taken: marked skipped, never a step (it has no card and no tokens). */
function reduceSkipped(state: RunState, event: Extract<RealtimeEvent, { type: 'execution_node_skipped' }>) {
  const node = event.baseNodeId;
  if (state.skipped[node] && state.heard.ended.includes(node)) return state;
  const { [node]: _ran, ...nodes } = state.nodes;
  return {
    ...state,
    status: state.status ?? 'running',
    nodes,
    skipped: { ...state.skipped, [node]: true as const },
    heard: heardStep(state.heard, event),
  };
}

/** The run after one of its realtime events; events of other runs change nothing. */
export function reduceRun(state: RunState, event: RealtimeEvent): RunState {
  if (!('executionId' in event) || event.executionId !== state.executionId) return state;
  const workflowId = state.workflowId ?? event.workflowId;
  const base = workflowId === state.workflowId ? state : { ...state, workflowId };
  switch (event.type) {
    case 'workflow_execution_started':
      // Also a waiting run going on (its decision taken, its delay over).
      return base.status === 'running' && base.waiting === null
        ? base
        : { ...base, status: 'running', waiting: null };
    case 'workflow_execution_waiting': {
      // The step it waits at is marked waiting (its own event may come later, or was missed).
      const node = base.nodes[event.waiting.nodeId];
      const ended = node && node.status !== 'running' && node.status !== 'waiting';
      return {
        ...base,
        status: 'waiting',
        waiting: event.waiting,
        nodes: ended ? base.nodes : { ...base.nodes, [event.waiting.nodeId]: { status: 'waiting' } },
      };
    }
    case 'execution_node_waiting':
      return reduceWaitingStep(base, event);
    case 'execution_node_started':
    case 'execution_node_delta':
    case 'execution_node_completed':
    case 'execution_node_failed': {
      const next = isChildEvent(base, event) ? reduceChild(base, event) : reduceStep(base, event);
      return next === base ? state : next;
    }
    case 'execution_node_items': {
      const next = reduceItems(base, event);
      return next === base ? state : next;
    }
    case 'execution_node_skipped': {
      const next = reduceSkipped(base, event);
      return next === base ? state : next;
    }
    case 'workflow_execution_completed':
      return { ...base, status: 'completed', waiting: null };
    case 'workflow_execution_failed':
      // A step that failed said so (execution_node_failed); one still running failed with the run
      // (its output could not be delivered, or its failure event was missed).
      return {
        ...base,
        status: 'failed',
        waiting: null,
        error: event.error,
        nodes: mapRunningNodes(base.nodes, () => ({ status: 'failed' })),
      };
    case 'workflow_execution_cancelled':
      // A cancelled node neither finished nor failed: its mark goes.
      return { ...base, status: 'cancelled', waiting: null, nodes: mapRunningNodes(base.nodes, () => null) };
    default:
      return state;
  }
}

/**
 * The parts of a run read from the server (GET /api/executions/:id, or a list's summary) a seed reads;
 * `steps` (the details' read) adds the failed ones.
 */
export type RunRead = Pick<Execution, 'id' | 'workflowId' | 'status' | 'output'> &
  Partial<Pick<Execution, 'steps' | 'waiting'>>;

/** A condition's stored `data`: `{ branch }`. */
export function branchOf(step: Pick<NodeOutput, 'kind' | 'data'>): string | undefined {
  if (step.kind !== 'condition' || typeof step.data !== 'object' || step.data === null) return undefined;
  const branch = (step.data as { branch?: unknown }).branch;
  return typeof branch === 'string' ? branch : undefined;
}

function finishedStep(step: NodeOutput): NodeRunState {
  const branch = branchOf(step);
  return {
    status: 'completed',
    executionTime: step.executionTime,
    totalTokens: step.usage.totalTokens,
    ...(branch !== undefined ? { branch } : {}),
  };
}

/** A stored entry that is a map's item or a loop's pass (a delegation names who delegated it). */
function isStoredChild(stepId: string, step: NodeOutput): boolean {
  const node = stepNodeId(stepId, step);
  return node !== stepId && !step.metadata.delegatedBy && childStepOf(stepId, node) !== null;
}

/** A finished map's or loop's stored `data`: its items' results `[{ index, status }]`. */
function storedResults(step: NodeOutput): { index: number; failed: boolean }[] | null {
  if ((step.kind !== 'map' && step.kind !== 'loop') || !Array.isArray(step.data)) return null;
  return step.data.flatMap((entry: unknown) => {
    const index = (entry as { index?: unknown } | null)?.index;
    if (typeof index !== 'number') return [];
    return [{ index, failed: (entry as { status?: unknown }).status === 'failed' }];
  });
}

/**
 * The maps' and loops' progress a read holds: their stored child steps (the completed ones in the
 * output, the failed ones in `steps`) and, once a map finished, its total and every item from its
 * data (a failed item a map went on after is stored there only). While a map runs its total is not
 * stored: null.
 */
export function itemsOfRead(read: Pick<RunRead, 'output' | 'steps'>): Record<string, NodeItems> {
  const items: Record<string, { total: number | null; children: Record<string, StepStatus> }> = {};
  const of = (node: string) => (items[node] ??= { total: null, children: {} });
  for (const [stepId, step] of Object.entries(read.output)) {
    if (isStoredChild(stepId, step)) of(stepNodeId(stepId, step)).children[stepId] = 'completed';
    const results = storedResults(step);
    if (!results) continue;
    const node = of(stepNodeId(stepId, step));
    if (step.kind === 'map') node.total = results.length;
    for (const { index, failed } of results) {
      const childId = step.kind === 'map' ? `${stepId}[${index}]` : `${stepId}#${index + 1}`;
      node.children[childId] = failed ? 'failed' : 'completed';
    }
  }
  for (const step of read.steps ?? []) {
    if (step.status !== 'failed' || !childStepOf(step.nodeId, step.baseNodeId)) continue;
    if (step.nodeId in read.output) continue;
    const node = items[step.baseNodeId];
    // A failed `#n` step is a loop's pass only beside others stored (a delegation's is not).
    if (!node && !/\]$/.test(step.nodeId)) continue;
    of(step.baseNodeId).children[step.nodeId] ??= 'failed';
  }
  return items;
}

/** The progress known with a read's added: an ended child stays as heard, a stored total is kept. */
export function mergeItems(
  known: Readonly<Record<string, NodeItems>>,
  read: Readonly<Record<string, NodeItems>>,
): Readonly<Record<string, NodeItems>> {
  let merged = known;
  for (const [node, stored] of Object.entries(read)) {
    const was = known[node] ?? { total: null, children: {} };
    let children = was.children;
    for (const [id, status] of Object.entries(stored.children)) {
      const heard = children[id];
      if (heard === status || (heard && ENDED.has(heard))) continue;
      children = { ...children, [id]: status };
    }
    const total = stored.total ?? was.total;
    if (children === was.children && total === was.total && known[node]) continue;
    merged = { ...merged, [node]: { total, children } };
  }
  return merged;
}

/** The mark of a node known only by its stored children (its own entry is not stored yet). */
function markOfChildren(status: RunStatus, child: NodeOutput): NodeRunState | null {
  if (status === 'running') return { status: 'running' };
  if (status === 'failed') return { status: 'failed' };
  return status === 'completed' ? finishedStep(child) : null;
}

/**
 * The run with what its read says: its status, its finished steps (stored in its output) marked done
 * and its skipped ones skipped, and its maps' and loops' progress (itemsOfRead). A map's item or a
 * loop's pass marks its node only when the node's own entry is not stored: running while the run
 * is. Nothing is derived beyond that: a run read mid-way has stored no skipped entries yet, and
 * shows only what it knows. Events stay the authority: a run already heard ending is not revived by
 * an older read (only its maps' stored items are added), and marks set by events win.
 */
export function seedRun(state: RunState, read: RunRead): RunState {
  if (read.id !== state.executionId) return state;
  const items = mergeItems(state.items, itemsOfRead(read));
  const known = items === state.items ? state : { ...state, items };
  if (state.status !== null && state.status !== 'running' && state.status !== 'waiting') return known;
  const status: RunStatus = read.status === 'pending' ? 'running' : read.status;
  const waiting = status === 'waiting' ? (read.waiting ?? state.waiting) : null;
  let nodes = state.nodes;
  let skipped = state.skipped;
  // The step a waiting run stopped at (stored nowhere in its output until it goes on).
  if (waiting && !nodes[waiting.nodeId]) nodes = { ...nodes, [waiting.nodeId]: { status: 'waiting' } };
  const entries = Object.entries(read.output);
  // Own entries first: a finished map's mark is its own, not its first item's.
  entries.sort(([a, stepA], [b, stepB]) => Number(isStoredChild(a, stepA)) - Number(isStoredChild(b, stepB)));
  for (const [stepId, step] of entries) {
    const nodeId = stepNodeId(stepId, step);
    if (nodes[nodeId] || skipped[nodeId]) continue;
    if (step.status === 'skipped') skipped = { ...skipped, [nodeId]: true };
    else if (!isStoredChild(stepId, step)) nodes = { ...nodes, [nodeId]: finishedStep(step) };
    else {
      const mark = markOfChildren(status, step);
      if (mark) nodes = { ...nodes, [nodeId]: mark };
    }
  }
  if (
    nodes === state.nodes &&
    skipped === state.skipped &&
    status === state.status &&
    waiting === state.waiting &&
    state.workflowId === read.workflowId
  )
    return known;
  return { ...known, workflowId: read.workflowId, status, waiting, nodes, skipped };
}

/** Counts for the run summary: steps done out of the steps the run touched (skipped nodes are not steps). */
export function summarizeRun(run: Pick<RunState, 'nodes'>): {
  running: number;
  waiting: number;
  completed: number;
  failed: number;
} {
  const counts = { running: 0, waiting: 0, completed: 0, failed: 0 };
  for (const node of Object.values(run.nodes)) counts[node.status] += 1;
  return counts;
}
