import {
  STEP_TOOL_RESULT_LIMIT,
  type EvaluationRecord,
  type NodeKind,
  type StepRecord,
  type TokenUsage,
} from '@crewline/contracts';
import { Check, ChevronRight, Users, Wrench } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';

import { ApprovalDecisions } from '@/components/approvals/approval-decisions';
import { RetrievalBlock } from '@/components/retrieval-block';
import { Button } from '@/components/ui/button';
import {
  approvalStepData,
  deciderName,
  STEP_DECISION_LABELS,
  type ApprovalStepData,
} from '@/lib/approvals/approval-texts';
import { formatNumber } from '@/lib/format';
import { formatToolArguments, formatToolResult } from '@/lib/tool-call-text';
import { cn } from '@/lib/utils';

import { DataTree } from './data-tree';
import { runCostFact } from './execution-facts';
import { GuardrailFindings } from './guardrail-findings';
import { StepConsole } from './step-console';
import {
  assignmentRows,
  conditionRows,
  MESSAGE_ROLE_LABELS,
  messagePreview,
  modelLabel,
  retriesLabel,
  teamNote,
  type BranchDefinition,
  type ConditionRow,
} from './step-records';

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

const VALUE_TONE: Record<ConditionRow['state'], string> = {
  true: 'border-emerald-500/30 bg-emerald-50 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300',
  false: 'border-border bg-muted text-muted-foreground',
  error: 'border-red-500/30 bg-red-50 text-red-700 dark:bg-red-950 dark:text-red-300',
  'not-evaluated': 'border-dashed border-border text-muted-foreground',
  else: '',
};

/** A condition's branches in order, each expression with its value, the one taken marked, then else. */
function ConditionEvaluation({
  evaluation,
  branches,
}: {
  evaluation: EvaluationRecord;
  branches?: readonly BranchDefinition[];
}) {
  const { rows, taken } = conditionRows(evaluation, branches);
  return (
    <Section title="Branches">
      <ol className="divide-y overflow-hidden rounded-md border text-xs" data-testid="step-condition">
        {rows.map((row, index) => (
          <li
            key={index}
            data-testid="step-branch"
            data-taken={row.taken || undefined}
            className={cn('space-y-1 px-2.5 py-2', row.taken && 'bg-emerald-500/5')}
          >
            <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <span className="font-medium">{row.label}</span>
              {row.state !== 'else' && (
                <span
                  className={cn(
                    'rounded-full border px-1.5 py-px text-[11px] font-medium',
                    VALUE_TONE[row.state],
                  )}
                  data-testid="step-branch-value"
                >
                  {row.value}
                </span>
              )}
              {row.taken && (
                <span className="ml-auto inline-flex items-center gap-1 font-medium text-emerald-700 dark:text-emerald-400">
                  <Check className="size-3.5" aria-hidden="true" />
                  Taken
                </span>
              )}
            </div>
            {row.expression !== null ? (
              <code className="block font-mono break-words whitespace-pre-wrap text-muted-foreground">
                {row.expression}
              </code>
            ) : (
              <p className="text-muted-foreground">When no branch above is true.</p>
            )}
          </li>
        ))}
      </ol>
      {taken && (
        <p className="text-xs" data-testid="step-branch-taken">
          Branch taken: <span className="font-semibold">{taken}</span>
        </p>
      )}
    </Section>
  );
}

