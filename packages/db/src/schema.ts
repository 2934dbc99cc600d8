// The data model (docs/product-rules.md), plus the tables the server needs beyond it (auth sessions, rate
// limiting, per-organization tool configurations, worker heartbeats). Columns that have a default are
// NOT NULL: a null there would only be a second way of saying "the default", and the API contracts
// never expose one.
import {
  agentStatusValues,
  billingIntervalValues,
  DEFAULT_LLM_MODEL,
  DEFAULT_LLM_PROVIDER,
  embeddingProviderValues,
  executionStatusValues,
  knowledgeDocumentStatusValues,
  knowledgeMediaTypeValues,
  llmProviderValues,
  organizationRoleValues,
  paymentMethodValues,
  planIdValues,
  processTypeValues,
  subscriptionStatusValues,
  toolCategoryValues,
  triggerTypeValues,
  workflowStatusValues,
} from '@crewline/contracts';
import type {
  AgentGuardrails,
  ChatAccess,
  AgentMemorySettings,
  ToolApprovalPolicy,
  ApprovalAssignees,
  ApprovalField,
  ApprovalPolicy,
  ApprovalStatus,
  DecisionVia,
  FieldAnswers,
  ExecutionTrigger,
  TemplateAgent,
  NodeKind,
  WorkflowEdge,
  WorkflowNode,
} from '@crewline/contracts';
import {
  bigint,
  type AnyPgColumn,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

type JsonObject = Record<string, unknown>;

export const agentStatus = pgEnum('agent_status', agentStatusValues);
export const workflowStatus = pgEnum('workflow_status', workflowStatusValues);
export const executionStatus = pgEnum('execution_status', executionStatusValues);
export const llmProvider = pgEnum('llm_provider', llmProviderValues);
export const processType = pgEnum('process_type', processTypeValues);
export const triggerType = pgEnum('trigger_type', triggerTypeValues);
export const toolCategory = pgEnum('tool_category', toolCategoryValues);

const id = () => uuid('id').primaryKey().defaultRandom();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () =>
  timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());
const jsonObject = (name: string) => jsonb(name).$type<JsonObject>().notNull().default({});
const stringList = (name: string) => jsonb(name).$type<string[]>().notNull().default([]);
const logList = (name: string) => jsonb(name).$type<unknown[]>().notNull().default([]);
// Tokens a run or step reported in its metrics; rows written before metrics existed (or by hand) count
// as none. Stored (computed by Postgres on each write, and by the migration for older rows) so analytics
// read a number from an index instead of parsing every row's metrics.
const reportedTokens = (name: string) =>
  numeric(name)
    .notNull()
    .generatedAlwaysAs(
      sql.raw(
        `case when jsonb_typeof("metrics"->'totalTokens') = 'number' then ("metrics"->'totalTokens')::numeric else 0 end`,
      ),
    );

