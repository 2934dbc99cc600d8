import { z } from 'zod';
import { workflowBudgetSchema } from './budgets';
import { activationGateSchema, gateOverrideSchema } from './evaluations';
import { processTypeValues, triggerTypeValues, workflowStatusValues } from './enums';
import { isNodeKind, nodeDataSchema, nodeKinds, nodeKindValues } from './node-kinds';

export const workflowStatusSchema = z.enum(workflowStatusValues);
export const processTypeSchema = z.enum(processTypeValues);
export const triggerTypeSchema = z.enum(triggerTypeValues);

export const workflowNodeSchema = z
  .object({
    id: z
      .string()
      .meta({ description: 'Unique in the workflow; expressions read the node as `nodes.<id>`.' }),
    type: z.enum(nodeKindValues).meta({ description: 'The node kind: it decides what `data` holds.' }),
    agentId: z.string().nullish().meta({ description: 'An agent node: the agent it asks.' }),
    position: z.object({ x: z.number(), y: z.number() }),
    data: nodeDataSchema.default({}).meta({
      description:
        "The kind's fields (see the examples), beside any key the builder keeps (`label`, `color`, …).",
    }),
  })
  .superRefine((node, ctx) => {
    // Each kind's own fields are typed (node-kinds/); the data is kept as it came, other keys included.
    if (!isNodeKind(node.type)) return;
    const parsed = nodeKinds[node.type].data.safeParse(node.data);
    for (const issue of parsed.error?.issues ?? [])
      ctx.addIssue({ code: 'custom', message: issue.message, path: ['data', ...issue.path] });
  });
export type WorkflowNode = z.infer<typeof workflowNodeSchema>;

export const workflowEdgeSchema = z.object({
  id: z.string(),
  source: z.string(),
  target: z.string(),
  /** The path it leaves from: a condition's branch id or `else` (ELSE_BRANCH); none for other nodes. */
  sourceHandle: z.string().max(100).nullish().meta({
    description:
      "An edge out of a condition: the branch it leaves from (a branch's `id`, or `else`). None for other nodes.",
  }),
});
export type WorkflowEdge = z.infer<typeof workflowEdgeSchema>;

export const triggerConfigSchema = z.object({
  /** Schedule: a 5-field cron expression (minute, hour, day of month, month, day of week). */
  cron: z.string().optional(),
  /** Schedule: the IANA time zone the expression is read in; UTC when absent. */
  timezone: z.string().optional(),
  /**
   * Webhook: in answers, the mask of the stored secret (WEBHOOK_SECRET_MASK) when there is one; in a
   * save, a new secret, or the mask (or nothing) to keep the stored one. Never stored here.
   */
  secret: z.string().optional(),
  /**
   * Webhook: calls must be signed (WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER) with the secret
   * instead of naming it; replays and stale calls are refused.
   */
  signed: z.boolean().optional(),
  emailAddress: z.string().optional(),
  subjectFilter: z.string().optional(),
});
export type TriggerConfig = z.infer<typeof triggerConfigSchema>;

/** What every workflow answer shows in place of a webhook secret. */
export const WEBHOOK_SECRET_MASK = '••••••••';

/** What a workflow does: the fields a version records and a run executes. */
export const workflowDefinitionSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  processType: processTypeSchema,
  triggerType: triggerTypeSchema,
  triggerConfig: triggerConfigSchema,
  nodes: z.array(workflowNodeSchema),
  edges: z.array(workflowEdgeSchema),
  config: z.record(z.string(), z.unknown()),
});
export type WorkflowDefinition = z.infer<typeof workflowDefinitionSchema>;