/** What a transform (or another step that calls no model) evaluated: `name = value`, each with its expression. */
function AssignmentEvaluation({ evaluation }: { evaluation: EvaluationRecord }) {
  const rows = assignmentRows(evaluation);
  return (
    <Section title={evaluation.kind === 'transform' ? 'Values set' : 'Evaluated'}>
      {rows.length === 0 ? (
        <p className="text-xs text-muted-foreground">Nothing was evaluated.</p>
      ) : (
        <ul className="divide-y overflow-hidden rounded-md border text-xs" data-testid="step-assignments">
          {rows.map((row, index) => (
            <li key={index} className="space-y-1 px-2.5 py-2" data-testid="step-assignment">
              <p className="font-mono break-words">
                <span className="font-semibold">{row.name}</span> ={' '}
                <span className={row.error ? 'text-red-700 dark:text-red-400' : undefined}>{row.value}</span>
              </p>
              <code className="block font-mono break-words whitespace-pre-wrap text-muted-foreground">
                {row.expression}
              </code>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

/**
 * An approval step's data: how it ended, each decision (who, when, from where, comment and answers)
 * and the form's answers as later steps read them (`nodes.<id>.data.fields`).
 */
function ApprovalStep({
  data,
  people,
}: {
  data: ApprovalStepData;
  people?: Readonly<Record<string, string>>;
}) {
  return (
    <>
      {data.decision && (
        <p className="text-xs" data-testid="step-approval-decision">
          Decision: <span className="font-semibold">{STEP_DECISION_LABELS[data.decision]}</span>
        </p>
      )}
      <Section title="Decisions">
        <ApprovalDecisions
          decisions={data.decisions}
          nameOf={(decision) => people?.[decision.userId] ?? deciderName(decision)}
          className="text-xs"
        />
      </Section>
      {Object.keys(data.fields).length > 0 && (
        <Section title="Form answers">
          <DataTree value={data.fields} label="Form answers" />
        </Section>
      )}
    </>
  );
}

/** What a step's model calls cost as its output entry's usage says it (absent on older runs). */
type StepCost = Pick<TokenUsage, 'costUsd' | 'unpricedModels'>;

/** A model call's record: the messages, each tool call and the answer, with its model, tokens and cost. */
function ModelCall({ record, usage }: { record: StepRecord; usage?: StepCost }) {
  const team = teamNote(record);
  // The same words as the run's Cost fact: the amount, or 'Unknown' naming the models without a price.
  const cost = usage ? runCostFact(usage) : null;
  return (
    <>
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
      <dl
        className={cn(
          'grid grid-cols-2 gap-x-4 gap-y-2 rounded-md border bg-muted/30 p-2.5 text-xs',
          cost ? 'sm:grid-cols-5' : 'sm:grid-cols-4',
        )}
      >
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
        {cost && (
          <div className="min-w-0" data-testid="step-cost">
            <dt className="text-muted-foreground">Cost</dt>
            <dd className="font-medium tabular-nums" title={cost.note ?? undefined}>
              {cost.amount}
              {cost.note && (
                <span className="block truncate font-normal text-muted-foreground">{cost.note}</span>
              )}
            </dd>
          </div>
        )}
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
    </>
  );
}

/**
 * A step's record behind a disclosure: for a model call the messages the model received, its answer,
 * each tool call, retries, model, tokens and cost, and for a hierarchical lead what it did with its team;
 * for a step that calls no model what it evaluated (a condition's branches and the one taken, a
 * transform's values); and the step's data as a tree when it has any. Nothing to show: nothing shown.
 */
export function StepInspector({
  record,
  usage,
  evaluation,
  data,
  branches,
  kind,
  people,
}: {
  record?: StepRecord;
  /** The step's output entry's usage: its cost beside the record's tokens (none on a failed step). */
  usage?: StepCost;
  evaluation?: EvaluationRecord;
  /** The step's structured value (its output's `data`). */
  data?: unknown;
  /** A condition's branches as its version defines them: the ones never evaluated are listed too. */
  branches?: readonly BranchDefinition[];
  /** The step's node kind: an approval's data is shown as its decisions. */
  kind?: NodeKind;
  /** Deciders' names by user id (a step's decisions name no one). */
  people?: Readonly<Record<string, string>>;
}) {
  const [open, setOpen] = useState(false);
  const approval = kind === 'approval' ? approvalStepData(data) : null;
  const panelId = useId();
  const hasData = data !== undefined;
  if (!record && !evaluation && !hasData) return null;
  const toolCalls = record?.toolCalls.length ?? 0;
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
          {toolCalls > 0 && `${toolCalls} tool call${toolCalls === 1 ? '' : 's'}`}
        </span>
      </button>
      {open && (
        <div id={panelId} className="space-y-3 px-3 pb-3" data-testid="step-inspector-panel">
          {kind === 'guardrail' && <GuardrailFindings data={data ?? evaluation?.result} />}
          {evaluation &&
            kind !== 'guardrail' &&
            (evaluation.kind === 'condition' ? (
              <ConditionEvaluation evaluation={evaluation} branches={branches} />
            ) : evaluation.kind === 'code' ? (
              <Section title="Console">
                <StepConsole logs={evaluation.logs ?? []} />
              </Section>
            ) : (
              <AssignmentEvaluation evaluation={evaluation} />
            ))}
          {record && <ModelCall record={record} usage={usage} />}
          {approval && <ApprovalStep data={approval} people={people} />}
          {hasData && !approval && kind !== 'guardrail' && (
            <Section title={evaluation?.kind === 'code' ? 'Result' : 'Data'}>
              <DataTree value={data} label="Step data" />
            </Section>
          )}
        </div>
      )}
    </div>
  );
}
