import type { RealtimeEvent, RealtimeEventType } from '@crewline/contracts';
import { useState } from 'react';

import { useRealtimeEvent } from '@/lib/realtime';

import { heardStep, type StepsHeard } from './step-progress-logic';

const STEP_EVENTS: RealtimeEventType[] = [
  'execution_node_started',
  'execution_node_completed',
  'execution_node_failed',
];

/** Runs whose steps are remembered at most; the oldest is forgotten first. */
const REMEMBERED_RUNS = 100;

/**
 * The step events of the organization's runs, by run id, heard while the page is open. Kept above
 * the cards: a run's first step starts with the run itself, often before its card shows it running.
 */
export function useStepsHeard(): Readonly<Record<string, StepsHeard>> {
  const [byRun, setByRun] = useState<Record<string, StepsHeard>>({});
  useRealtimeEvent(STEP_EVENTS, (event: RealtimeEvent) => {
    if (!('baseNodeId' in event)) return;
    setByRun((was) => {
      const { [event.executionId]: heard, ...others } = was;
      const kept = Object.entries(others).slice(-(REMEMBERED_RUNS - 1));
      return {
        ...Object.fromEntries(kept),
        [event.executionId]: heardStep(heard ?? { started: [], ended: [] }, event),
      };
    });
  });
  return byRun;
}
