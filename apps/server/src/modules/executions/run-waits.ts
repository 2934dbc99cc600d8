import type { ExecutionWait, RealtimeEvent } from '@crewline/contracts';
import type { StoredWait } from '@crewline/db';
import { randomUUID } from 'node:crypto';
import { RunWaiting, type ApprovalOutcome, type StepRef, type WaitPorts } from '@crewline/engine';
import type { LlmPendingApproval, LlmUsage } from '../../platform/llm';
import type { ApprovalRow, ApprovalsRepository } from './approvals.repository';
import type { EventOutbox } from './event-outbox';
import { Interrupted } from './run-errors';
import type { RunLog } from './run-log';
import { readStoredWait } from './stored-wait';

/** What an attempt's waits need: its run, its clock and its ways to the database and the bus. */
export type RunWaitsDeps = {
  approvals: Pick<
    ApprovalsRepository,
    'forStep' | 'byId' | 'request' | 'suspend' | 'close' | 'keepToolResult'
  >;
  ids: { organizationId: string; executionId: string; workflowId: string };
  attempt: number;
  /** The run's stored wait when this attempt resumed it from one (its `waiting` column). */
  resumedFrom: unknown;
  outbox: EventOutbox;
  runLog: RunLog;
  /** Milliseconds: the waits' clock (tests move it). */
  clock: () => number;
  /** Tells a new approval's approvers, once it has committed (approval-links.service.ts: by email). */
  notifyApprovers?: (approvalId: string) => void;
};

const dto = (wait: StoredWait): ExecutionWait => ({
  kind: wait.kind,
  nodeId: wait.stepId,
  title: wait.title,
  since: wait.since,
  until: wait.until,
  approvalId: wait.approvalId,
});

/**
 * The engine's wait ports for one attempt (docs/product-rules.md, People in the loop). A step that
 * must wait stores the run as waiting, with its wait, in one statement that also announces it, and
 * throws RunWaiting: the attempt ends there, holding nothing. The run goes on when its approval is
 * decided (approvals.service.ts) or when its time comes (run-wake-ups.ts), in a new attempt that
 * asks again: a delay whose end has passed, or an approval that timed out, then completes.
 */
/** The engine's wait ports, and what an agent step needs to wait for a tool call's approval. */
export type RunWaits = WaitPorts & {
  /**
   * The tool-call approval the run waited for when it stopped at this agent step, if it did: what the
   * step goes on from. Read only then (the run's stored wait names it), so a step costs no statement.
   */
  toolCallWaitedFor(stepId: string): Promise<ApprovalRow | undefined>;
  /** Keeps an approved call's result as soon as it ran. */
  keepToolResult(approvalId: string, result: unknown): Promise<void>;
  /** Stores the run waiting for a person to approve the tool call, and stops the attempt. */
  toolCall(
    step: StepRef,
    call: { pending: LlmPendingApproval; usage: LlmUsage; agentName: string },
  ): Promise<never>;
  /** Waits again for a tool call's approval still pending (a run woken before its decision). */
  toolCallAgain(step: StepRef, approval: ApprovalRow): Promise<never>;
  /** The approval to raise the run's budget it waited for at this agent step, if it did (as toolCallWaitedFor). */
  budgetWaitedFor(stepId: string): Promise<ApprovalRow | undefined>;
  /**
   * Stores the run waiting for an owner or admin to raise its budget before the agent step's first
   * call (nothing of the step has run), and stops the attempt; `again` waits on the one asked before.
   */
  budget(step: StepRef, request: { title: string; message: string }, again?: ApprovalRow): Promise<never>;
};

/** A budget approval's call id: apart from the step's tool calls ('' is an Approval step's). */
const BUDGET_CALL = 'budget-';

