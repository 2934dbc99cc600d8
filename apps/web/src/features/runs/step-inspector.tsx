import { STEP_TOOL_RESULT_LIMIT, type StepRecord } from '@crewline/contracts';
import { ChevronRight, Users, Wrench } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';

import { RetrievalBlock } from '@/components/retrieval-block';
import { Button } from '@/components/ui/button';
import { formatNumber } from '@/lib/format';
import { formatToolArguments, formatToolResult } from '@/lib/tool-call-text';
import { cn } from '@/lib/utils';

import { MESSAGE_ROLE_LABELS, messagePreview, modelLabel, retriesLabel, teamNote } from './step-records';

const PRE =
  'overflow-x-auto rounded-md border bg-muted/40 p-2.5 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap';

/** One message the model received: its role, and its text folded behind 'Show more' when long. */
function Message({ role, content }: StepRecord['messages'][number]) {
  const [expanded, setExpanded] = useState(false);
  const preview = messagePreview(content);
  return (
    <li className="space-y-1" data-testid="step-message">
      <p className="text-[11px] font-semibold tracking-wide text-muted-foreground uppercase">
        {MESSAGE_ROLE_LABELS[role]}
      </p>
      {/* Prompt text is shown as text: React escapes it, whitespace is kept. */}
      <pre className={PRE}>{expanded ? content : preview.text}</pre>
      {preview.folded && (
        <Button
          type="button"
          variant="link"
          size="sm"
          className="h-auto p-0 text-xs"
          aria-expanded={expanded}
          onClick={() => setExpanded((open) => !open)}
        >
          {expanded ? 'Show less' : 'Show more'}
        </Button>
      )}
    </li>
  );
}

/** A tool call's arguments and its result (or error) as the model got them. */
function RawCall({ call }: { call: StepRecord['toolCalls'][number] }) {
  return (
    <>
      <div className="space-y-1">
        <p className="text-[11px] font-semibold tracking-wide text-muted-foreground uppercase">Arguments</p>
        <pre className={PRE}>{formatToolArguments(call.arguments)}</pre>
      </div>
      <div className="space-y-1">
        <p
          className={cn(
            'text-[11px] font-semibold tracking-wide uppercase',
            call.isError ? 'text-red-700 dark:text-red-400' : 'text-muted-foreground',
          )}
        >
          {call.isError ? 'Error' : 'Result'}
        </p>
        <pre className={cn(PRE, 'max-h-64 overflow-y-auto')} data-testid="step-tool-result">
          {formatToolResult(call.result)}
        </pre>
        {call.truncated && (
          <p className="text-xs text-muted-foreground">
            Showing the first {formatNumber(STEP_TOOL_RESULT_LIMIT)} characters; the model received the whole
            result.
          </p>
        )}
      </div>
    </>
  );
}

/** One tool call: a knowledge search as its query and passages (the raw call behind a toggle), any other as it ran. */
function ToolCall({ call }: { call: StepRecord['toolCalls'][number] }) {
  return (
    <li className="space-y-2 rounded-md border p-2.5" data-testid="step-tool-call">
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 text-xs">
        <span className="inline-flex min-w-0 items-center gap-1.5 font-mono font-medium break-all">
          <Wrench className="size-3.5 shrink-0 text-muted-foreground" aria-hidden="true" />
          {call.name}
        </span>
        <span className="text-muted-foreground tabular-nums">{formatNumber(call.durationMs)} ms</span>
      </div>
      {call.retrieval ? (
        <RetrievalBlock retrieval={call.retrieval} raw={<RawCall call={call} />} />
      ) : (
        <RawCall call={call} />
      )}
    </li>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-1.5">
      <h4 className="text-xs font-medium text-muted-foreground">{title}</h4>
      {children}
    </section>
  );
}

/**
 * A step's record behind a disclosure: the messages the model received, its answer, each tool call,
 * retries, model and tokens, and for a hierarchical lead what it did with its team.
 */
export function StepInspector({ record }: { record: StepRecord }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const team = teamNote(record);
  return (
    <div className="border-t" data-testid="step-inspector">
      <button
        type="button"
        className="flex w-full items-center gap-1.5 px-3 py-2 text-left text-xs font-medium text-muted-foreground hover:bg-muted/40 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
      >
        <ChevronRight
          className={cn('size-3.5 transition-transform', open && 'rotate-90')}
          aria-hidden="true"
        />
        Inspect step
        <span className="ml-auto font-normal">
          {record.toolCalls.length > 0 &&
            `${record.toolCalls.length} tool call${record.toolCalls.length === 1 ? '' : 's'}`}
        </span>
      </button>
      {open && (
        <div id={panelId} className="space-y-3 px-3 pb-3" data-testid="step-inspector-panel">
          {team && (
            <p
              className={cn(
                'flex items-start gap-2 rounded-md border p-2.5 text-xs',
                team.alone
                  ? 'border-amber-500/30 bg-amber-50 text-amber-800 dark:bg-amber-950/40 dark:text-amber-300'
                  : 'bg-muted/30',
              )}
              data-testid="step-team-note"
            >
              <Users className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
              {team.text}
            </p>
          )}
          <dl className="grid grid-cols-2 gap-x-4 gap-y-2 rounded-md border bg-muted/30 p-2.5 text-xs sm:grid-cols-4">
            <div className="min-w-0">
              <dt className="text-muted-foreground">Model</dt>
              <dd className="truncate font-medium" title={modelLabel(record)}>
                {modelLabel(record)}
              </dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Retries</dt>
              <dd className="font-medium">{retriesLabel(record.retries)}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Prompt tokens</dt>
              <dd className="font-medium tabular-nums">{formatNumber(record.promptTokens)}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Completion tokens</dt>
              <dd className="font-medium tabular-nums">{formatNumber(record.completionTokens)}</dd>
            </div>
          </dl>
          <Section title="Messages">
            <ol className="space-y-2">
              {record.messages.map((message, index) => (
                <Message key={index} {...message} />
              ))}
            </ol>
          </Section>
          {record.toolCalls.length > 0 && (
            <Section title="Tool calls">
              <ol className="space-y-2">
                {record.toolCalls.map((call, index) => (
                  <ToolCall key={index} call={call} />
                ))}
              </ol>
            </Section>
          )}
          <Section title="Answer">
            {record.answer === null ? (
              <p className="text-xs text-muted-foreground">The model call failed before it answered.</p>
            ) : (
              <pre className={PRE} data-testid="step-answer">
                {record.answer}
              </pre>
            )}
          </Section>
        </div>
      )}
    </div>
  );
}
