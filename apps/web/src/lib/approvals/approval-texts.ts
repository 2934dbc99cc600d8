// What the approval screens say (the Inbox, a run's approval panel and audit, the step inspector) and
// how their form's answers and the server's refusals are read. Pure, so it is unit-tested without a
// browser; shared by features/approvals and features/runs, which never import each other.
import {
  fieldAnswerErrors,
  type Approval,
  type ApprovalAssignees,
  type ApprovalField,
  type ApprovalPolicy,
  type ApprovalStatus,
  type DecisionVia,
  type FieldAnswers,
  type Member,
} from '@crewline/contracts';

/** Where a decision was taken, as the audit says it. */
export const DECISION_VIA_LABELS: Record<DecisionVia, string> = {
  inbox: 'Inbox',
  email: 'Email link',
  api: 'API key',
  run: 'Run view',
};

export const APPROVAL_STATUS_LABELS: Record<ApprovalStatus, string> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
  timed_out: 'Timed out',
  cancelled: 'Cancelled',
};

/** A decision in words: 'Approved' or 'Rejected'. */
export function decisionLabel(decision: 'approve' | 'reject'): string {
  return decision === 'approve' ? 'Approved' : 'Rejected';
}

export function policyText(policy: ApprovalPolicy): string {
  if (policy === 'first') return 'First decision wins';
  if (policy === 'all') return 'All must approve';
  return `Quorum of ${policy.quorum}`;
}

type MemberName = Pick<Member, 'userId' | 'username' | 'firstName' | 'lastName'>;

/** A member's name: first and last, else the username. */
function memberName(member: MemberName): string {
  return [member.firstName, member.lastName].filter(Boolean).join(' ') || member.username;
}

const ROLE_WORDS = { owner: 'owners', admin: 'admins', member: 'members' } as const;

/**
 * Who may decide, in words: 'any member', or the named members (by name when the members are known,
 * else counted) and the roles ('Ada Lovelace, Grace Hopper or admins').
 */