export const users = pgTable('users', {
  id: id(),
  username: text('username').notNull().unique(),
  email: text('email').notNull().unique(),
  /** argon2id hash, never the password itself. */
  password: text('password').notNull(),
  firstName: text('first_name'),
  lastName: text('last_name'),
  role: text('role').notNull().default('user'),
  stripeCustomerId: text('stripe_customer_id'),
  /**
   * When the current email was proven to be the user's (a verification link opened); null until then
   * and again after the email changes. Accepting an invitation requires it.
   */
  emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const organizations = pgTable('organizations', {
  id: id(),
  name: text('name').notNull(),
  slug: text('slug').notNull().unique(),
  settings: jsonObject('settings'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * An organization's plan and its trial or subscription (modules/billing owns it): one row per
 * organization, written at signup with its trial.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    organizationId: uuid('organization_id')
      .primaryKey()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    // The plan of the trial or subscription (planIdValues). It does not mean "subscribed": the tier is
    // computed from subscriptionStatus and the times below (modules/billing/subscription-state.ts); an
    // organization whose trial or canceled period ended is on the Free tier whatever this says.
    plan: text('plan').notNull().default('starter'),
    stripeCustomerId: text('stripe_customer_id'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    trialEndsAt: timestamp('trial_ends_at', { withTimezone: true }),
    /** As stored (subscriptionStatusValues); read it through the billing service, which applies what is due. */
    subscriptionStatus: text('subscription_status', { enum: subscriptionStatusValues })
      .notNull()
      .default('no_subscription'),
    /** The end of the paid period of an active subscription (a trial's period ends at trialEndsAt). */
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** A downgrade that applies at currentPeriodEnd. */
    pendingPlan: text('pending_plan', { enum: planIdValues }),
    /** How often the plan is billed: monthly, or yearly at 20 % off (billingIntervalValues). */
    billingInterval: text('billing_interval', { enum: billingIntervalValues }).notNull().default('month'),
    /** How it is paid: 'saved' (a payment method with the provider), 'invoice' (Enterprise); null: nothing to charge. */
    paymentMethod: text('payment_method', { enum: paymentMethodValues }),
    /** When the organization's one free trial began; set once, never cleared (docs/decisions/0012). */
    trialUsedAt: timestamp('trial_used_at', { withTimezone: true }),
    /**
     * Runs in progress at once that an operator set for this organization (an Enterprise agreement);
     * null: its plan's (PLAN_LIMITS concurrentRuns). Read with the plan when a run starts.
     */
    concurrentRuns: integer('concurrent_runs'),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      'subscriptions_subscription_status_check',
      sql`${t.subscriptionStatus} in ('no_subscription', 'trialing', 'active', 'past_due', 'canceled')`,
    ),
  ],
);

export const userOrganizations = pgTable(
  'user_organizations',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** owner, admin or member (organizationRoleValues; docs/security.md, Tenancy and roles). */
    role: text('role', { enum: organizationRoleValues }).notNull().default('member'),
    createdAt: createdAt(),
  },
  // user_id leads the unique index, so "the organizations of a user" needs no index of its own.
  (t) => [
    unique('user_organizations_user_id_organization_id_unique').on(t.userId, t.organizationId),
    index('user_organizations_organization_id_idx').on(t.organizationId),
    check('user_organizations_role_check', sql`${t.role} in ('owner', 'admin', 'member')`),
  ],
);

/**
 * An invitation to join an organization with a role. Only the SHA-256 of its token is stored: the
 * token itself is shown once, to whoever invited. Pending = neither accepted nor revoked, and not
 * expired; at most one pending invitation per organization and email (a new one revokes the old).
 */
export const organizationInvitations = pgTable(
  'organization_invitations',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Lower-cased. */
    email: text('email').notNull(),
    role: text('role', { enum: organizationRoleValues }).notNull().default('member'),
    /** Hex SHA-256 of the token. */
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    index('organization_invitations_organization_id_idx').on(t.organizationId),
    uniqueIndex('organization_invitations_pending_email_unique')
      .on(t.organizationId, t.email)
      .where(sql`${t.acceptedAt} is null and ${t.revokedAt} is null`),
    check('organization_invitations_role_check', sql`${t.role} in ('owner', 'admin', 'member')`),
  ],
);

export const agents = pgTable(
  'agents',
  {
    id: id(),
    name: text('name').notNull(),
    description: text('description'),
    role: text('role').notNull(),
    goal: text('goal').notNull(),
    backstory: text('backstory'),
    llmProvider: llmProvider('llm_provider').notNull().default(DEFAULT_LLM_PROVIDER),
    llmModel: text('llm_model').notNull().default(DEFAULT_LLM_MODEL),
    /** 0–100, the scale of the agent form's slider. */
    temperature: integer('temperature').notNull().default(70),
    maxTokens: integer('max_tokens').notNull().default(2000),
    tools: stringList('tools'),
    systemPrompt: text('system_prompt'),
    status: agentStatus('status').notNull().default('inactive'),
    templateCategory: text('template_category'),
    templateTags: stringList('template_tags'),
    config: jsonObject('config'),
    /** Its memory settings (modules/memory); null when memory was never set up, which is off. */
    memory: jsonb('memory').$type<AgentMemorySettings>(),
    /**
     * The JSON Schema its answers follow, unless a workflow node declares its own (structured output,
     * platform/llm); null when it answers in text.
     */
    outputSchema: jsonb('output_schema').$type<Record<string, unknown>>(),
    /** Its guardrails (checks on its input, output and tool calls): `{}` for none. */
    guardrails: jsonb('guardrails').$type<AgentGuardrails>().notNull().default({}),
    /**
     * The template agent this agent was made from (`<workflow template id>:<agent key>`): using the
     * same workflow template again reuses it instead of making a copy.
     */
    templateSource: text('template_source'),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** Who saved it last (Recent Activity names them). */
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('agents_organization_id_idx').on(t.organizationId),
    index('agents_template_source_idx').on(t.organizationId, t.templateSource),
  ],
);

export const workflows = pgTable(
  'workflows',
  {
    id: id(),
    name: text('name').notNull(),
    description: text('description'),
    processType: processType('process_type').notNull().default('sequential'),
    triggerType: triggerType('trigger_type').notNull().default('manual'),
    triggerConfig: jsonObject('trigger_config'),
    nodes: jsonb('nodes').$type<WorkflowNode[]>().notNull().default([]),
    edges: jsonb('edges').$type<WorkflowEdge[]>().notNull().default([]),
    config: jsonObject('config'),
    status: workflowStatus('status').notNull().default('draft'),
    templateCategory: text('template_category'),
    templateTags: stringList('template_tags'),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** Who saved it last (Recent Activity names them). */
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    /**
     * A webhook workflow's secret, sealed like tool credentials (never in trigger_config, so versions
     * and responses never hold it). Null until the workflow is saved as a webhook workflow.
     */
    webhookSecret: text('webhook_secret'),
    /** An active schedule workflow's next tick; null otherwise. Advanced in the transaction of the run it starts. */
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    /** Why a trigger last failed to start a run (cleared by the next run it starts), and when. */
    lastTriggerError: text('last_trigger_error'),
    lastTriggerErrorAt: timestamp('last_trigger_error_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('workflows_organization_id_idx').on(t.organizationId),
    // The scheduler's scan: only active schedule workflows, by their next tick.
    index('workflows_next_run_at_idx')
      .on(t.nextRunAt)
      .where(sql`${t.status} = 'active' and ${t.triggerType} = 'schedule'`),
  ],
);

/**
 * What a workflow looked like when it was activated or saved while active: immutable, numbered from 1
 * per workflow. Runs are pinned to the newest version when they start, so a resumed or retried run
 * executes exactly what it started with, whatever happens to the workflow's working copy since.
 */
export const workflowVersions = pgTable(
  'workflow_versions',
  {
    id: id(),
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    processType: processType('process_type').notNull(),
    triggerType: triggerType('trigger_type').notNull(),
    triggerConfig: jsonObject('trigger_config'),
    nodes: jsonb('nodes').$type<WorkflowNode[]>().notNull(),
    edges: jsonb('edges').$type<WorkflowEdge[]>().notNull(),
    config: jsonObject('config'),
    note: text('note'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [unique('workflow_versions_workflow_id_version_unique').on(t.workflowId, t.version)],
);

export const workflowExecutions = pgTable(
  'workflow_executions',
  {
    id: id(),
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    // Copied from the workflow so tenant-scoped lists and analytics need no join.
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    status: executionStatus('status').notNull().default('pending'),
    // The workflow version the run executes (null only for runs from before versions existed).
    workflowVersion: integer('workflow_version'),
    input: jsonObject('input'),
    dynamicInstructions: text('dynamic_instructions'),
    parameters: jsonObject('parameters'),
    output: jsonObject('output'),
    metrics: jsonObject('metrics'),
    logs: logList('logs'),
    // The run's final answer as the engine returns it: the last agent's text for sequential and
    // hierarchical runs, every agent's output for parallel ones.
    result: jsonb('result').$type<unknown>(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    error: text('error'),
    triggeredBy: uuid('triggered_by').references(() => users.id, { onDelete: 'set null' }),
    /** How the run started: manual (a person; triggeredBy), schedule, webhook, email or mcp. */
    trigger: text('trigger').$type<ExecutionTrigger>().notNull().default('manual'),
    /** What started it when the trigger names it (an MCP client's name); null otherwise. */
    triggerDetail: text('trigger_detail'),
    // Bumped by each worker that picks the run up; status writes compare it so a stale worker of an
    // earlier attempt cannot overwrite the newer one.
    attempt: integer('attempt').notNull().default(0),
    // The running attempt's lease: its worker renews it while it works. Once it lapses (the worker
    // died), the next worker to look for runs claims it and resumes from the finished steps.
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
    // Attempts that ended by handing the run back on a graceful stop (a deploy): they do not count
    // towards the limit of attempts, which is there for workers that keep dying.
    handedBack: integer('handed_back').notNull().default(0),
    // The run this one retries (POST /api/executions/:id/retry); a run is retried at most once, so the
    // unique index below also finds a run's retry (`retriedBy`) in one probe.
    retryOf: uuid('retry_of').references((): AnyPgColumn => workflowExecutions.id, { onDelete: 'set null' }),
    /**
     * The longest list the run's maps take: the organization's plan's when the run started (a plan
     * changed since does not change a queued or resumed run); null on runs from before maps.
     */
    mapItems: integer('map_items'),
    /**
     * How many of the organization's runs may be in progress at once, its plan's when the run started
     * (the workers' fair claim reads it from the oldest queued run of each organization); null on runs
     * from before the limit: no limit.
     */
    concurrencyLimit: integer('concurrency_limit'),
    /**
     * The W3C traceparent of the request that started the run, when traces are exported: the worker's
     * run span links to it across the queue. Null when tracing is off.
     */
    traceParent: text('trace_parent'),
    // The name (node label) of the step whose failure ended the run, for its card; null otherwise.
    failedStep: text('failed_step'),
    /**
     * A waiting run's wait, in the stored format `StoredWait` (versioned: `v`), kept while it waits and
     * read by the attempt that resumes it; null otherwise. docs/product-rules.md, People in the loop.
     */
    waiting: jsonb('waiting').$type<StoredWait>(),
    /**
     * When a waiting run is due to go on by itself (a delay's end, an approval's timeout): the wake-up
     * loop queues it then, once (compare-and-set on the status). Null unless waiting for a time.
     */
    wakeAt: timestamp('wake_at', { withTimezone: true }),
    /**
     * Started from outside the organization (an email from a sender outside its trusted domains, an
     * unsigned webhook call), set when the run starts and kept by its retry: its write tool calls
     * need approval and agent memory learns nothing from it (docs/product-rules.md, People in the loop).
     */
    untrusted: boolean('untrusted').notNull().default(false),
    /**
     * Microseconds the run spent waiting (for people, for a delay's end), added each time it goes on
     * from a wait; the rest of its duration is working time (analytics count the two apart).
     */
    waitedUs: bigint('waited_us', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
    /**
     * Microseconds a finished run took, exactly (timestamps have microseconds); null while it is
     * pending or running, and for a cancelled run (generated). An integer, so sums and sorts of it are
     * cheap; `duration_us * 0.000001` is the exact number of seconds.
     */
    durationUs: bigint('duration_us', { mode: 'number' }).generatedAlwaysAs(
      sql.raw(`case when "status" in ('completed', 'failed') and "started_at" is not null and "completed_at" is not null
  then (extract(epoch from "completed_at" - "started_at") * 1000000)::bigint end`),
    ),
    totalTokens: reportedTokens('total_tokens'),
  },
  // NULLS FIRST is what a plain `ORDER BY created_at DESC` means; drizzle's index default (NULLS LAST)
  // would keep the planner from walking these indexes for the newest-first lists.
  (t) => [
    index('workflow_executions_workflow_id_created_at_idx').on(t.workflowId, t.createdAt.desc().nullsFirst()),
    // The columns after the key let the dashboard's counters and analytics read only this index (an
    // index-only scan) instead of every run's wide row. They are key columns because drizzle cannot
    // declare INCLUDE; after the time they only cost a little width.
    index('workflow_executions_organization_id_created_at_idx').on(
      t.organizationId,
      t.createdAt.desc().nullsFirst(),
      t.status,
      t.startedAt,
      t.completedAt,
      t.workflowId,
      t.durationUs,
      t.totalTokens,
      t.waitedUs,
    ),
    // The workers' queue: unfinished runs (those waiting, and those in progress whose lease may
    // lapse), by organization, then status, oldest first: the fair claim walks the organizations with
    // queued runs, counts each one's runs in progress and takes its oldest (claim_next_run, migration
    // 0047). A handful at any time, a backlog at worst.
    index('workflow_executions_queue_idx')
      .on(t.organizationId, t.status, t.createdAt)
      .where(sql`${t.status} in ('pending', 'running')`),
    // The waiting runs: the wake-up loop's due waits by their time (a handful due at any moment), and
    // their count for the operator's metrics (10,000 waiting runs are an index of 10,000 entries, not
    // a scan of every run kept).
    index('workflow_executions_wake_at_idx')
      .on(t.wakeAt)
      .where(sql`${t.status} = 'waiting'`),
    uniqueIndex('workflow_executions_retry_of_unique')
      .on(t.retryOf)
      .where(sql`${t.retryOf} is not null`),
  ],
);

/**
 * What a waiting run waits for, as `workflow_executions.waiting` stores it. Versioned: a run that
 * waited under an older Crewline resumes under a newer one, which reads every `v` it ever wrote
 * (docs/product-rules.md, People in the loop). v1: an approval (its row) or a delay (its end).
 */
export type StoredWait = {
  v: 1;
  kind: 'approval' | 'delay';
  /** The waiting step's id (its node's id). */
  stepId: string;
  /** An approval's title with the run's values, or the delay's node label. */
  title: string;
  /** ISO: when the wait began. */
  since: string;
  /** ISO: a delay's end or an approval's timeout; null when it waits for people without one. */
  until: string | null;
  approvalId: string | null;
};

/**
 * A tool call waiting for approval, as its approval row keeps it (v1): the tool, the arguments the
 * model gave, what the agent said before asking, and the conversation so far (AI SDK model
 * messages, ending with the call and its approval request), which the step continues from once
 * decided; its tokens so far; and, once run, the call's result (so a resumed step never runs it twice).
 */
export type StoredToolCall = {
  v: 1;
  /** The tool's name as the organization named it, and as the model called it. */
  tool: string;
  modelToolName: string;
  /** The SDK's ids of the approval request (answered by the continuation) and of the call. */
  sdkApprovalId: string;
  toolCallId: string;
  arguments: unknown;
  reasoning: string;
  messages: unknown[];
  usage: { promptTokens: number; completionTokens: number; totalTokens: number };
  /** The approved call's result, kept as soon as it ran. */
  result?: { value: unknown };
};

/**
 * A decision a run waits for (an Approval step), one per step of a run. Decided by compare-and-set
 * on `status` in the same transaction that resumes the run (modules/executions/approvals.repository.ts).
 */
export const approvals = pgTable(
  'approvals',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    executionId: uuid('execution_id')
      .notNull()
      .references(() => workflowExecutions.id, { onDelete: 'cascade' }),
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    /** The Approval step's id. */
    nodeId: text('node_id').notNull(),
    title: text('title').notNull(),
    message: text('message').notNull(),
    status: text('status').$type<ApprovalStatus>().notNull().default('pending'),
    policy: jsonb('policy').$type<ApprovalPolicy>().notNull(),
    assignees: jsonb('assignees').$type<ApprovalAssignees>().notNull().default({}),
    fields: jsonb('fields').$type<ApprovalField[]>().notNull().default([]),
    /** What happens at `expires_at`: the rejected path or the timeout path. */
    onTimeout: text('on_timeout').$type<'reject' | 'branch'>(),
    /**
     * A tool call's approval: the model's call id ('' for an Approval step), so one agent step may wait
     * for several calls in turn, and what the call needs to go on (`StoredToolCall`).
     */
    callId: text('call_id').notNull().default(''),
    toolCall: jsonb('tool_call').$type<StoredToolCall>(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /**
     * When the approvers who have not decided are reminded (halfway to `expires_at`); cleared by the
     * wake-up loop as it sends the reminder (compare-and-set, so once), null without a timeout.
     */
    remindAt: timestamp('remind_at', { withTimezone: true }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('approvals_execution_id_node_id_call_id_unique').on(t.executionId, t.nodeId, t.callId),
    // The inbox: an organization's pending approvals, oldest first (and its decided ones, newest first).
    index('approvals_organization_id_status_created_at_idx').on(t.organizationId, t.status, t.createdAt),
    // The wake-up loop's due reminders: only pending approvals with a timeout have one.
    index('approvals_remind_at_idx')
      .on(t.remindAt)
      .where(sql`${t.remindAt} is not null`),
    check(
      'approvals_status_check',
      sql`${t.status} in ('pending', 'approved', 'rejected', 'timed_out', 'cancelled')`,
    ),
  ],
);

/** One person's decision on an approval: at most one each, so quorum and all-must-approve count people. */
export const approvalDecisions = pgTable(
  'approval_decisions',
  {
    approvalId: uuid('approval_id')
      .notNull()
      .references(() => approvals.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    decision: text('decision').$type<'approve' | 'reject'>().notNull(),
    comment: text('comment'),
    fields: jsonb('fields').$type<FieldAnswers>().notNull().default({}),
    via: text('via').$type<DecisionVia>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.approvalId, t.userId] }),
    check('approval_decisions_decision_check', sql`${t.decision} in ('approve', 'reject')`),
  ],
);

/**
 * The emailed Approve and Reject links of an approval (modules/executions/approval-links.*): each binds
 * one approver to one decision, works once and expires with the approval (or after 7 days). Only the
 * sha256 of the token is kept.
 */
export const approvalLinks = pgTable(
  'approval_links',
  {
    id: id(),
    approvalId: uuid('approval_id')
      .notNull()
      .references(() => approvals.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    decision: text('decision').$type<'approve' | 'reject'>().notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('approval_links_approval_id_idx').on(t.approvalId),
    check('approval_links_decision_check', sql`${t.decision} in ('approve', 'reject')`),
  ],
);

/**
 * An organization's own price for a model (Settings → Costs), over the built-in table
 * (`builtInPrices` in packages/contracts) or for a model it lacks. USD per million tokens, as
 * `double precision`: prices are short decimals, and the arithmetic rounds to micro-dollars.
 */
export const modelPrices = pgTable(
  'model_prices',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    model: text('model').notNull(),
    inputPerMillion: doublePrecision('input_per_million').notNull(),
    cachedInputPerMillion: doublePrecision('cached_input_per_million').notNull(),
    outputPerMillion: doublePrecision('output_per_million').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.provider, t.model] })],
);

/**
 * The spend ledger (modules/costs): one row for each metered model use, a run's step (written by the
 * statement that stores the step) or a call outside runs (agent tests, the playground, knowledge and
 * memory embeddings), with its usage and cost at the prices in force then. The Costs tab and the
 * budgets add it up.
 */
export const modelUsage = pgTable(
  'model_usage',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** What made the call (packages/contracts spend.ts: run, agent_test, playground, …). */
    source: text('source').notNull(),
    // What the call was made for, without foreign keys: spend stays when they are deleted (the Costs
    // tab then names them as deleted), and deleting them does not search the ledger.
    workflowId: uuid('workflow_id'),
    executionId: uuid('execution_id'),
    agentId: uuid('agent_id'),
    /** How the run started (a run's steps only). */
    trigger: text('trigger'),
    provider: text('provider').notNull(),
    model: text('model').notNull(),
    /** Paid through the server's own key (the plan's included spend), not the organization's. */
    serverKey: boolean('server_key').notNull().default(false),
    calls: integer('calls').notNull().default(1),
    inputTokens: bigint('input_tokens', { mode: 'number' }).notNull().default(0),
    cachedInputTokens: bigint('cached_input_tokens', { mode: 'number' }).notNull().default(0),
    outputTokens: bigint('output_tokens', { mode: 'number' }).notNull().default(0),
    /** Micro-dollars (10⁻⁶ USD); null when the model had no price. */
    costMicros: bigint('cost_micros', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [index('model_usage_organization_id_created_at_idx').on(t.organizationId, t.createdAt)],
);

/**
 * What a capped scope spent in a calendar month (UTC), kept exact under concurrent calls
 * (modules/costs/spend-counters.repository.ts): each model call reserves its worst case with a
 * conditional update before it runs and settles its real cost after. `scope` is 'organization',
 * 'plan' (spend on the server's keys) or 'workflow' (`scope_id` its id, '' for the others).
 * `alerted` is the highest alert sent this month (0, 80 or 100), so each goes out once.
 */
export const spendCounters = pgTable(
  'spend_counters',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    scope: text('scope').notNull(),
    scopeId: text('scope_id').notNull().default(''),
    /** The first day of the month. */
    month: date('month', { mode: 'string' }).notNull(),
    spentMicros: bigint('spent_micros', { mode: 'number' }).notNull().default(0),
    reservedMicros: bigint('reserved_micros', { mode: 'number' }).notNull().default(0),
    alerted: integer('alerted').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.scope, t.scopeId, t.month] })],
);

