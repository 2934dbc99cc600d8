import type { RunDefinition, RunPorts, StepRef } from '@crewline/engine';
import type { CodeSandbox } from '../../platform/sandbox/code-sandbox';
import type { GuardrailsService } from '../guardrails/guardrails.service';
import { createCodeStep } from './code-step';
import { createGuardStep } from './guard-step';
import type { RunLog } from './run-log';
import { stepNames } from './step-names';
import { createToolStep, type RunTools } from './tool-step';
import { inStep } from '../../platform/telemetry/tracing';

/** What the steps that call no model work with; a step whose part is missing fails where it runs. */
export type NoModelStepParts = {
  /** Tool steps' tools and runtime (modules/tools). */
  tools?: RunTools;
  /** Code steps' WebAssembly sandbox (platform/sandbox). */
  sandbox?: CodeSandbox;
  /** Guardrail steps' and agents' checks (modules/guardrails). */
  guardrails?: Pick<GuardrailsService, 'check'>;
};

type GuardStepDeps = Parameters<typeof createGuardStep>[0];

/**
 * The engine's ports of the steps that call no model, Tool, Code and Guardrail, for one attempt, one
 * child workflow or one step's test: each step named as the engine names it, its log lines in
 * `runLog`, stopped with `signal`; `before` runs ahead of each call (an attempt checks it was not
 * interrupted). `guard` is the unwrapped guardrail port an agent's own guardrails check through.
 */
export function createNoModelSteps(
  parts: NoModelStepParts,
  deps: {
    organizationId: string;
    nodes: RunDefinition['nodes'];
    runLog: RunLog;
    signal: AbortSignal;
    /** How the guardrails reach a model: the run's connections, prices and budgets, or the test's. */
    guardModels: Pick<GuardStepDeps, 'models' | 'priceOf' | 'runSpend' | 'serverKey'>;
    before?: () => void;
  },
) {
  const { organizationId, runLog, signal } = deps;
  const nameOf = stepNames(deps.nodes);
  const toolStep =
    parts.tools && createToolStep({ run: parts.tools, organizationId, runLog, signal, nameOf });
  const codeStep = parts.sandbox && createCodeStep({ sandbox: parts.sandbox, runLog, signal });
  const guard =
    parts.guardrails &&
    createGuardStep({ guardrails: parts.guardrails, ...deps.guardModels, runLog, signal, nameOf });
  const checked =
    <Call extends { step: StepRef }, Answer>(step: (call: Call) => Promise<Answer>) =>
    async (call: Call): Promise<Answer> => {
      deps.before?.();
      return inStep(call.step, () => step(call));
    };
  const ports: Partial<Pick<RunPorts, 'callTool' | 'runCode' | 'guard'>> = {
    ...(toolStep && { callTool: checked(toolStep) }),
    ...(codeStep && { runCode: checked(codeStep) }),
    ...(guard && { guard: checked(guard) }),
  };
  return { guard, ports };
}
