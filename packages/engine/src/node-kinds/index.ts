// The engine's side of each node kind (packages/contracts/src/node-kinds holds their data and
// labels): its validation and, for the kinds a run executes as steps, its executor. validation.ts and
// run-workflow.ts dispatch through this registry, so adding a kind is one file here.
import type { NodeKind } from '@crewline/contracts';
import { agentKind } from './agent';
import { endKind } from './end';
import { startKind } from './start';
import type { EngineNodeKind } from './types';

export { nodeAgentId } from './agent';
export type { EngineNodeKind } from './types';

/** Each kind's engine part, in the contracts' order (the order validation reports them). */
export const engineNodeKinds: { [K in NodeKind]: EngineNodeKind<K> } = {
  start: startKind,
  end: endKind,
  agent: agentKind,
};

/** Whether a run executes nodes of this kind as steps (today: agent nodes). */
export const isStepKind = (kind: NodeKind): boolean => engineNodeKinds[kind]?.executor !== undefined;