export function assigneesText(assignees: ApprovalAssignees, members?: readonly MemberName[]): string {
  const ids = assignees.userIds ?? [];
  const roles = assignees.roles ?? [];
  if (ids.length === 0 && roles.length === 0) return 'any member';
  const byId = new Map((members ?? []).map((member) => [member.userId, memberName(member)]));
  const named = ids.map((id) => byId.get(id));
  const people = named.every((name) => name !== undefined)
    ? (named as string[])
    : [`${ids.length} named member${ids.length === 1 ? '' : 's'}`];
  const parts = [...(ids.length > 0 ? people : []), ...roles.map((role) => ROLE_WORDS[role])];
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} or ${parts.at(-1)}`;
}

/** Who decided: the name the approval carries, else the member's, else 'Someone'. */
export function deciderName(
  decision: { userId: string; userName?: string | null },
  members?: readonly MemberName[],
): string {
  if (decision.userName) return decision.userName;
  const member = members?.find((candidate) => candidate.userId === decision.userId);
  return member ? memberName(member) : 'Someone';
}

/** What the form holds while it is filled in: text as typed, yes/no as chosen (unset: undefined). */
export type FieldDraft = Record<string, string | boolean | undefined>;

/**
 * The answers sent from what the form holds: empty fields left out, a number field's text as a number
 * (text that is no number is sent as typed, so the check names it), yes/no as a boolean.
 */
export function answersOf(fields: readonly ApprovalField[], draft: FieldDraft): FieldAnswers {
  const answers: FieldAnswers = {};
  for (const field of fields) {
    const value = draft[field.name];
    if (value === undefined || value === '') continue;
    if (field.type === 'number' && typeof value === 'string') {
      const number = Number(value.trim());
      answers[field.name] = value.trim() !== '' && Number.isFinite(number) ? number : value;
    } else answers[field.name] = value;
  }
  return answers;
}

/** The form's problems before sending (the server checks the same): by field name. */
export function draftErrors(
  fields: readonly ApprovalField[],
  draft: FieldDraft,
  decision: 'approve' | 'reject',
): Record<string, string> {
  return fieldAnswerErrors(fields, answersOf(fields, draft), decision);
}

/** A refused decision: the server's message for the card, and its form field messages by field name. */
export interface DecisionError {
  message: string | null;
  fields: Record<string, string>;
}

/**
 * Reads a refused decision (`Error("<status>: <body>")`, lib/api.ts): a 409 or 403's message, or a
 * 400's `errors` by field name (`{ amount: 'Amount is required' }`, or the validation's list of
 * `{ path, message }`). A failure without the server's word gets `fallback`.
 */
export function decisionErrorOf(
  error: unknown,
  fallback = 'The decision could not be saved. Try again.',
): DecisionError {
  const raw = error instanceof Error ? error.message : '';
  const match = /^(\d{3}): ([\s\S]*)$/.exec(raw);
  if (!match) return { message: fallback, fields: {} };
  const status = Number(match[1]);
  type Body = { message?: unknown; errors?: unknown };
  let body: Body | null = null;
  try {
    const parsed: unknown = JSON.parse(match[2]!);
    if (parsed && typeof parsed === 'object') body = parsed as Body;
  } catch {
    // not JSON: the text or the fallback
  }
  const fields: Record<string, string> = {};
  const errors = body?.errors;
  if (Array.isArray(errors)) {
    for (const issue of errors as { path?: unknown; message?: unknown }[]) {
      if (typeof issue?.path !== 'string' || typeof issue.message !== 'string') continue;
      // A validation issue's path is `fields.<name>` (or the name alone).
      const name = issue.path.replace(/^fields\./, '').split('.')[0]!;
      fields[name] ??= issue.message;
    }
  } else if (errors && typeof errors === 'object') {
    for (const [name, message] of Object.entries(errors))
      if (typeof message === 'string') fields[name] = message;
  }
  const message = typeof body?.message === 'string' ? body.message : null;
  const onFields = Object.keys(fields).length > 0;
  if (status >= 500) return { message: fallback, fields };
  return { message: message ?? (onFields ? null : match[2]!.trim() || fallback), fields };
}

/** The viewer's own decision on an approval they decided (the card's outcome), if any. */
export function ownDecision(approval: Pick<Approval, 'decisions'>, viewerId: string | undefined) {
  if (!viewerId) return undefined;
  return approval.decisions.findLast((decision) => decision.userId === viewerId);
}

/**
 * The outcome a card shows once the viewer decided: 'You approved' and, while others still have to
 * decide, that it waits for them; once closed, the approval's status.
 */
export function outcomeText(approval: Pick<Approval, 'status'>, decision: 'approve' | 'reject'): string {
  const mine = decision === 'approve' ? 'You approved' : 'You rejected';
  if (approval.status === 'pending') return `${mine} · waiting for the other approvers`;
  return `${mine} · ${APPROVAL_STATUS_LABELS[approval.status]}`;
}

/** A form answer as the audit shows it: yes/no for a boolean. */
export function answerText(value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

/** An approval step's outcome in words (its `data.decision`). */
export const STEP_DECISION_LABELS = {
  approved: 'Approved',
  rejected: 'Rejected',
  timeout: 'Timed out',
} as const;

type StepDecision = keyof typeof STEP_DECISION_LABELS;

/** An approval step's `data` as the engine stores it: `{ decision, decisions, fields }`. */
export interface ApprovalStepData {
  decision: StepDecision | null;
  decisions: {
    userId: string;
    userName?: string | null;
    decision: 'approve' | 'reject';
    comment: string | null;
    fields: FieldAnswers;
    at: string;
    via: string;
  }[];
  fields: FieldAnswers;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function answersIn(value: unknown): FieldAnswers {
  if (!isRecord(value)) return {};
  const answers: FieldAnswers = {};
  for (const [name, answer] of Object.entries(value))
    if (typeof answer === 'string' || typeof answer === 'number' || typeof answer === 'boolean')
      answers[name] = answer;
  return answers;
}

/** An approval step's `data` read defensively (null when it is not one): what its inspector shows. */
export function approvalStepData(data: unknown): ApprovalStepData | null {
  if (!isRecord(data)) return null;
  const decision =
    typeof data.decision === 'string' && data.decision in STEP_DECISION_LABELS
      ? (data.decision as StepDecision)
      : null;
  const decisions = Array.isArray(data.decisions)
    ? data.decisions.flatMap((entry: unknown): ApprovalStepData['decisions'] => {
        if (!isRecord(entry) || typeof entry.userId !== 'string') return [];
        const decision = entry.decision;
        if (decision !== 'approve' && decision !== 'reject') return [];
        return [
          {
            userId: entry.userId,
            userName: typeof entry.userName === 'string' ? entry.userName : null,
            decision,
            comment: typeof entry.comment === 'string' && entry.comment ? entry.comment : null,
            fields: answersIn(entry.fields),
            at: typeof entry.at === 'string' ? entry.at : '',
            via: typeof entry.via === 'string' ? entry.via : 'api',
          },
        ];
      })
    : [];
  if (decision === null && decisions.length === 0 && !isRecord(data.fields)) return null;
  return { decision, decisions, fields: answersIn(data.fields) };
}