/** An organization's monthly budget (Settings → Costs): none when it has no row or a null cap. */
export const organizationBudgets = pgTable('organization_budgets', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  monthlyCapMicros: bigint('monthly_cap_micros', { mode: 'number' }),
  /**
   * Set by the operator (an Enterprise agreement): the model spend on the server's keys included each
   * month, in place of the plan's (null: the plan's).
   */
  includedSpendMicros: bigint('included_spend_micros', { mode: 'number' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const agentExecutions = pgTable(
  'agent_executions',
  {
    id: id(),
    workflowExecutionId: uuid('workflow_execution_id')
      .notNull()
      .references(() => workflowExecutions.id, { onDelete: 'cascade' }),
    // Kept when the agent is deleted so past runs still show their steps.
    agentId: uuid('agent_id').references(() => agents.id, { onDelete: 'set null' }),
    /** The step's id: the node id, or the node id and `#n` for a hierarchical run's n-th delegation. */
    nodeId: text('node_id'),
    /** The workflow node the step ran (a delegation's node); null only on rows from before it was kept. */
    baseNodeId: text('base_node_id'),
    /**
     * The node's kind (packages/contracts/src/node-kinds): agent steps are model calls, the others
     * (conditions, transforms, merges) are not, and figures about agents and model calls leave them out.
     */
    kind: text('kind').$type<NodeKind>().notNull().default('agent'),
    status: executionStatus('status').notNull().default('pending'),
    /**
     * A completed step whose node sends its output somewhere (file, webhook, email): 'pending' until
     * sent, then 'delivered'; null when there is nothing to send. A step stored but not yet sent (a
     * crash, a refused delivery) is sent when the run resumes or is retried.
     */
    delivery: text('delivery').$type<'pending' | 'delivered'>(),
    input: jsonb('input').$type<JsonObject>(),
    output: jsonb('output').$type<JsonObject>(),
    metrics: jsonObject('metrics'),
    logs: logList('logs'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    error: text('error'),
    createdAt: createdAt(),
    /** Milliseconds of a completed step's model call; null for failed steps and steps without it (generated). */
    executionMs: doublePrecision('execution_ms').generatedAlwaysAs(
      sql.raw(`case when "status" = 'completed' and jsonb_typeof("metrics"->'executionTime') = 'number'
  then ("metrics"->>'executionTime')::float8 end`),
    ),
    totalTokens: reportedTokens('total_tokens'),
    /**
     * A retry's copy of a step it reused (no model call): analytics count it once, in the run that made
     * it (generated).
     */
    reused: boolean('reused').notNull().generatedAlwaysAs(sql.raw(`"metrics"->>'reused' is not null`)),
  },
  (t) => [
    index('agent_executions_workflow_execution_id_idx').on(t.workflowExecutionId),
    // Serves per-agent analytics (an agent's steps in a range, and deleted agents' steps, agent_id
    // null, in a range) from the index alone, and keeps "delete agent → set null" from scanning every
    // step. A step is written once, finished, so the figures after the key never move its entry.
    index('agent_executions_agent_id_created_at_idx').on(
      t.agentId,
      t.createdAt,
      t.reused,
      t.status,
      t.executionMs,
      t.totalTokens,
    ),
  ],
);

export const microsoftTokens = pgTable('microsoft_tokens', {
  id: id(),
  organizationId: uuid('organization_id')
    .notNull()
    .unique()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  accessToken: text('access_token').notNull(),
  refreshToken: text('refresh_token'),
  accountInfo: jsonb('account_info').$type<JsonObject>(),
  expiresOn: timestamp('expires_on', { withTimezone: true }),
  /** Set when Microsoft refused the refresh token: the organization must connect again. */
  brokenAt: timestamp('broken_at', { withTimezone: true }),
  /** When the mailbox was (re)connected: the email trigger ignores messages received before it. */
  connectedAt: timestamp('connected_at', { withTimezone: true }).notNull().defaultNow(),
  /** The inbox delta query's `@odata.deltaLink` after the last complete round; null: start a fresh round. */
  deltaLink: text('delta_link'),
  /**
   * When the email monitor polls this inbox next (null: at once). A monitor claims a poll by moving
   * it forward (compare-and-set), so one poll per organization runs at a time across workers.
   */
  nextPollAt: timestamp('next_poll_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * The messages the email trigger started a run of a workflow for: inserted in the run's own
 * transaction, so one message starts at most one run per workflow, whatever the number of polls or
 * workers. Rows older than the monitor's retention are deleted.
 */
export const emailTriggerMessages = pgTable(
  'email_trigger_messages',
  {
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    /** The Microsoft Graph message id. */
    messageId: text('message_id').notNull(),
    executionId: uuid('execution_id').references(() => workflowExecutions.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'email_trigger_messages_pk', columns: [t.workflowId, t.messageId] }),
    index('email_trigger_messages_created_at_idx').on(t.createdAt),
  ],
);

/**
 * A Microsoft sign-in in progress: the OAuth `state` (stored as its SHA-256, single use, 10 minutes),
 * who started it, and the PKCE code verifier sealed with the organization's id.
 */
export const microsoftOauthStates = pgTable(
  'microsoft_oauth_states',
  {
    id: id(),
    stateHash: text('state_hash').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    codeVerifier: text('code_verifier').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('microsoft_oauth_states_expires_at_idx').on(t.expiresAt)],
);

/**
 * An MCP server connection's OAuth sign-in in progress (docs/product-rules.md, MCP): the `state`
 * (stored as its SHA-256, single use, 10 minutes), the admin who started it (the callback must come
 * back to the same browser and user), and what the SDK saved for the callback leg (PKCE verifier,
 * discovery state, registered client), sealed with the organization's id.
 */
export const mcpOauthFlows = pgTable(
  'mcp_oauth_flows',
  {
    id: id(),
    stateHash: text('state_hash').notNull().unique(),
    toolId: uuid('tool_id')
      .notNull()
      .references(() => tools.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Sealed JSON of what the SDK saved before the redirect (code verifier, discovery state, client). */
    sealed: text('sealed').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('mcp_oauth_flows_expires_at_idx').on(t.expiresAt)],
);

/**
 * OAuth clients of the organization's MCP server (connectors such as Claude or ChatGPT), registered
 * by dynamic client registration (RFC 7591): public clients, PKCE only. Not owned by an organization:
 * a client is granted access to one by a member's consent (oauth_grants).
 */
export const oauthClients = pgTable('oauth_clients', {
  /** The `client_id` handed out (random, opaque). */
  id: text('id').primaryKey(),
  clientName: text('client_name').notNull(),
  redirectUris: jsonb('redirect_uris').$type<string[]>().notNull(),
  createdAt: createdAt(),
});

/**
 * A member's consent that an OAuth client may call the organization's MCP server: revoked in Settings
 * (every token of it stops working at once).
 */
export const oauthGrants = pgTable(
  'oauth_grants',
  {
    id: id(),
    clientId: text('client_id')
      .notNull()
      .references(() => oauthClients.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('oauth_grants_organization_id_idx').on(t.organizationId)],
);

/**
 * The codes and tokens of a grant, stored as their SHA-256: `code` (single use, 1 minute, with its
 * PKCE challenge and redirect URI), `access` (1 hour) and `refresh` (rotated on use).
 */
export const oauthTokens = pgTable(
  'oauth_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    grantId: uuid('grant_id')
      .notNull()
      .references(() => oauthGrants.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'code' | 'access' | 'refresh'>().notNull(),
    codeChallenge: text('code_challenge'),
    redirectUri: text('redirect_uri'),
    /** The RFC 8707 resource the token is for (the MCP endpoint's URL). */
    resource: text('resource'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('oauth_tokens_grant_id_idx').on(t.grantId),
    index('oauth_tokens_expires_at_idx').on(t.expiresAt),
  ],
);

/**
 * Templates: the shipped library (no organization, a stable `slug`, upserted at start-up) and the
 * templates an organization saved from its own workflows and agents (visible to it alone).
 */
export const workflowTemplates = pgTable(
  'workflow_templates',
  {
    id: id(),
    /** Shipped templates only: how start-up finds the row again (never changes). */
    slug: text('slug').unique(),
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    category: text('category').notNull().default('general'),
    tags: stringList('tags'),
    processType: processType('process_type').notNull().default('sequential'),
    triggerType: triggerType('trigger_type').notNull().default('manual'),
    triggerConfig: jsonObject('trigger_config'),
    nodes: jsonb('nodes').$type<WorkflowNode[]>().notNull().default([]),
    edges: jsonb('edges').$type<WorkflowEdge[]>().notNull().default([]),
    /** The agent definitions the nodes name by key (their `agentId`). */
    agents: jsonb('agents').$type<TemplateAgent[]>().notNull().default([]),
    config: jsonObject('config'),
    isPublic: boolean('is_public').notNull().default(true),
    usageCount: integer('usage_count').notNull().default(0),
    createdBy: text('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('workflow_templates_organization_id_idx').on(t.organizationId)],
);

export const agentTemplates = pgTable(
  'agent_templates',
  {
    id: id(),
    slug: text('slug').unique(),
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    role: text('role').notNull(),
    goal: text('goal').notNull(),
    backstory: text('backstory'),
    llmProvider: llmProvider('llm_provider').notNull().default(DEFAULT_LLM_PROVIDER),
    llmModel: text('llm_model').notNull().default(DEFAULT_LLM_MODEL),
    temperature: integer('temperature').notNull().default(70),
    maxTokens: integer('max_tokens').notNull().default(2000),
    tools: stringList('tools'),
    systemPrompt: text('system_prompt'),
    config: jsonObject('config'),
    category: text('category').notNull().default('general'),
    tags: stringList('tags'),
    isPublic: boolean('is_public').notNull().default(true),
    usageCount: integer('usage_count').notNull().default(0),
    createdBy: text('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('agent_templates_organization_id_idx').on(t.organizationId)],
);

/**
 * Where a workflow is published (docs/product-rules.md, MCP): as a tool of its organization's MCP
 * server, under a name unique in the organization. One row per published workflow, for every surface.
 */
export const workflowPublishing = pgTable(
  'workflow_publishing',
  {
    workflowId: uuid('workflow_id')
      .primaryKey()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    mcpEnabled: boolean('mcp_enabled').notNull().default(false),
    mcpToolName: text('mcp_tool_name'),
    mcpDescription: text('mcp_description'),
    /** JSON Schema of the run's `input`, checked before a call starts a run. */
    mcpInputSchema: jsonb('mcp_input_schema').$type<JsonObject>(),
    mcpTimeoutSeconds: integer('mcp_timeout_seconds'),
    /** The chat app (modules/chat): on while true; its slug is its public address, unique across organizations. */
    chatEnabled: boolean('chat_enabled').notNull().default(false),
    chatSlug: text('chat_slug'),
    chatAccess: text('chat_access').$type<ChatAccess>(),
    /** A `password` app's password, hashed as users' passwords are (never answered). */
    chatPasswordHash: text('chat_password_hash'),
    /** Its name, greeting, suggestions, theme, allowed origins, rate limits and monthly cap. */
    chatSettings: jsonb('chat_settings').$type<JsonObject>(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('workflow_publishing_mcp_tool_name_unique')
      .on(t.organizationId, t.mcpToolName)
      .where(sql`${t.mcpToolName} is not null`),
    uniqueIndex('workflow_publishing_chat_slug_unique')
      .on(t.chatSlug)
      .where(sql`${t.chatSlug} is not null`),
  ],
);

/**
 * A conversation with a chat app (modules/chat): one visitor's (the signed visitor cookie's id), kept
 * CHAT_THREAD_DAYS after its last message.
 */
export const chatThreads = pgTable(
  'chat_threads',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    visitorId: text('visitor_id').notNull(),
    /** The member who wrote, when a signed-in member did (their runs are trusted). */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('chat_threads_workflow_recent_idx').on(t.workflowId, t.lastMessageAt),
    index('chat_threads_last_message_idx').on(t.lastMessageAt),
  ],
);

/**
 * A message a person sent in a thread, written with the run it starts (in the run's transaction);
 * the reply is that run's result, read from the run, so a reply is never lost by a client gone away.
 */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: id(),
    threadId: uuid('thread_id')
      .notNull()
      .references(() => chatThreads.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    runId: uuid('run_id').references(() => workflowExecutions.id, { onDelete: 'set null' }),
    content: text('content').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('chat_messages_thread_idx').on(t.threadId, t.createdAt),
    uniqueIndex('chat_messages_run_unique').on(t.runId),
  ],
);

export const tools = pgTable(
  'tools',
  {
    id: id(),
    name: text('name').notNull(),
    description: text('description'),
    category: toolCategory('category').notNull().default('web'),
    provider: text('provider'),
    config: jsonObject('config'),
    /** Encrypted at rest (AES-256-GCM, organization id as associated data); never sent to clients. */
    credentials: jsonb('credentials').$type<JsonObject>(),
    /**
     * An MCP server connection's tools as its `tools/list` last answered (`McpToolList` of the
     * contracts: tools, listedAt, error); null for other tools and before the first listing.
     */
    mcpTools: jsonb('mcp_tools').$type<JsonObject>(),
    /**
     * An MCP connection signed in with OAuth: its tokens and registered client, sealed JSON; null
     * otherwise. `mcp_oauth_status` says whether it works: 'connected', or 'reconnect' once the
     * authorization server refused a refresh (an admin signs in again).
     */
    mcpOauth: text('mcp_oauth'),
    mcpOauthStatus: text('mcp_oauth_status').$type<'connected' | 'reconnect'>(),
    isActive: boolean('is_active').notNull().default(true),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('tools_organization_id_idx').on(t.organizationId)],
);

export const agentTools = pgTable(
  'agent_tools',
  {
    id: id(),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    toolId: uuid('tool_id')
      .notNull()
      .references(() => tools.id, { onDelete: 'cascade' }),
    isEnabled: boolean('is_enabled').notNull().default(true),
    config: jsonObject('config'),
    /**
     * When a call of this tool by this agent waits for a person's approval: never, always, or when it
     * writes (the tool says which calls do). New links ask for writes; links from before asked never.
     */
    approval: text('approval').$type<ToolApprovalPolicy>().notNull().default('writes'),
    createdAt: createdAt(),
  },
  // agent_id leads the unique index; tool_id needs its own so deleting a tool does not scan links.
  (t) => [
    unique('agent_tools_agent_id_tool_id_unique').on(t.agentId, t.toolId),
    index('agent_tools_tool_id_idx').on(t.toolId),
  ],
);

/** The per-organization connections of the settings' Tools tab: openai_config, anthropic_config, … */
export const connections = pgTable(
  'tool_configurations',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    configId: text('config_id').notNull(),
    config: jsonObject('config'),
    isActive: boolean('is_active').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ name: 'tool_configurations_pk', columns: [t.organizationId, t.configId] })],
);

/** One row per issued token: the id is the JWT `jti`, so logout can revoke it server-side. */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
  },
  (t) => [
    index('auth_sessions_user_id_idx').on(t.userId),
    index('auth_sessions_organization_id_idx').on(t.organizationId),
  ],
);

/**
 * Single-use links mailed to a user: email verification and password reset (modules/auth). Only the
 * sha256 of the token is kept; a verification token holds the address it proves, so a link sent to an
 * address the user has since changed away from verifies nothing.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify_email', 'reset_password'] }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    email: text('email').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('account_tokens_user_id_idx').on(t.userId)],
);

/** Sliding-window rate limiting shared by every API process: one row per counted request. */
export const rateLimitEvents = pgTable(
  'rate_limit_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    bucket: text('bucket').notNull(),
    key: text('key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('rate_limit_events_bucket_key_created_at_idx').on(t.bucket, t.key, t.createdAt),
    // Pruning deletes by age across all buckets.
    index('rate_limit_events_created_at_idx').on(t.createdAt),
  ],
);

/**
 * Organization API keys (`crw_…`): only the sha256 of a key is kept, with its first characters to
 * show. A key acts as its creator with member powers, while the creator is still a member. The
 * window columns count its calls per minute (one fixed window, advanced by the same update that
 * authenticates the call).
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    windowStart: timestamp('window_start', { withTimezone: true }),
    windowCount: integer('window_count').notNull().default(0),
  },
  (t) => [index('api_keys_organization_id_idx').on(t.organizationId)],
);

/**
 * Runs started by each organization in each calendar month (UTC), which plans limit. Counted by a
 * trigger on workflow_executions (migration 0017), so every way a run is inserted counts it; a run
 * deleted later stays counted, as it was run.
 */
export const organizationUsage = pgTable(
  'organization_usage',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The first day of the month. */
    month: date('month', { mode: 'string' }).notNull(),
    executions: integer('executions').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'organization_usage_pk', columns: [t.organizationId, t.month] })],
);

/** Stripe webhook events already applied: a redelivered event id is acknowledged and skipped. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  createdAt: createdAt(),
});

/**
 * Signatures of signed webhook calls already accepted (modules/triggers/webhook-signature.ts): the same
 * signature again is a replay, whichever API process receives it. A row is kept until its call's
 * timestamp has left the tolerance window (`expires_at`), then pruned.
 */
export const webhookSignaturesSeen = pgTable(
  'webhook_signatures_seen',
  {
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    /** The hex HMAC the caller sent. */
    signature: text('signature').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'webhook_signatures_seen_pk', columns: [t.workflowId, t.signature] }),
    index('webhook_signatures_seen_expires_at_idx').on(t.expiresAt),
  ],
);

/** Raw bytes (Postgres bytea): a chunk's embedding as float32 little-endian (modules/knowledge/vector-codec.ts). */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * An organization's knowledge base: documents cut into chunks with an embedding each, searched by
 * meaning (modules/knowledge). `dimensions` is set by the first document embedded (every later
 * embedding must have that length); `version` goes up whenever its chunks change, so a process's
 * in-memory search index of it knows when to load again.
 */
export const knowledgeBases = pgTable(
  'knowledge_bases',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    /** Whose connection embeds its chunks and queries (embeddingProviderValues). */
    embeddingProvider: text('embedding_provider', { enum: embeddingProviderValues }).notNull(),
    embeddingModel: text('embedding_model').notNull(),
    dimensions: integer('dimensions'),
    version: integer('version').notNull().default(0),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('knowledge_bases_organization_id_created_at_idx').on(
      t.organizationId,
      t.createdAt.desc().nullsFirst(),
    ),
    check(
      'knowledge_bases_embedding_provider_check',
      sql`${t.embeddingProvider} in ('openai', 'local', 'custom')`,
    ),
    check('knowledge_bases_dimensions_check', sql`${t.dimensions} is null or ${t.dimensions} > 0`),
  ],
);

/**
 * A document of a knowledge base, as the user sent it: its text (a text file read by the browser, or
 * pasted) in `content`, or for a PDF the file's bytes in `file` (bytea: a third smaller than its
 * base64, and the bytes pdf.js reads) with `content` empty, its text read by the workers. The workers take queued documents (the row is its queue entry, as runs are: claimed under a
 * lease, taken again once the lease lapses) and leave them ready with their chunks, or failed with the
 * reason and no chunks. The content stays, so a document can be ingested again (another extraction,
 * another model) without asking the user for the file.
 */
export const knowledgeDocuments = pgTable(
  'knowledge_documents',
  {
    id: id(),
    knowledgeBaseId: uuid('knowledge_base_id')
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    mediaType: text('media_type', { enum: knowledgeMediaTypeValues }).notNull(),
    /** The bytes of `content` as UTF-8, or of `file` (what the size limit and the storage figures count). */
    sizeBytes: integer('size_bytes').notNull(),
    /**
     * The UTF-8 bytes of the text read from it, set when it is ready (0 before, and once failed). The
     * organization's knowledge storage counts each document as the larger of this and `size_bytes`.
     */
    textBytes: integer('text_bytes').notNull().default(0),
    content: text('content').notNull(),
    /** A PDF's bytes; null for the text types. */
    file: bytea('file'),
    status: text('status', { enum: knowledgeDocumentStatusValues }).notNull().default('queued'),
    error: text('error'),
    chunkCount: integer('chunk_count').notNull().default(0),
    /** Bumped by each worker that takes the document; its writes compare it (a stale worker changes nothing). */
    attempt: integer('attempt').notNull().default(0),
    /** The processing attempt's lease, renewed while it works; once lapsed, the next claim takes the document. */
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('knowledge_documents_knowledge_base_id_created_at_idx').on(
      t.knowledgeBaseId,
      t.createdAt.desc().nullsFirst(),
    ),
    // The organization's knowledge storage is summed over its documents (plan quota, billing usage).
    index('knowledge_documents_organization_id_idx').on(t.organizationId),
    // The workers' queue: documents waiting or in progress (whose lease may lapse), oldest first.
    index('knowledge_documents_unfinished_idx')
      .on(t.createdAt)
      .where(sql`${t.status} in ('queued', 'processing')`),
    check(
      'knowledge_documents_status_check',
      sql`${t.status} in ('queued', 'processing', 'ready', 'failed')`,
    ),
    // A PDF always has its file, and only a PDF has one.
    check(
      'knowledge_documents_file_check',
      sql`(${t.mediaType} = 'application/pdf') = (${t.file} is not null)`,
    ),
  ],
);

/** A piece of a ready document's text with its embedding; written all at once when the document is ready. */
export const knowledgeChunks = pgTable(
  'knowledge_chunks',
  {
    id: id(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => knowledgeDocuments.id, { onDelete: 'cascade' }),
    knowledgeBaseId: uuid('knowledge_base_id')
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Where it sits in its document, from 0. */
    chunkIndex: integer('chunk_index').notNull(),
    text: text('text').notNull(),
    /** float32 little-endian, the knowledge base's `dimensions` of them. */
    embedding: bytea('embedding').notNull(),
  },
  (t) => [
    // A document's chunks in order; also what deleting a document walks.
    unique('knowledge_chunks_document_id_chunk_index_unique').on(t.documentId, t.chunkIndex),
    // A search loads a knowledge base's chunks (ids and vectors).
    index('knowledge_chunks_knowledge_base_id_idx').on(t.knowledgeBaseId),
  ],
);

/**
 * What an agent with memory on keeps from its steps (modules/memory): a fact in a sentence and its
 * embedding, searched by meaning before each of its steps. Deleted with its agent.
 */
export const agentMemories = pgTable(
  'agent_memories',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    agentId: uuid('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    /** The run whose step it was learned in; kept when that run is deleted. */
    executionId: uuid('execution_id').references(() => workflowExecutions.id, { onDelete: 'set null' }),
    content: text('content').notNull(),
    /** float32 little-endian (modules/knowledge/vector-codec.ts), by `embedding_model`. */
    embedding: bytea('embedding').notNull(),
    /** Memories embedded by another model than the agent's current one are not searched. */
    embeddingModel: text('embedding_model').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // The tab's list (newest first), a step's recall and the oldest forgotten past the limit.
    index('agent_memories_agent_id_created_at_idx').on(t.agentId, t.createdAt.desc().nullsFirst()),
  ],
);

/**
 * The audit log (modules/audit, docs/product-rules.md, Audit log): who did what to which thing in an
 * organization, written in the same transaction as the change, kept AUDIT_RETENTION_DAYS (a year by
 * default). Never a secret: details name what changed, never a credential's value.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** Who did it; null for the system (a webhook from the payment provider, a sign-in that failed). */
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /** The actor's name when it happened (kept when the user is gone). */
    actorName: text('actor_name'),
    /** What happened (auditActionValues), e.g. 'member.role_changed'. */
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    /** The target's name when it happened. */
    targetName: text('target_name'),
    ip: text('ip'),
    details: jsonObject('details'),
  },
  (t) => [
    // The log's pages, newest first, and its filters within an organization.
    index('audit_events_organization_at_idx').on(t.organizationId, t.at.desc(), t.id.desc()),
    // The retention prune across organizations.
    index('audit_events_at_idx').on(t.at),
  ],
);

