import { workflowMessages as m } from '@crewline/contracts';
import type { EngineNodeKind } from './types';

/** Every workflow needs a Start node; a run begins there and executes nothing for it. */
export const startKind: EngineNodeKind<'start'> = {
  kind: 'start',
  validate: (nodes) => (nodes.length === 0 ? [m.noStart] : []),
};