export function createRunWaits(deps: RunWaitsDeps): RunWaits {
  const { ids, attempt, outbox, runLog, approvals } = deps;
  const previous = readStoredWait(deps.resumedFrom);
  const now = () => new Date(deps.clock());

  /** Stores the run waiting (with `more` events beside its own) and stops the attempt. */
  async function waitFor(
    step: StepRef,
    wait: StoredWait,
    store: (events: RealtimeEvent[]) => Promise<boolean>,
  ): Promise<never> {
    runLog.add('info', `Waiting: ${wait.title}`, step.nodeId);
    const stored = await store([{ type: 'workflow_execution_waiting', ...ids, waiting: dto(wait) }]);
    if (!stored) throw new Interrupted('superseded');
    throw new RunWaiting(step.nodeId);
  }

  /** The run stops on a wait of something that exists already (a delay's end, an approval asked before). */
  const waitAgain = (step: StepRef, wait: StoredWait, wakeAt: Date | null) =>
    waitFor(step, wait, async (events) => {
      const { notify } = await outbox.withStatement(events);
      return approvals.suspend(ids.executionId, attempt, { wait, wakeAt, logs: runLog.unstored() }, notify);
    });

  /**
   * A new approval and the run's wait, committed together with their events; its approvers are told
   * (by email) once it has committed.
   */
  async function requestApproval(
    approval: Parameters<ApprovalsRepository['request']>[1],
    runWait: Parameters<ApprovalsRepository['request']>[2],
    events: RealtimeEvent[],
  ) {
    const { notify } = await outbox.withStatement([
      ...events,
      { type: 'approval_requested', ...ids, approvalId: approval.id },
    ]);
    const requested = await approvals.request({ id: ids.executionId, attempt }, approval, runWait, notify);
    if (requested) deps.notifyApprovers?.(approval.id);
    return requested;
  }

  const ports: WaitPorts = {
    async delay(step, request) {
      // The end stored when the run first reached this delay; a run resumed before it waits again.
      const stored = previous?.kind === 'delay' && previous.stepId === step.nodeId && previous.until;
      const until = stored ? Date.parse(stored) : request.until;
      if (until <= deps.clock()) return { until };
      const wait: StoredWait = {
        v: 1,
        kind: 'delay',
        stepId: step.nodeId,
        title: request.title,
        since: stored ? previous!.since : now().toISOString(),
        until: new Date(until).toISOString(),
        approvalId: null,
      };
      return waitAgain(step, wait, new Date(until));
    },

    async approval(step, request): Promise<ApprovalOutcome> {
      const existing = await approvals.forStep(ids.executionId, step.nodeId);
      if (existing && existing.status !== 'pending') {
        if (existing.status === 'cancelled') throw new Interrupted('cancelled');
        // Decided (its decision stores the step, so this is a decision stored without it) or timed out.
        return outcomeOf(existing.status, existing.onTimeout, existing.decisions);
      }
      if (existing?.expiresAt && existing.expiresAt.getTime() <= deps.clock()) {
        // Its timeout woke the run: closed by compare-and-set, so a decision at the same moment cannot also win.
        if (!(await approvals.close(existing.id, 'timed_out', now())))
          // Decided or cancelled a moment before: read it again.
          return ports.approval(step, request);
        runLog.add('warn', `Timed out: ${existing.title}`, step.nodeId);
        await outbox.publish({
          type: 'approval_decided',
          ...ids,
          approvalId: existing.id,
          status: 'timed_out',
        });
        return outcomeOf('timed_out', existing.onTimeout, existing.decisions);
      }
      const since = existing?.createdAt ?? now();
      const expiresAt = existing
        ? existing.expiresAt
        : request.timeout
          ? new Date(since.getTime() + request.timeout.seconds * 1000)
          : null;
      const approvalId = existing?.id ?? randomUUID();
      const wait: StoredWait = {
        v: 1,
        kind: 'approval',
        stepId: step.nodeId,
        title: existing?.title ?? request.title,
        since: since.toISOString(),
        until: expiresAt?.toISOString() ?? null,
        approvalId,
      };
      if (existing) return waitAgain(step, wait, expiresAt);
      return waitFor(step, wait, async (events) => {
        const runWait = { wait, wakeAt: expiresAt, logs: runLog.unstored() };
        return requestApproval(
          {
            id: approvalId,
            organizationId: ids.organizationId,
            executionId: ids.executionId,
            workflowId: ids.workflowId,
            nodeId: step.nodeId,
            title: request.title,
            message: request.message,
            policy: request.policy,
            assignees: request.assignees,
            fields: request.fields,
            onTimeout: request.timeout?.onTimeout ?? null,
            expiresAt,
            // Halfway to the timeout, those who have not decided are reminded (run-wake-ups.ts).
            remindAt: expiresAt && new Date((since.getTime() + expiresAt.getTime()) / 2),
            createdAt: since,
          },
          runWait,
          events,
        );
      });
    },
  };
  /** The wait of a tool call's approval, new or stored. */
  const toolWait = (step: StepRef, approvalId: string, title: string, since: Date): StoredWait => ({
    v: 1,
    kind: 'approval',
    stepId: step.nodeId,
    title,
    since: since.toISOString(),
    until: null,
    approvalId,
  });

  /**
   * Stores the run waiting at an agent step for a new approval of the step's own (a tool call's, a
   * budget's: decided by the first owner or approver, with no timeout), and stops the attempt.
   */
  function stepApproval(
    step: StepRef,
    title: string,
    details: (
      approvalId: string,
    ) => Pick<
      Parameters<ApprovalsRepository['request']>[1],
      'callId' | 'message' | 'assignees' | 'fields' | 'toolCall'
    >,
  ): Promise<never> {
    const approvalId = randomUUID();
    const since = now();
    const wait = toolWait(step, approvalId, title, since);
    return waitFor(step, wait, async (events) =>
      requestApproval(
        {
          id: approvalId,
          organizationId: ids.organizationId,
          executionId: ids.executionId,
          workflowId: ids.workflowId,
          nodeId: step.nodeId,
          title,
          policy: 'first',
          createdAt: since,
          ...details(approvalId),
        },
        { wait, wakeAt: null, logs: runLog.unstored() },
        events,
      ),
    );
  }

  return {
    ...ports,
    async toolCallWaitedFor(stepId) {
      if (previous?.kind !== 'approval' || previous.stepId !== stepId || !previous.approvalId)
        return undefined;
      const approval = await approvals.byId(ids.executionId, previous.approvalId);
      return approval?.toolCall ? approval : undefined;
    },
    keepToolResult: (approvalId, result) => approvals.keepToolResult(approvalId, result),

    toolCallAgain: (step, approval) =>
      waitAgain(step, toolWait(step, approval.id, approval.title, approval.createdAt), null),

    async budgetWaitedFor(stepId) {
      if (previous?.kind !== 'approval' || previous.stepId !== stepId || !previous.approvalId)
        return undefined;
      const approval = await approvals.byId(ids.executionId, previous.approvalId);
      return approval?.callId.startsWith(BUDGET_CALL) ? approval : undefined;
    },

    async budget(step, { title, message }, again) {
      if (again) return waitAgain(step, toolWait(step, again.id, again.title, again.createdAt), null);
      return stepApproval(step, title, (approvalId) => ({
        // Decided like a tool call's: the run goes on with the step still to run, none stored for it.
        callId: `${BUDGET_CALL}${approvalId}`,
        message,
        // Spending more is the organization's decision: its owners and admins make it.
        assignees: { roles: ['owner', 'admin'] },
        fields: [{ name: 'budgetUsd', label: 'New budget for this run (USD)', type: 'number' }],
      }));
    },

    toolCall: (step, { pending, usage, agentName }) =>
      stepApproval(step, `${agentName} wants to run ${pending.toolLabel}`, () => ({
        callId: pending.toolCallId,
        message: pending.reasoning.trim() || `${agentName} gave no reason.`,
        assignees: {},
        fields: [],
        toolCall: {
          v: 1,
          tool: pending.toolLabel,
          modelToolName: pending.toolName,
          sdkApprovalId: pending.approvalId,
          toolCallId: pending.toolCallId,
          arguments: pending.args,
          reasoning: pending.reasoning,
          messages: pending.messages,
          usage,
        },
      })),
  };
}

/** An approval that ended as its step's outcome: its decisions, and the first approver's form answers. */
export function outcomeOf(
  status: 'approved' | 'rejected' | 'timed_out' | 'pending',
  onTimeout: 'reject' | 'branch' | null,
  decisions: ApprovalOutcome['decisions'],
): ApprovalOutcome {
  const decision =
    status === 'approved'
      ? 'approved'
      : status === 'timed_out' && onTimeout === 'branch'
        ? 'timeout'
        : 'rejected';
  const answering = decisions.filter((d) => d.decision === (decision === 'approved' ? 'approve' : 'reject'));
  const fields = Object.assign({}, ...answering.map((d) => d.fields));
  return { decision, decisions, fields };
}
