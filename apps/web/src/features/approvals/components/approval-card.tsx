// One approval waiting for the viewer, on the Inbox: what is asked (title, message, a tool call's
// arguments), from which run, since when and until when, and the decision form.
import type { Approval } from '@crewline/contracts';
import { Clock, Hourglass, Wrench } from 'lucide-react';
import { Link } from 'react-router';

import { ApprovalDecisionForm } from '@/components/approvals/approval-decision-form';
import { Card } from '@/components/ui/card';
import { policyText } from '@/lib/approvals/approval-texts';
import { formatDateTime, formatRelativeTime } from '@/lib/format';
import { runDetailsPath } from '@/lib/run-links';
import { formatToolArguments } from '@/lib/tool-call-text';

export function ApprovalCard({
  approval,
  viewerId,
  now,
}: {
  approval: Approval;
  viewerId: string | undefined;
  now: number;
}) {
  return (
    <Card
      role="article"
      aria-label={approval.title}
      data-testid="approval-card"
      data-approval-id={approval.id}
      className="gap-4 px-5 py-5"
    >
      <div className="min-w-0 space-y-1.5">
        <h2 className="text-base leading-tight font-semibold break-words">{approval.title}</h2>
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
          <Link
            to={runDetailsPath(approval.executionId)}
            className="font-medium text-primary hover:underline"
            data-testid="approval-workflow"
          >
            {approval.workflowName ?? 'Workflow run'}
          </Link>
          <span className="inline-flex items-center gap-1" title={formatDateTime(approval.createdAt)}>
            <Clock className="size-3.5" aria-hidden="true" />
            Requested {formatRelativeTime(approval.createdAt, now)}
          </span>
          {approval.expiresAt && (
            <span
              className="inline-flex items-center gap-1 text-amber-700 dark:text-amber-400"
              title={formatDateTime(approval.expiresAt)}
              data-testid="approval-expires"
            >
              <Hourglass className="size-3.5" aria-hidden="true" />
              Times out {formatRelativeTime(approval.expiresAt, now)}
            </span>
          )}
          {approval.policy !== 'first' && <span>{policyText(approval.policy)}</span>}
        </p>
      </div>
      {approval.message && (
        // Filled-in template text: shown as text, whitespace kept.
        <p className="text-sm leading-relaxed break-words whitespace-pre-wrap" data-testid="approval-message">
          {approval.message}
        </p>
      )}
      {approval.toolCall && (
        <div
          className="space-y-1 rounded-md border bg-muted/30 p-2.5 text-xs"
          data-testid="approval-tool-call"
        >
          <p className="inline-flex items-center gap-1.5 font-mono font-medium break-all">
            <Wrench className="size-3.5 shrink-0 text-muted-foreground" aria-hidden="true" />
            {approval.toolCall.tool}
          </p>
          <pre className="max-h-48 overflow-auto font-mono break-words whitespace-pre-wrap">
            {formatToolArguments(approval.toolCall.arguments)}
          </pre>
        </div>
      )}
      <ApprovalDecisionForm approval={approval} via="inbox" viewerId={viewerId} />
    </Card>
  );
}
