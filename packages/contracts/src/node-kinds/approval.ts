// The Approval node: the run waits, holding no worker, until people decide (or the timeout passes).
import { z } from 'zod';
import { kindData, type NodeKindDefinition } from './data';

/** The paths out of an approval (its edges' `sourceHandle`). */
export const approvalPathValues = ['approved', 'rejected', 'timeout'] as const;
export type ApprovalPath = (typeof approvalPathValues)[number];

export const approvalRoleValues = ['owner', 'admin', 'member'] as const;
export const approvalFieldTypeValues = ['text', 'number', 'choice', 'boolean'] as const;

/** The longest an approval may wait: 90 days. */
export const APPROVAL_MAX_SECONDS = 90 * 24 * 3600;

export const approvalFieldSchema = z.object({
  /** The key of its answer in the step's `data.fields` (and so in later expressions). */
  name: z
    .string()
    .regex(
      /^[A-Za-z_][A-Za-z0-9_]{0,63}$/,
      'A field name is letters, digits and _, not starting with a digit',
    ),
  label: z.string().max(200),
  type: z.enum(approvalFieldTypeValues),
  /** A choice's options. */
  options: z.array(z.string().min(1).max(200)).max(50).optional(),
  required: z.boolean().optional(),
});
export type ApprovalField = z.infer<typeof approvalFieldSchema>;

/** Who may decide: named members and/or roles; neither means any member. */
export const approvalAssigneesSchema = z.object({
  userIds: z.array(z.string().uuid()).max(100).optional(),
  roles: z.array(z.enum(approvalRoleValues)).max(3).optional(),
});
export type ApprovalAssignees = z.infer<typeof approvalAssigneesSchema>;

/** First decision wins, all named approvers must approve, or a quorum of N distinct approvals. */
export const approvalPolicySchema = z.union([
  z.literal('first'),
  z.literal('all'),
  z.object({ quorum: z.number().int().min(1).max(100) }),
]);
export type ApprovalPolicy = z.infer<typeof approvalPolicySchema>;

export const approvalTimeoutSchema = z.object({
  seconds: z.number().int().min(1).max(APPROVAL_MAX_SECONDS),
  /** `reject`: the run goes down the rejected path; `branch`: down the `timeout` path. */
  onTimeout: z.enum(['reject', 'branch']),
});
export type ApprovalTimeout = z.infer<typeof approvalTimeoutSchema>;

/**
 * `{ title, message, assignees?, policy, fields?, timeout? }` (title and message are `{{ }}` templates);
 * its step's `data` is `{ decision, decisions, fields }`.
 */
export const approvalNodeKind = {
  kind: 'approval',
  label: 'Approval',
  help: 'Waits for people to approve or reject, with a form and a timeout; the run holds no worker meanwhile.',
  removable: true,
  step: true,
  sequentialOnly: true,
  data: kindData({
    title: z.string().max(200).default(''),
    message: z.string().max(5000).default(''),
    assignees: approvalAssigneesSchema.optional(),
    policy: approvalPolicySchema.default('first'),
    fields: z.array(approvalFieldSchema).max(20).optional(),
    timeout: approvalTimeoutSchema.optional(),
  }).meta({
    description:
      'Waits for a decision. Out paths (edge `sourceHandle`): `approved`, `rejected`, and `timeout` when `timeout.onTimeout` is `branch`. Its step\'s `data` is `{ decision: "approved" | "rejected" | "timeout", decisions: [{ userId, decision, comment, fields, at, via }], fields }`.',
    examples: [
      {
        label: 'Refund check',
        title: 'Refund for {{ input.customer }}?',
        message:
          'Refund the duplicate charge on {{ size(nodes.classify.data.orders) }} orders to {{ input.customer }}?',
        assignees: { roles: ['admin'] },
        policy: 'first',
        fields: [
          { name: 'amount', label: 'Amount to refund (€)', type: 'number', required: true },
          { name: 'note', label: 'Note to the customer', type: 'text', required: false },
        ],
        timeout: { seconds: 86400, onTimeout: 'branch' },
      },
    ],
  }),
} as const satisfies NodeKindDefinition<'approval'>;
