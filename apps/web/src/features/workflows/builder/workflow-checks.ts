// The checks of a builder snapshot (docs/product-rules.md): Validate's report and what blocks a save.
// Apart from workflow-save.ts, as they run the engine's validation (its expressions and cron parser):
// the builder loads them when Validate or a save first needs them, not with its first screen.
import { workflowMessages } from '@crewline/contracts';
import { isValidCron, validateWorkflow, type ValidationResult } from '@crewline/engine';

import { gateProblems } from './activation-gate';
import { budgetProblems } from './workflow-budget';
import { buildPayload, type BuilderSnapshot } from './workflow-save';

/** `toolExists` says whether a tool step's tool belongs to the organization (unchecked without it). */
export function validateSnapshot(
  snapshot: BuilderSnapshot,
  agentExists: (agentId: string) => boolean,
  toolExists?: (toolId: string) => boolean,
): ValidationResult {
  const payload = buildPayload(snapshot, 'draft');
  return validateWorkflow(
    {
      name: payload.name,
      triggerType: payload.triggerType ?? 'manual',
      processType: payload.processType ?? 'sequential',
      triggerConfig: payload.triggerConfig ?? {},
      nodes: payload.nodes ?? [],
      edges: payload.edges ?? [],
    },
    agentExists,
    { toolExists },
  );
}

export interface BlockingToast {
  title: string;
  description: string;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The checks run before Save Draft and Activate (docs/product-rules.md), in order: name, cron, email,
 * the budget's figures, the activation gate's fields, then the structural errors joined by ', '. Null when the workflow may be saved.
 */
export function preSaveCheck(
  snapshot: BuilderSnapshot,
  agentExists: (agentId: string) => boolean,
  toolExists?: (toolId: string) => boolean,
): BlockingToast | null {
  const { settings } = snapshot;
  if (!settings.name.trim()) return { title: 'Validation Error', description: workflowMessages.nameRequired };
  if (settings.triggerType === 'schedule' && !isValidCron(settings.triggerConfig.cron)) {
    return { title: 'Validation Error', description: workflowMessages.cronRequired };
  }
  if (
    settings.triggerType === 'email' &&
    !EMAIL_PATTERN.test(settings.triggerConfig.emailAddress?.trim() ?? '')
  ) {
    return { title: 'Trigger Configuration Error', description: workflowMessages.emailRequired };
  }
  const budgetProblem = Object.values(budgetProblems(settings.budget))[0];
  if (budgetProblem) return { title: 'Validation Error', description: budgetProblem };
  const gateProblem = Object.values(gateProblems(settings.activationGate))[0];
  if (gateProblem) return { title: 'Validation Error', description: gateProblem };
  const { errors } = validateSnapshot(snapshot, agentExists, toolExists);
  if (errors.length > 0) return { title: 'Validation Failed', description: errors.join(', ') };
  return null;
}
