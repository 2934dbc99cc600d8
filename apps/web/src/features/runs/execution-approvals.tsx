// A run's approvals in its details (People in the loop): what a waiting run waits for; the pending
// approval with its form and Approve / Reject when the viewer may decide (via 'run'), else who it
// waits for; and the audit of the decided ones (who, when, from where, comment, form answers).
import type { Approval, Execution } from '@crewline/contracts';
import { Hourglass, UserCheck } from 'lucide-react';

import { ApprovalDecisionForm } from '@/components/approvals/approval-decision-form';
import { ApprovalDecisions } from '@/components/approvals/approval-decisions';
import { StatusBadge } from '@/components/status-badge';
import { APPROVAL_STATUS_LABELS, assigneesText, deciderName } from '@/lib/approvals/approval-texts';
import { formatDateTime, formatRelativeTime } from '@/lib/format';
import { useApprovalMembers, useExecutionApprovals } from '@/lib/approvals/approval-lists';
import { useAuth } from '@/lib/session';

import { waitingText } from './execution-facts';

/** Whether a run has approvals to show: it waits for one, or one of its steps was an approval. */
export function runHasApprovals(execution: Pick<Execution, 'status' | 'waiting' | 'output'>): boolean {
  if (execution.waiting?.kind === 'approval') return true;
  return Object.values(execution.output).some((step) => step.kind === 'approval');
}

const labelsOf = (approval: Approval) =>
  Object.fromEntries(approval.fields.map((field) => [field.name, field.label]));

function PendingApproval({
  approval,
  viewerId,
  organizationId,
}: {
  approval: Approval;
  viewerId: string | undefined;
  organizationId: string;
}) {
  const named = !approval.canDecide && (approval.assignees.userIds?.length ?? 0) > 0;
  const members = useApprovalMembers(organizationId, named);
  return (
    <div
      className="space-y-3 rounded-lg border border-violet-500/30 bg-violet-500/5 p-3"
      data-testid="run-approval"
    >
      <div className="space-y-1">
        <p className="flex flex-wrap items-center gap-2 text-sm font-semibold">
          <UserCheck className="size-4 text-violet-700 dark:text-violet-300" aria-hidden="true" />
          {approval.title}
        </p>
        {approval.message && <p className="text-sm break-words whitespace-pre-wrap">{approval.message}</p>}
        <p className="text-xs text-muted-foreground">
          Requested {formatRelativeTime(approval.createdAt)}
          {approval.expiresAt && ` · Times out ${formatRelativeTime(approval.expiresAt)}`}
        </p>
      </div>
      {approval.decisions.length > 0 && (
        <ApprovalDecisions
          decisions={approval.decisions}
          nameOf={(decision) => deciderName(decision, members.data)}
          fieldLabels={labelsOf(approval)}
        />
      )}
      <ApprovalDecisionForm
        approval={approval}
        via="run"
        viewerId={viewerId}
        notAllowed={
          <p className="text-sm text-muted-foreground" data-testid="run-approval-waiting-for">
            Waiting for {assigneesText(approval.assignees, members.data)}
          </p>
        }
      />
    </div>
  );
}

function DecidedApproval({ approval }: { approval: Approval }) {
  return (
    <div className="space-y-2" data-testid="run-approval-audit">
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium">{approval.title}</span>
        <StatusBadge
          label={APPROVAL_STATUS_LABELS[approval.status]}
          tone={approval.status === 'approved' ? 'green' : approval.status === 'rejected' ? 'red' : 'yellow'}
        />
        {approval.decidedAt && (
          <span className="text-xs text-muted-foreground">{formatDateTime(approval.decidedAt)}</span>
        )}
      </p>
      <ApprovalDecisions
        decisions={approval.decisions}
        nameOf={(decision) => deciderName(decision)}
        fieldLabels={labelsOf(approval)}
      />
    </div>
  );
}

/** The deciders' names in a run's approvals, by user id (for its approval steps' inspectors). */
export function peopleOf(approvals: readonly Approval[] | undefined): Record<string, string> {
  const people: Record<string, string> = {};
  for (const approval of approvals ?? [])
    for (const decision of approval.decisions)
      if (decision.userName) people[decision.userId] = decision.userName;
  return people;
}

export function ExecutionApprovals({
  execution,
  open,
}: {
  execution: Pick<Execution, 'id' | 'status' | 'waiting' | 'output'>;
  open: boolean;
}) {
  const { user, organizationId } = useAuth();
  const shown = open && runHasApprovals(execution);
  const { pending, decided } = useExecutionApprovals(execution.id, shown);
  const waiting = execution.status === 'waiting' ? waitingText(execution.waiting) : null;
  const pendingList = pending.data ?? [];
  const decidedList = decided.data ?? [];
  if (!waiting && pendingList.length === 0 && decidedList.length === 0) return null;
  return (
    <section
      className="space-y-3"
      aria-labelledby="execution-approvals-title"
      data-testid="execution-approvals"
    >
      <h3 id="execution-approvals-title" className="text-xs font-medium text-muted-foreground">
        {waiting ? 'Waiting' : 'Approvals'}
      </h3>
      {waiting && (
        <p
          className="flex items-center gap-2 text-sm font-medium text-violet-700 dark:text-violet-300"
          data-testid="execution-waiting"
        >
          <Hourglass className="size-4 shrink-0" aria-hidden="true" />
          {waiting}
        </p>
      )}
      {pendingList.map((approval) => (
        <PendingApproval
          key={approval.id}
          approval={approval}
          viewerId={user?.id}
          organizationId={organizationId}
        />
      ))}
      {decidedList.length > 0 && (
        <div className="space-y-3">
          {pendingList.length > 0 || waiting ? (
            <h4 className="text-xs font-medium text-muted-foreground">Decided</h4>
          ) : null}
          {decidedList.map((approval) => (
            <DecidedApproval key={approval.id} approval={approval} />
          ))}
        </div>
      )}
    </section>
  );
}