/** A workflow as the API answers it (docs/product-rules.md). */
export const workflowSchema = workflowDefinitionSchema.extend({
  id: z.string(),
  status: workflowStatusSchema,
  templateCategory: z.string().nullable(),
  templateTags: z.array(z.string()),
  organizationId: z.string(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** An active schedule workflow's next tick (ISO time); null otherwise. */
  nextRunAt: z.string().nullable(),
  /** Why a trigger last failed to start a run, and when; null once a trigger started one again. */
  lastTriggerError: z.object({ message: z.string(), at: z.string() }).nullable(),
  /**
   * The list's and the detail's answers: true when a step uses an agent that was deleted, computed
   * as the workflow is read (docs/architecture.md, Workflows); `problems` says which, in words.
   */
  needsAttention: z.boolean().optional(),
  problems: z.array(z.string()).optional(),
});
export type Workflow = z.infer<typeof workflowSchema>;

/** The workflow validation texts (docs/product-rules.md), shared by the engine, the server and the builder. */
export const workflowMessages = {
  nameRequired: 'Please enter a workflow name',
  gateAdminsOnly: 'Only owners and admins change the activation gate',
  cronRequired: 'Please enter a valid cron expression for scheduled workflows',
  unknownTimezone: (timezone: string) =>
    `Unknown time zone "${timezone}": choose an IANA time zone such as UTC or Europe/Paris`,
  emailRequired: 'Please enter an email address for email-triggered workflows',
  noStart: 'Workflow must have a start node',
  noEnd: 'Workflow must have an end node',
  /**
   * An agent step whose agent is not in the organization (deleted since, as a rule), named by the step's
   * label as the canvas shows it: a run, a save and a trigger answer this, never the ids.
   */
  deletedAgent: (step: string) =>
    `Step "${step}" uses an agent that was deleted. Open the workflow and choose another agent.`,
  noAgent: (step: string) => `Step "${step}" has no agent. Open the workflow and choose an agent.`,
  cycles: 'Workflow may contain cycles which could cause infinite loops',
  notConnected: (label: string) => `Node "${label}" is not connected`,
  unreachable: (label: string) => `Node "${label}" is not reachable from the start node`,
  /** 409s of PUT /api/workflows/:id: only an active workflow pauses, and a paused one only resumes. */
  notPausable: (status: string) => `Only an active workflow can be paused; this one is ${status}.`,
  pausedOnlyResumes: 'A paused workflow can only be resumed: set its status to active.',
  /** A condition's else path is required: a run must always have somewhere to go. */
  elseRequired: (label: string) => `Condition "${label}" needs an else path`,
  noBranches: (label: string) => `Condition "${label}" needs at least one branch`,
  unknownBranch: (label: string) =>
    `Condition "${label}" has a path from a branch it does not have: connect each path from a branch or from else`,
  duplicateBranch: (label: string) => `Condition "${label}" has two branches with the same id`,
  /** An expression (CEL) or a template (`{{ expr }}`) that does not compile or type-check. */
  badExpression: (node: string, expression: string, reason: string) =>
    `Node "${node}": ${expression} — ${reason}`,
  /** A Tool step names one of the organization's tools. */
  noTool: (node: string) => `Tool "${node}" has no tool. Open the workflow and choose a tool.`,
  deletedTool: (node: string) =>
    `Tool "${node}" uses a tool that was deleted. Open the workflow and choose another tool.`,
  /** Maps and loops run an agent of the organization (with a prompt) or another workflow. */
  noRunTarget: (kind: string, node: string) =>
    `${kind} "${node}" has nothing to run. Open the workflow and choose an agent or a workflow.`,
  deletedRunAgent: (kind: string, node: string) =>
    `${kind} "${node}" uses an agent that was deleted. Open the workflow and choose another agent.`,
  /** A map or loop running another workflow names one of the organization's, never its own. */
  deletedRunWorkflow: (kind: string, node: string) =>
    `${kind} "${node}" runs a workflow that does not exist. Open the workflow and choose another workflow.`,
  ownRunWorkflow: (kind: string, node: string) =>
    `${kind} "${node}" cannot run its own workflow: choose another workflow or an agent.`,
  mapConcurrency: (node: string) => `Map "${node}" runs 1 to 20 items at a time`,
  loopIterations: (node: string) => `Loop "${node}" runs 1 to 50 times`,
  /** A run reaching a map whose list is longer than a map takes. */
  tooManyItems: (node: string, count: number, max: number) =>
    `Map "${node}" got ${count} items; a map takes at most ${max}`,
  /** A transform's names are what later expressions read under `vars`. */
  badVariableName: (node: string, name: string) =>
    `Transform "${node}": "${name}" is not a valid name (letters, digits and _, starting with a letter)`,
  duplicateVariable: (node: string, name: string) => `Transform "${node}" sets "${name}" twice`,
  /** An output schema that is not a JSON Schema of an object. */
  badOutputSchema: (node: string, reason: string) => `Step "${node}" has an output schema that ${reason}`,
  /** An Approval step names what is decided, and its paths are its outcomes. */
  approvalTitle: (node: string) => `Approval "${node}" needs a title`,
  approvalAllNeedsMembers: (node: string) =>
    `Approval "${node}": "All must approve" needs named members to approve`,
  approvalQuorum: (node: string, quorum: number) =>
    `Approval "${node}": a quorum of ${quorum} needs at least ${quorum} named members, or roles`,
  approvalPath: (node: string) =>
    `Approval "${node}" has a path that is not approved, rejected or timeout: connect each path from one of its outcomes`,
  approvalTimeoutPath: (node: string) =>
    `Approval "${node}" has a timeout path but no timeout that takes it: set a timeout with "Take the timeout path"`,
  approvalTimeoutPathMissing: (node: string) =>
    `Approval "${node}" takes the timeout path on timeout but has none: connect a timeout path or choose Reject`,
  approvalField: (node: string, field: string, reason: string) =>
    `Approval "${node}": form field "${field}" ${reason}`,
  /** A Delay step waits for a duration or until a time. */
  delayNeedsTime: (node: string) => `Delay "${node}" needs a duration or a time to wait until`,
  /** An approval or a delay inside a workflow that a map or loop runs: such a run cannot wait. */
  cannotWaitHere: (kind: string, node: string) =>
    `${kind} "${node}" cannot wait here: a workflow run by a map or a loop, or a test of a node, cannot wait`,
  /** Parallel and hierarchical runs have no paths: the kinds that decide or join are for sequential ones. */
  sequentialOnly: (kind: string, node: string, processType: string) =>
    `${kind} "${node}" works only in sequential workflows; this one is ${processType}`,
} as const;

/** The longest note a version keeps (the field beside Save in the builder). */
export const versionNoteMaxLength = 500;

const workflowFields = {
  name: z.string().trim().max(200),
  description: z.string().trim().max(5000).nullish(),
  processType: processTypeSchema,
  triggerType: triggerTypeSchema,
  triggerConfig: triggerConfigSchema,
  nodes: z.array(workflowNodeSchema).max(1000),
  edges: z.array(workflowEdgeSchema).max(5000),
  // Free-form settings; the parts the product reads are checked (`budget`: budgets.ts,
  // `activationGate`: evaluations.ts).
  config: z.looseObject({
    budget: workflowBudgetSchema.optional(),
    activationGate: activationGateSchema.nullish(),
  }),
  status: workflowStatusSchema,
  templateCategory: z.string().trim().max(100).nullish(),
  templateTags: z.array(z.string().max(50)).max(20),
};

/** POST /api/workflows — the builder's payload; structural rules are checked by the engine. */
export const createWorkflowSchema = z.object({
  ...workflowFields,
  processType: workflowFields.processType.default('sequential'),
  triggerType: workflowFields.triggerType.default('manual'),
  triggerConfig: workflowFields.triggerConfig.default({}),
  nodes: workflowFields.nodes.default([]),
  edges: workflowFields.edges.default([]),
  config: workflowFields.config.default({}),
  status: workflowFields.status.default('draft'),
  templateTags: workflowFields.templateTags.default([]),
  /** Kept with version 1 when the workflow is created active. */
  versionNote: z.string().trim().max(versionNoteMaxLength).nullish(),
});
export type CreateWorkflowInput = z.input<typeof createWorkflowSchema>;
export type CreateWorkflowData = z.output<typeof createWorkflowSchema>;

/** PUT /api/workflows/:id — any subset, e.g. `{ status: 'active' }` from the list's Activate. */
export const updateWorkflowSchema = z
  .object({
    ...workflowFields,
    /** Kept with the version this save records when the workflow is (or becomes) active. */
    versionNote: z.string().trim().max(versionNoteMaxLength).nullish(),
    /** An owner records the version although the activation gate's evaluation did not pass. */
    gateOverride: gateOverrideSchema,
  })
  .partial();
export type UpdateWorkflowInput = z.input<typeof updateWorkflowSchema>;
export type UpdateWorkflowData = z.output<typeof updateWorkflowSchema>;

/** A saved workflow with the warnings of its structure (never blocking). */
export const workflowWithWarningsSchema = workflowSchema.extend({ warnings: z.array(z.string()) });

/** One entry of GET /api/workflows/:id/versions (newest first). */
export const workflowVersionSummarySchema = z.object({
  version: z.number().int(),
  createdAt: z.string(),
  createdBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  note: z.string().nullable(),
});
export type WorkflowVersionSummary = z.infer<typeof workflowVersionSummarySchema>;

/** GET /api/workflows/:id/versions/:version — an immutable snapshot of the definition. */
export const workflowVersionSchema = workflowVersionSummarySchema.extend({
  workflowId: z.string(),
  ...workflowDefinitionSchema.shape,
});
export type WorkflowVersion = z.infer<typeof workflowVersionSchema>;

/** A version's number; below zero, a snapshot of the draft an evaluation ran (its runs show its graph). */
export const workflowVersionParamsSchema = z.object({
  id: z.string(),
  version: z.coerce.number().int().min(-2_147_483_648).max(2_147_483_647),
});

export const workflowVersionMessages = { notFound: 'Workflow version not found' } as const;
