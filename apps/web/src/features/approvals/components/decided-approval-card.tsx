// A decided approval on the Inbox's Decided tab: what was asked, how it ended (approved, rejected,
// timed out, cancelled) and when, and each decision with who, when, from where, comment and answers.
import type { Approval, ApprovalStatus } from '@crewline/contracts';
import { Link } from 'react-router';

import { ApprovalDecisions } from '@/components/approvals/approval-decisions';
import { StatusBadge, type StatusTone } from '@/components/status-badge';
import { Card } from '@/components/ui/card';
import { APPROVAL_STATUS_LABELS, deciderName } from '@/lib/approvals/approval-texts';
import { formatDateTime } from '@/lib/format';
import { runDetailsPath } from '@/lib/run-links';

const STATUS_TONE: Record<ApprovalStatus, StatusTone> = {
  pending: 'violet',
  approved: 'green',
  rejected: 'red',
  timed_out: 'yellow',
  cancelled: 'gray',
};

export function DecidedApprovalCard({ approval }: { approval: Approval }) {
  const labels = Object.fromEntries(approval.fields.map((field) => [field.name, field.label]));
  return (
    <Card
      role="article"
      aria-label={approval.title}
      data-testid="decided-approval-card"
      data-approval-id={approval.id}
      className="gap-3 px-5 py-4"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 space-y-1">
          <h2 className="text-base leading-tight font-semibold break-words">{approval.title}</h2>
          <p className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted-foreground">
            <Link
              to={runDetailsPath(approval.executionId)}
              className="font-medium text-primary hover:underline"
            >
              {approval.workflowName ?? 'Workflow run'}
            </Link>
            {approval.decidedAt && (
              <span>
                Decided <time dateTime={approval.decidedAt}>{formatDateTime(approval.decidedAt)}</time>
              </span>
            )}
          </p>
        </div>
        <StatusBadge
          label={APPROVAL_STATUS_LABELS[approval.status]}
          tone={STATUS_TONE[approval.status]}
          className="shrink-0"
        />
      </div>
      {approval.decisions.length > 0 && (
        <ApprovalDecisions
          decisions={approval.decisions}
          nameOf={(decision) => deciderName(decision)}
          fieldLabels={labels}
        />
      )}
    </Card>
  );
}
