// A Delay node's data as the canvas and the panel read it.
export type DelayMode = 'for' | 'until';

/** The delay's data as typed: `{ seconds }` or `{ until }` (until wins the mode once it is set, even empty). */
export function delayDraftOf(data: Record<string, unknown>): { seconds?: number; until?: string } {
  return {
    ...(typeof data.seconds === 'number' ? { seconds: data.seconds } : {}),
    ...(typeof data.until === 'string' ? { until: data.until } : {}),
  };
}

export const delayModeOf = (draft: { until?: string }): DelayMode =>
  draft.until !== undefined ? 'until' : 'for';
