// What an activation behind the activation gate answers (docs/product-rules.md, Evaluations), for the
// card's Activate and the builder's: a 202 `evaluation_running` (the evaluation runs first; the server
// records the version by itself when it passes) or a 409 `evaluation_failed` with the failed items.
import { evaluationFailedSchema, type evaluationRunningSchema } from '@crewline/contracts';
import type { endpoints } from '@crewline/contracts/endpoints';
import type { z } from 'zod';

import type { EndpointResult } from '@/lib/api-call';

export type EvaluationRunning = z.infer<typeof evaluationRunningSchema>;
export type EvaluationFailed = z.infer<typeof evaluationFailedSchema>;
/** What PUT /api/workflows/:id answers: the saved workflow (200) or the gate's 202. */
export type UpdateAnswer = EndpointResult<typeof endpoints.workflows.update>;
export type SavedWorkflow = Exclude<UpdateAnswer, EvaluationRunning>;

/** The gate's 202 in a save's answer (the evaluation runs before the activation), else null. */
export function evaluationRunningOf(answer: UpdateAnswer | null): EvaluationRunning | null {
  return answer && 'code' in answer ? answer : null;
}

/** The workflow a save answered, or null when it answered the gate's 202 (or nothing). */
export function savedWorkflowOf(answer: UpdateAnswer | null): SavedWorkflow | null {
  return answer && !('code' in answer) ? answer : null;
}

/** The gate's refusal in a failed save (`409: {…}`, lib/api.ts), or null for any other error. */
export function evaluationFailedOf(error: unknown): EvaluationFailed | null {
  const match = error instanceof Error ? /^409: ([\s\S]*)$/.exec(error.message) : null;
  if (!match) return null;
  try {
    const parsed = evaluationFailedSchema.safeParse(JSON.parse(match[1]));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function evaluationRunningToast(answer: EvaluationRunning) {
  return { title: 'Evaluation running', description: answer.message };
}

export function activationRefusedToast(refusal: EvaluationFailed) {
  return { variant: 'destructive', title: 'Activation refused', description: refusal.message } as const;
}
