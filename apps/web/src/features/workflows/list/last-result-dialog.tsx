import type { Execution } from '@crewline/contracts';
import { Bot, Clock, Coins } from 'lucide-react';

import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { formatDateTime, formatDuration, formatNumber } from '@/lib/format';

import { ExecutionStatusBadge } from './workflow-badges';
import { readableOutputs, shortId } from './workflow-list-logic';

/** The newest run of a workflow, opened by the card's Last Result (spec part 1 §2, §4). */
export function LastResultDialog({
  execution,
  workflowName,
  open,
  onOpenChange,
}: {
  execution: Execution;
  workflowName: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const outputs = readableOutputs(execution.output);
  const duration = formatDuration(execution.startedAt, execution.completedAt);

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[85svh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle className="break-words">Last Result: {workflowName}</DialogTitle>
          <DialogDescription>
            Execution <span className="font-mono">{shortId(execution.id)}</span>
          </DialogDescription>
        </DialogHeader>

        <dl className="grid grid-cols-2 gap-3 rounded-lg border bg-muted/30 p-3 text-sm sm:grid-cols-3">
          <div className="space-y-1">
            <dt className="text-xs text-muted-foreground">Status</dt>
            <dd>
              <ExecutionStatusBadge status={execution.status} />
            </dd>
          </div>
          <div className="space-y-1">
            <dt className="text-xs text-muted-foreground">Started</dt>
            <dd className="font-medium">{formatDateTime(execution.startedAt, 'Not started')}</dd>
          </div>
          <div className="space-y-1">
            <dt className="text-xs text-muted-foreground">Duration</dt>
            <dd className="font-medium tabular-nums">{duration ?? '—'}</dd>
          </div>
        </dl>

        {execution.error && (
          <div className="rounded-lg border border-red-500/30 bg-red-500/10 p-3 text-sm text-red-700 dark:text-red-400">
            <p className="font-medium">Error:</p>
            <p className="mt-1 break-words whitespace-pre-wrap">{execution.error}</p>
          </div>
        )}

        {outputs.length > 0 ? (
          <ul className="space-y-3" aria-label="Agent outputs">
            {outputs.map((output) => (
              <li key={output.nodeId} className="space-y-2 rounded-lg border p-3">
                <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted-foreground">
                  <span className="inline-flex items-center gap-1 font-medium text-foreground">
                    <Bot className="size-3.5" aria-hidden="true" />
                    {output.agentName}
                  </span>
                  {output.executionTime !== null && (
                    <span className="inline-flex items-center gap-1">
                      <Clock className="size-3.5" aria-hidden="true" />
                      {formatNumber(output.executionTime)} ms
                    </span>
                  )}
                  {output.totalTokens !== null && (
                    <span className="inline-flex items-center gap-1">
                      <Coins className="size-3.5" aria-hidden="true" />
                      {formatNumber(output.totalTokens)} tokens
                    </span>
                  )}
                </div>
                <p className="text-sm break-words whitespace-pre-wrap">{output.content}</p>
              </li>
            ))}
          </ul>
        ) : (
          <div className="rounded-lg border border-dashed p-6 text-center">
            <p className="font-medium">No Agent Outputs</p>
            <p className="text-sm text-muted-foreground">
              This execution didn&apos;t produce any readable agent outputs.
            </p>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
