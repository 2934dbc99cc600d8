import { useEffect, useReducer } from 'react';

import { useRealtimeEvent } from '@/lib/realtime';

import { emptyLiveRun, LIVE_STEP_EVENTS, reduceLiveRun, type LiveRun } from './live-steps-logic';

const events = [...LIVE_STEP_EVENTS];

/** The steps of run `executionId` as they happen (null follows nothing); starts afresh for another run. */
export function useLiveSteps(executionId: string | null): LiveRun {
  const [state, dispatch] = useReducer(
    (
      current: LiveRun,
      action: Parameters<typeof reduceLiveRun>[1] | { type: 'follow'; id: string | null },
    ) => (action.type === 'follow' ? emptyLiveRun(action.id) : reduceLiveRun(current, action)),
    executionId,
    emptyLiveRun,
  );
  useEffect(() => {
    if (state.executionId !== executionId) dispatch({ type: 'follow', id: executionId });
  }, [executionId, state.executionId]);
  useRealtimeEvent(events, dispatch);
  return state.executionId === executionId ? state : emptyLiveRun(executionId);
}