/** One row per running worker process, refreshed periodically: the health check counts live workers. */

export const workerHeartbeats = pgTable('worker_heartbeats', {
  /** Chosen by the worker (host, pid and a random part), not generated here. */
  id: text('id').primaryKey(),
  role: text('role').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Talk to Sales messages from the landing page (public, no organization): the operator's
 * administrators read them (OPERATOR_EMAILS).
 */
export const salesInquiries = pgTable(
  'sales_inquiries',
  {
    id: id(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    company: text('company').notNull(),
    message: text('message').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('sales_inquiries_created_at_idx').on(t.createdAt)],
);

// ---- Evaluations (docs/product-rules.md, Evaluations) ----------------------------------------

/** An organization's cases to evaluate workflows with. `version` is raised by every change of its items. */
export const datasets = pgTable(
  'datasets',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    version: integer('version').notNull().default(1),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [unique('datasets_organization_id_name_unique').on(t.organizationId, t.name)],
);

/**
 * One case of a dataset. Items never change: a removal sets `removed_in`, so the items of version V
 * are those added in V or before and not removed by V (an eval run records its version).
 */
export const datasetItems = pgTable(
  'dataset_items',
  {
    id: id(),
    datasetId: uuid('dataset_id')
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Its place in the dataset, in the order items were added. */
    position: integer('position').notNull(),
    input: jsonObject('input'),
    expected: jsonb('expected').$type<unknown>(),
    tags: stringList('tags'),
    addedIn: integer('added_in').notNull(),
    removedIn: integer('removed_in'),
    sourceExecutionId: uuid('source_execution_id').references(() => workflowExecutions.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
  },
  (t) => [index('dataset_items_dataset_id_position_idx').on(t.datasetId, t.position)],
);

/** A dataset run against a workflow and scored by graders (`graders`: the contracts' Grader[]). */
export const evaluations = pgTable(
  'evaluations',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    datasetId: uuid('dataset_id')
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    graders: jsonb('graders').$type<unknown[]>().notNull(),
    passThreshold: doublePrecision('pass_threshold').notNull().default(1),
    /** `{ nightly, minPassRate }`, or null when it runs only when asked. */
    schedule: jsonb('schedule').$type<{ nightly: boolean; minPassRate: number }>(),
    /** The last nightly run's day (UTC), so each night runs it once whichever worker sees it first. */
    lastNightlyOn: date('last_nightly_on'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('evaluations_workflow_id_idx').on(t.workflowId)],
);

/**
 * One run of an evaluation: its dataset's version against one workflow version (`workflow_version`;
 * below zero, a snapshot of the working copy), `digest` the definition's hash (the activation gate
 * finds a candidate's eval run by it). Running until every item is graded, or cancelled.
 */
export const evalRuns = pgTable(
  'eval_runs',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    evaluationId: uuid('evaluation_id')
      .notNull()
      .references(() => evaluations.id, { onDelete: 'cascade' }),
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    workflowVersion: integer('workflow_version').notNull(),
    digest: text('digest').notNull(),
    datasetVersion: integer('dataset_version').notNull(),
    status: text('status')
      .$type<'running' | 'completed' | 'cancelled' | 'failed'>()
      .notNull()
      .default('running'),
    /** manual, schedule or activation. */
    reason: text('reason').$type<'manual' | 'schedule' | 'activation'>().notNull().default('manual'),
    concurrency: integer('concurrency').notNull(),
    /** The graders and pass threshold as they were when it started (an edit later does not change it). */
    graders: jsonb('graders').$type<unknown[]>().notNull(),
    passThreshold: doublePrecision('pass_threshold').notNull(),
    total: integer('total').notNull(),
    /** The activation it stands for (reason activation): who asked, and the version note. */
    activation: jsonb('activation').$type<{ userId: string | null; note: string | null }>(),
    error: text('error'),
    /**
     * Until when a worker drives it (starts its items, ends it): one at a time, and another may
     * take over once this lapses (a worker that died). Null when nobody does.
     */
    drivenUntil: timestamp('driven_until', { withTimezone: true }),
    startedBy: uuid('started_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('eval_runs_evaluation_id_created_at_idx').on(t.evaluationId, t.createdAt),
    index('eval_runs_running_idx')
      .on(t.status)
      .where(sql`${t.status} = 'running'`),
  ],
);

/** One item of an eval run: its run (once started) and, once that ended, its grades. */
export const evalRunItems = pgTable(
  'eval_run_items',
  {
    id: id(),
    evalRunId: uuid('eval_run_id')
      .notNull()
      .references(() => evalRuns.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    itemId: uuid('item_id')
      .notNull()
      .references(() => datasetItems.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    executionId: uuid('execution_id').references(() => workflowExecutions.id, { onDelete: 'set null' }),
    /** Set once its run was started: an execution deleted since still counts as started. */
    startedAt: timestamp('started_at', { withTimezone: true }),
    /** The graded answer (the default target), the grades (contracts' Grade[]), and the verdict. */
    output: jsonb('output').$type<unknown>(),
    grades: jsonb('grades').$type<unknown[]>(),
    passed: boolean('passed'),
    score: doublePrecision('score'),
    costMicros: bigint('cost_micros', { mode: 'number' }),
    durationMs: integer('duration_ms'),
    error: text('error'),
    gradedAt: timestamp('graded_at', { withTimezone: true }),
  },
  (t) => [
    unique('eval_run_items_eval_run_id_position_unique').on(t.evalRunId, t.position),
    index('eval_run_items_execution_id_idx').on(t.executionId),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
export type OrganizationRow = typeof organizations.$inferSelect;
export type NewOrganizationRow = typeof organizations.$inferInsert;
export type UserOrganizationRow = typeof userOrganizations.$inferSelect;
export type NewUserOrganizationRow = typeof userOrganizations.$inferInsert;
export type OrganizationInvitationRow = typeof organizationInvitations.$inferSelect;
export type AgentRow = typeof agents.$inferSelect;
export type NewAgentRow = typeof agents.$inferInsert;
export type WorkflowRow = typeof workflows.$inferSelect;
export type NewWorkflowRow = typeof workflows.$inferInsert;
export type WorkflowExecutionRow = typeof workflowExecutions.$inferSelect;
export type NewWorkflowExecutionRow = typeof workflowExecutions.$inferInsert;
export type AgentExecutionRow = typeof agentExecutions.$inferSelect;
export type NewAgentExecutionRow = typeof agentExecutions.$inferInsert;
export type MicrosoftTokenRow = typeof microsoftTokens.$inferSelect;
export type NewMicrosoftTokenRow = typeof microsoftTokens.$inferInsert;
export type MicrosoftOauthStateRow = typeof microsoftOauthStates.$inferSelect;
export type EmailTriggerMessageRow = typeof emailTriggerMessages.$inferSelect;
export type WorkflowTemplateRow = typeof workflowTemplates.$inferSelect;
export type NewWorkflowTemplateRow = typeof workflowTemplates.$inferInsert;
export type AgentTemplateRow = typeof agentTemplates.$inferSelect;
export type NewAgentTemplateRow = typeof agentTemplates.$inferInsert;
export type ToolRow = typeof tools.$inferSelect;
export type NewToolRow = typeof tools.$inferInsert;
export type AgentToolRow = typeof agentTools.$inferSelect;
export type NewAgentToolRow = typeof agentTools.$inferInsert;
export type ConnectionRow = typeof connections.$inferSelect;
export type NewConnectionRow = typeof connections.$inferInsert;
export type AuthSessionRow = typeof authSessions.$inferSelect;
export type NewAuthSessionRow = typeof authSessions.$inferInsert;
export type RateLimitEventRow = typeof rateLimitEvents.$inferSelect;
export type NewRateLimitEventRow = typeof rateLimitEvents.$inferInsert;
export type KnowledgeBaseRow = typeof knowledgeBases.$inferSelect;
export type KnowledgeDocumentRow = typeof knowledgeDocuments.$inferSelect;
export type KnowledgeChunkRow = typeof knowledgeChunks.$inferSelect;
export type AuditEventRow = typeof auditEvents.$inferSelect;
export type NewAuditEventRow = typeof auditEvents.$inferInsert;
export type WorkerHeartbeatRow = typeof workerHeartbeats.$inferSelect;
export type NewWorkerHeartbeatRow = typeof workerHeartbeats.$inferInsert;
