import { workflowMessages as m } from '@crewline/contracts';
import type { EngineNodeKind } from './types';

/** Every workflow needs an End node; a run executes nothing for it. */
export const endKind: EngineNodeKind<'end'> = {
  kind: 'end',
  validate: (nodes) => (nodes.length === 0 ? [m.noEnd] : []),
};
