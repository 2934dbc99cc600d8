import { z } from 'zod';
import {
  approvalAssigneesSchema,
  approvalFieldSchema,
  approvalPolicySchema,
  type ApprovalField,
} from './node-kinds';

/*
 * Approvals (docs/product-rules.md, People in the loop): a run that reached an Approval step waits,
 * holding no worker, until the people it names decide. One decision takes effect, once.
 */

export const approvalStatusValues = ['pending', 'approved', 'rejected', 'timed_out', 'cancelled'] as const;
export type ApprovalStatus = (typeof approvalStatusValues)[number];

/** Where a decision was taken. */
export const decisionViaValues = ['inbox', 'run', 'email', 'api'] as const;
export type DecisionVia = (typeof decisionViaValues)[number];

/** A form answer: text, a number, a choice (its option) or yes/no. */
const fieldAnswerSchema = z.union([z.string().max(5000), z.number(), z.boolean()]);
export const fieldAnswersSchema = z.record(z.string(), fieldAnswerSchema);
export type FieldAnswers = z.infer<typeof fieldAnswersSchema>;

/** One person's decision, as the approval and the approval step's `data.decisions` keep it. */
export const approvalDecisionSchema = z.object({
  userId: z.string(),
  /** The decider's name when the approval was read (their account may be gone since). */
  userName: z.string().nullable().optional(),
  decision: z.enum(['approve', 'reject']),
  comment: z.string().nullable(),
  fields: fieldAnswersSchema,
  at: z.string(),
  via: z.enum(decisionViaValues),
});
export type ApprovalDecision = z.infer<typeof approvalDecisionSchema>;

/** An approval as the API answers it. */
export const approvalSchema = z.object({
  id: z.string(),
  executionId: z.string(),
  workflowId: z.string(),
  workflowName: z.string().nullable(),
  /** The Approval node (its step id). */
  nodeId: z.string(),
  /** Title and message with the run's values filled in. */
  title: z.string(),
  message: z.string(),
  status: z.enum(approvalStatusValues),
  policy: approvalPolicySchema,
  assignees: approvalAssigneesSchema,
  fields: z.array(approvalFieldSchema),
  decisions: z.array(approvalDecisionSchema),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  decidedAt: z.string().nullable(),
  /** Whether the caller may decide it now (pending, one of its approvers, not decided by them yet). */
  canDecide: z.boolean(),
  /** A tool call waiting for approval: the tool and its arguments. */
  toolCall: z.object({ tool: z.string(), arguments: z.unknown() }).optional(),
});
export type Approval = z.infer<typeof approvalSchema>;

export const approvalParamsSchema = z.object({ id: z.string().uuid() });

/** GET /api/approvals: `status` pending (oldest first) or decided (newest first); `mine` those I may decide. */
export const approvalListQuerySchema = z.object({
  status: z.enum(['pending', 'decided']).default('pending'),
  mine: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true'),
  executionId: z.string().uuid().optional(),
});
export type ApprovalListQuery = z.input<typeof approvalListQuerySchema>;

/** POST /api/approvals/:id/decision. `via` is where a person decided (an API key's call is `api`). */
export const approvalDecisionRequestSchema = z.object({
  decision: z.enum(['approve', 'reject']),
  comment: z.string().trim().max(2000).optional(),
  fields: fieldAnswersSchema.optional(),
  via: z.enum(['inbox', 'run']).optional(),
});
export type ApprovalDecisionRequest = z.infer<typeof approvalDecisionRequestSchema>;

export const approvalMessages = {
  decided: 'This approval was already decided',
  notAllowed: 'You are not one of the approvers of this approval',
  alreadyYours: 'You already decided this approval',
  expired: 'This approval timed out before the decision',
  notFound: 'Approval not found',
} as const;

/**
 * The form's answers checked against its fields: the errors by field name (a required field left
 * empty, a number that is not one, a choice not among the options, a field the form does not have).
 * Only an approval needs them all: a rejection may leave required fields empty.
 */
export function fieldAnswerErrors(
  fields: readonly ApprovalField[],
  answers: FieldAnswers,
  decision: 'approve' | 'reject',
): Record<string, string> {
  const errors: Record<string, string> = {};
  const known = new Set(fields.map((f) => f.name));
  for (const name of Object.keys(answers))
    if (!known.has(name)) errors[name] = `The form has no field "${name}"`;
  for (const field of fields) {
    const value = answers[field.name];
    const empty = value === undefined || value === '';
    if (empty) {
      if (field.required && decision === 'approve')
        errors[field.name] = `${field.label || field.name} is required`;
      continue;
    }
    if (field.type === 'number' && typeof value !== 'number')
      errors[field.name] = `${field.label || field.name} must be a number`;
    if (field.type === 'boolean' && typeof value !== 'boolean')
      errors[field.name] = `${field.label || field.name} must be yes or no`;
    if (field.type === 'text' && typeof value !== 'string')
      errors[field.name] = `${field.label || field.name} must be text`;
    if (field.type === 'choice' && !(field.options ?? []).includes(String(value)))
      errors[field.name] = `${field.label || field.name} must be one of: ${(field.options ?? []).join(', ')}`;
  }
  return errors;
}
