// The engine's side of each node kind (packages/contracts/src/node-kinds holds their data and
// labels): its validation and, for the kinds a run executes as steps, its executor. validation.ts and
// run-workflow.ts dispatch through this registry, so adding a kind is one file here.
import type { NodeKind } from '@crewline/contracts';
import { agentKind } from './agent';
import { approvalKind } from './approval';
import { codeKind } from './code';
import { conditionKind } from './condition';
import { delayKind } from './delay';
import { endKind } from './end';
import { guardrailKind } from './guardrail';
import { loopKind } from './loop';
import { mapKind } from './map';
import { mergeKind } from './merge';
import { noteKind } from './note';
import { startKind } from './start';
import { toolKind } from './tool';
import { transformKind } from './transform';
import type { EngineNodeKind } from './types';

export { nodeAgentId } from './agent';
export { approvalStepResult } from './approval';
export { guardrailRuleErrors } from './guardrail';
export type { EngineNodeKind, StepResult, StepRunner, StepTask } from './types';

/** Each kind's engine part, in the contracts' order (the order validation reports them). */
export const engineNodeKinds: { [K in NodeKind]: EngineNodeKind<K> } = {
  start: startKind,
  end: endKind,
  agent: agentKind,
  condition: conditionKind,
  guardrail: guardrailKind,
  tool: toolKind,
  transform: transformKind,
  code: codeKind,
  map: mapKind,
  loop: loopKind,
  merge: mergeKind,
  approval: approvalKind,
  delay: delayKind,
  note: noteKind,
};
