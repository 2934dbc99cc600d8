// An Approval node's data as the builder reads it while it is being edited: field by field, so one
// field the schema would refuse for now (a form field's name half typed, a quorum of 0) does not hide
// the others. The save and Validate check the whole against the contracts' schema.
import {
  approvalFieldTypeValues,
  approvalRoleValues,
  type ApprovalField,
  type ApprovalPath,
} from '@crewline/contracts';

export type ApprovalRole = (typeof approvalRoleValues)[number];
export type ApprovalFieldType = (typeof approvalFieldTypeValues)[number];
export type ApprovalPolicyDraft = 'first' | 'all' | { quorum: number };
type ApprovalTimeoutDraft = { seconds: number; onTimeout: 'reject' | 'branch' };

export type ApprovalDraft = {
  title: string;
  message: string;
  assignees?: { userIds?: string[]; roles?: ApprovalRole[] };
  policy: ApprovalPolicyDraft;
  fields: ApprovalField[];
  timeout?: ApprovalTimeoutDraft;
};

/** Who may decide: anyone in the organization, the members named, or the members with a role. */
export type DeciderMode = 'any' | 'named' | 'roles';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown) => (typeof value === 'string' ? value : '');
const strings = (value: unknown) =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;

function policyOf(value: unknown): ApprovalPolicyDraft {
  if (value === 'all') return 'all';
  if (isRecord(value) && typeof value.quorum === 'number') return { quorum: value.quorum };
  return 'first';
}

function fieldOf(value: unknown): ApprovalField {
  const f = isRecord(value) ? value : {};
  const type = (approvalFieldTypeValues as readonly unknown[]).includes(f.type)
    ? (f.type as ApprovalFieldType)
    : 'text';
  const options = strings(f.options);
  return {
    name: str(f.name),
    label: str(f.label),
    type,
    ...(options ? { options } : {}),
    ...(typeof f.required === 'boolean' ? { required: f.required } : {}),
  };
}

export function approvalDraftOf(data: Record<string, unknown>): ApprovalDraft {
  const assignees = isRecord(data.assignees) ? data.assignees : undefined;
  const userIds = strings(assignees?.userIds);
  const roles = strings(assignees?.roles)?.filter((r): r is ApprovalRole =>
    (approvalRoleValues as readonly string[]).includes(r),
  );
  const timeout = isRecord(data.timeout) ? data.timeout : undefined;
  return {
    title: str(data.title),
    message: str(data.message),
    ...(assignees ? { assignees: { ...(userIds ? { userIds } : {}), ...(roles ? { roles } : {}) } } : {}),
    policy: policyOf(data.policy),
    fields: Array.isArray(data.fields) ? data.fields.map(fieldOf) : [],
    ...(timeout && typeof timeout.seconds === 'number'
      ? {
          timeout: {
            seconds: timeout.seconds,
            onTimeout: timeout.onTimeout === 'branch' ? ('branch' as const) : ('reject' as const),
          },
        }
      : {}),
  };
}

/** Named members when a list of them is set, roles when those are, else any member. */
export function deciderModeOf(assignees: ApprovalDraft['assignees']): DeciderMode {
  if (assignees?.userIds) return 'named';
  if (assignees?.roles) return 'roles';
  return 'any';
}

/** The policy in words, as the canvas shows it. */
export function policyWords(policy: ApprovalPolicyDraft): string {
  if (policy === 'first') return 'First decision wins';
  if (policy === 'all') return 'All must approve';
  return `Quorum of ${policy.quorum}`;
}

/** The paths out of an approval, in order: approved, rejected, and timeout when its timeout takes a path of its own. */
export function approvalPaths(draft: Pick<ApprovalDraft, 'timeout'>): ApprovalPath[] {
  return draft.timeout?.onTimeout === 'branch'
    ? ['approved', 'rejected', 'timeout']
    : ['approved', 'rejected'];
}

export const APPROVAL_PATH_LABELS: Record<ApprovalPath, string> = {
  approved: 'Approved',
  rejected: 'Rejected',
  timeout: 'Timeout',
};
