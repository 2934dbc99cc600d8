import type { GuardrailCheck } from '@crewline/contracts';
import type { GuardAnswer } from '@crewline/engine';
import { createCheckModels, type ClassifierCalls } from './check-models';
import { runChecks } from './run-checks';

export type { ClassifierCalls, ClassifierRequest } from './check-models';

/**
 * Guardrails (docs/product-rules.md, Guardrails; docs/decisions/0047-guardrail-detectors.md): the
 * checks of a guardrail step or an agent's guardrails on one text. The caller (modules/executions)
 * gives the classifier calls, metered and budgeted as its own model calls.
 */
export function createGuardrailsService() {
  return {
    check(input: {
      text: string;
      checks: GuardrailCheck[];
      holds(when: string): boolean;
      calls: ClassifierCalls;
    }): Promise<GuardAnswer> {
      const { calls, ...rest } = input;
      return runChecks({ ...rest, models: createCheckModels(calls) });
    },
  };
}
export type GuardrailsService = ReturnType<typeof createGuardrailsService>;
