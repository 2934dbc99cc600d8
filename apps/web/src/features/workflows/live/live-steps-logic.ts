// The steps of one run as they happen, from its realtime events: which started, their answers as the
// model streams them (execution_node_delta), and how each ended. Pure, for the builder's run panel and
// the run details; what a finished step produced is read from the server (the events carry no output).
import type { RealtimeEvent, RealtimeEventType } from '@crewline/contracts';

export type LiveStepStatus = 'running' | 'completed' | 'failed';

export interface LiveStep {
  /** The step's id: its node id, or `${baseNodeId}#n` for a hierarchical delegation. */
  stepId: string;
  /** The workflow node it runs. */
  baseNodeId: string;
  agentName: string | null;
  status: LiveStepStatus;
  /** The answer streamed so far. */
  text: string;
  /** How far into the answer `text` reaches (updates say where they start). */
  end: number;
  /** Some of the answer was not heard (the view opened mid-step, or an update was lost). */
  missed: boolean;
  executionTime?: number;
  totalTokens?: number;
  error?: string;
}

export interface LiveRun {
  executionId: string | null;
  /** In the order they started. */
  steps: LiveStep[];
}

export const LIVE_STEP_EVENTS = [
  'execution_node_started',
  'execution_node_delta',
  'execution_node_completed',
  'execution_node_failed',
] as const satisfies readonly RealtimeEventType[];

/** Marks a gap in a streamed answer (at its start when the view opened mid-step). */
export const GAP = ' … ';

export const emptyLiveRun = (executionId: string | null): LiveRun => ({ executionId, steps: [] });

function newStep(stepId: string, baseNodeId: string): LiveStep {
  return { stepId, baseNodeId, agentName: null, status: 'running', text: '', end: 0, missed: false };
}

/** `text` continuing the answer at `offset`: appended, its overlap dropped, a gap marked. */
function withUpdate(step: LiveStep, offset: number, text: string): LiveStep {
  const end = offset + text.length;
  if (end <= step.end) return step; // heard already
  if (offset <= step.end) return { ...step, text: step.text + text.slice(step.end - offset), end };
  return { ...step, text: `${step.text}${GAP}${text}`, end, missed: true };
}

export function reduceLiveRun(state: LiveRun, event: RealtimeEvent): LiveRun {
  if (!state.executionId || !('executionId' in event) || event.executionId !== state.executionId)
    return state;
  if (!('nodeId' in event)) return state;
  const index = state.steps.findIndex((step) => step.stepId === event.nodeId);
  const current = index >= 0 ? state.steps[index] : newStep(event.nodeId, event.baseNodeId);
  let next: LiveStep;
  switch (event.type) {
    case 'execution_node_started':
      next = { ...current, agentName: event.agentName ?? current.agentName };
      break;
    case 'execution_node_delta':
      if (current.status !== 'running') return state;
      next = withUpdate(current, event.offset, event.text);
      break;
    case 'execution_node_completed':
      next = {
        ...current,
        status: 'completed',
        executionTime: event.executionTime,
        totalTokens: event.totalTokens,
      };
      break;
    case 'execution_node_failed':
      next = { ...current, status: 'failed', error: event.error };
      break;
    default:
      return state;
  }
  const steps =
    index >= 0 ? state.steps.map((step, i) => (i === index ? next : step)) : [...state.steps, next];
  return { ...state, steps };
}
