// The audit of an approval: each decision with who took it, when, from where (Inbox, Email link,
// API key, Run view), the comment and the form's answers. Shown by the Inbox's Decided tab, a run's
// details and the approval step's inspector.
import type { ApprovalDecision, DecisionVia } from '@crewline/contracts';
import { CircleCheck, CircleX } from 'lucide-react';

import { answerText, decisionLabel, DECISION_VIA_LABELS } from '@/lib/approvals/approval-texts';
import { formatDateTime } from '@/lib/format';
import { cn } from '@/lib/utils';

/** A decision as the approval or its step's `data.decisions` holds it (the step's has no name). */
export type DecisionEntry = Omit<ApprovalDecision, 'userName' | 'via'> & {
  userName?: string | null;
  via: DecisionVia | (string & {});
};

export function ApprovalDecisions({
  decisions,
  nameOf,
  fieldLabels,
  className,
}: {
  decisions: readonly DecisionEntry[];
  /** The decider's name. */
  nameOf: (decision: DecisionEntry) => string;
  /** The form's labels by field name (answers are shown under them). */
  fieldLabels?: Readonly<Record<string, string>>;
  className?: string;
}) {
  if (decisions.length === 0)
    return <p className={cn('text-sm text-muted-foreground', className)}>No decisions yet.</p>;
  return (
    <ol
      className={cn('divide-y overflow-hidden rounded-lg border text-sm', className)}
      aria-label="Decisions"
    >
      {decisions.map((decision, index) => {
        const approved = decision.decision === 'approve';
        const Icon = approved ? CircleCheck : CircleX;
        const answers = Object.entries(decision.fields ?? {});
        return (
          <li key={index} className="space-y-1.5 px-3 py-2.5" data-testid="approval-decision">
            <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <span
                className={cn(
                  'inline-flex items-center gap-1 font-medium',
                  approved ? 'text-emerald-700 dark:text-emerald-400' : 'text-red-700 dark:text-red-400',
                )}
              >
                <Icon className="size-3.5" aria-hidden="true" />
                {decisionLabel(decision.decision)}
              </span>
              <span>
                by <span className="font-medium">{nameOf(decision)}</span>
              </span>
              <span className="text-muted-foreground">
                · <time dateTime={decision.at}>{formatDateTime(decision.at)}</time> · via{' '}
                {DECISION_VIA_LABELS[decision.via as DecisionVia] ?? decision.via}
              </span>
            </p>
            {decision.comment && (
              <p
                className="break-words whitespace-pre-wrap text-muted-foreground"
                data-testid="approval-decision-comment"
              >
                “{decision.comment}”
              </p>
            )}
            {answers.length > 0 && (
              <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-xs">
                {answers.map(([name, value]) => (
                  <div key={name} className="contents">
                    <dt className="text-muted-foreground">{fieldLabels?.[name] || name}</dt>
                    <dd className="break-words">{answerText(value)}</dd>
                  </div>
                ))}
              </dl>
            )}
          </li>
        );
      })}
    </ol>
  );
}
