import type { EngineNodeKind } from './types';

/** Text on the canvas: never a step, never waited for (its edges do not count, graph.ts). */
export const noteKind: EngineNodeKind<'note'> = {
  kind: 'note',
  validate: () => [],
};
