import { STEP_TOOL_RESULT_LIMIT } from '@crewline/contracts';
import { AlertCircle, ChevronRight, Wrench } from 'lucide-react';
import { useId, useState } from 'react';

import { RetrievalBlock } from '@/components/retrieval-block';
import { formatMilliseconds, formatNumber } from '@/lib/format';
import { hitsLabel } from '@/lib/retrieval-text';
import { formatToolArguments, formatToolResult } from '@/lib/tool-call-text';
import { cn } from '@/lib/utils';

import { usageLabel, type AssistantTurn, type ToolCallLine, type Turn } from '../playground-conversation';

const PRE =
  'max-h-60 overflow-auto rounded-md border bg-muted/40 p-2 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap';
const LABEL = 'text-[11px] font-semibold tracking-wide uppercase';

/** A tool call's arguments and its result (or error) as the model got them. */
function RawCall({ call }: { call: ToolCallLine }) {
  return (
    <>
      <div className="space-y-1">
        <p className={cn(LABEL, 'text-muted-foreground')}>Arguments</p>
        <pre className={PRE}>{formatToolArguments(call.args)}</pre>
      </div>
      <div className="space-y-1">
        <p className={cn(LABEL, call.isError ? 'text-red-700 dark:text-red-400' : 'text-muted-foreground')}>
          {call.isError ? 'Error' : 'Result'}
        </p>
        <pre className={PRE} data-testid="playground-tool-result">
          {formatToolResult(call.result)}
        </pre>
        {call.truncated && (
          <p className="text-muted-foreground">
            Showing the first {formatNumber(STEP_TOOL_RESULT_LIMIT)} characters; the model received the whole
            result.
          </p>
        )}
      </div>
    </>
  );
}

/**
 * One tool call of a reply: its name and time, opening on click to its arguments and result (a
 * knowledge search to its query and passages first).
 */
function ToolCall({ call }: { call: ToolCallLine }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <li className="rounded-md border bg-background text-xs" data-testid="playground-tool-call">
      <button
        type="button"
        className="flex w-full items-center gap-1.5 rounded-md px-2.5 py-1.5 text-left hover:bg-muted/50 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
      >
        <ChevronRight
          className={cn('size-3.5 shrink-0 text-muted-foreground transition-transform', open && 'rotate-90')}
          aria-hidden="true"
        />
        <Wrench className="size-3.5 shrink-0 text-muted-foreground" aria-hidden="true" />
        <span className="min-w-0 truncate font-mono font-medium">{call.name}</span>
        {call.isError && <span className="font-medium text-red-700 dark:text-red-400">failed</span>}
        {call.retrieval && (
          <span className="shrink-0 text-muted-foreground">{hitsLabel(call.retrieval.hits.length)}</span>
        )}
        <span className="ml-auto shrink-0 text-muted-foreground tabular-nums">
          {formatMilliseconds(call.durationMs)}
        </span>
      </button>
      {open && (
        <div id={panelId} className="space-y-2 border-t p-2.5" data-testid="playground-tool-call-details">
          {call.retrieval ? (
            <RetrievalBlock retrieval={call.retrieval} raw={<RawCall call={call} />} />
          ) : (
            <RawCall call={call} />
          )}
        </div>
      )}
    </li>
  );
}

function Reply({ turn }: { turn: AssistantTurn }) {
  const streaming = turn.status === 'streaming';
  return (
    <div className="max-w-[92%] min-w-0 space-y-2" data-testid="playground-reply" data-status={turn.status}>
      {turn.toolCalls.length > 0 && (
        <ol className="space-y-1.5" aria-label="Tool calls">
          {turn.toolCalls.map((call, index) => (
            <ToolCall key={index} call={call} />
          ))}
        </ol>
      )}
      {(turn.content || streaming) && (
        <div className="rounded-2xl rounded-tl-sm bg-muted px-3.5 py-2.5 text-sm break-words whitespace-pre-wrap">
          {turn.content}
          {streaming && (
            <span
              className="ml-0.5 inline-block h-4 w-1.5 translate-y-0.5 animate-pulse rounded-sm bg-foreground/60"
              aria-hidden="true"
            />
          )}
          {streaming && !turn.content && <span className="sr-only">The agent is answering…</span>}
        </div>
      )}
      {turn.status === 'error' && (
        <p
          className="flex items-start gap-2 rounded-md border border-red-500/30 bg-red-50 px-3 py-2 text-sm text-red-800 dark:bg-red-950/40 dark:text-red-300"
          data-testid="playground-reply-error"
        >
          <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span className="min-w-0 break-words">{turn.error}</span>
        </p>
      )}
      {turn.status === 'stopped' && <p className="text-xs text-muted-foreground italic">Stopped</p>}
      {turn.status === 'done' && turn.usage && (
        <p className="text-xs text-muted-foreground" data-testid="playground-reply-stats">
          {usageLabel(turn.usage)}
          {turn.durationMs !== undefined && ` · ${formatMilliseconds(turn.durationMs)}`}
        </p>
      )}
    </div>
  );
}

/** One message of the conversation: the user's on the right, the agent's on the left with its details. */
export function PlaygroundTurn({ turn }: { turn: Turn }) {
  if (turn.role === 'assistant') {
    return (
      <li className="flex">
        <Reply turn={turn} />
      </li>
    );
  }
  return (
    <li className="flex justify-end">
      <p
        className="max-w-[85%] rounded-2xl rounded-tr-sm bg-primary px-3.5 py-2.5 text-sm break-words whitespace-pre-wrap text-primary-foreground"
        data-testid="playground-user-message"
      >
        <span className="sr-only">You: </span>
        {turn.content}
      </p>
    </li>
  );
}
