import { z } from 'zod';
import { approvalStatusValues, fieldAnswersSchema } from './approvals';
import { approvalFieldSchema } from './node-kinds';

/*
 * The Approve and Reject links an approval's email carries (docs/security.md, Approval links): each
 * binds one approver to one decision, works once and expires. Opening one shows what it decides; only
 * the confirmation (a POST) decides.
 */

export const approvalLinkParamsSchema = z.object({ token: z.string().min(1).max(200) });

/** GET /api/approval-links/:token: what the link decides, on what, as whom. */
export const approvalLinkViewSchema = z.object({
  approval: z.object({
    title: z.string(),
    message: z.string(),
    workflowName: z.string().nullable(),
    fields: z.array(approvalFieldSchema),
    status: z.enum(approvalStatusValues),
    expiresAt: z.string().nullable(),
  }),
  decision: z.enum(['approve', 'reject']),
  approver: z.object({ name: z.string() }),
});
export type ApprovalLinkView = z.infer<typeof approvalLinkViewSchema>;

/** POST /api/approval-links/:token: the link's decision, with a comment and (approving) the form's answers. */
export const approvalLinkDecisionSchema = z.object({
  comment: z.string().trim().max(2000).optional(),
  fields: fieldAnswersSchema.optional(),
});
export type ApprovalLinkDecision = z.infer<typeof approvalLinkDecisionSchema>;

/** The approval's status after the decision (pending while a quorum still waits for others). */
export const approvalLinkDecidedSchema = z.object({ status: z.enum(approvalStatusValues) });

export const approvalLinkMessages = {
  used: 'This link was already used',
  expired: 'This link has expired',
  notFound: 'This link does not exist',
} as const;
