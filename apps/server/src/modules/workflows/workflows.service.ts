import {
  activationGateSchema,
  workflowMessages,
  workflowVersionMessages,
  type ActivationGate,
  type CreateWorkflowData,
  type UpdateWorkflowData,
  type Workflow,
  type WorkflowVersion,
  type WorkflowVersionSummary,
} from '@crewline/contracts';
import { nodeAgentId, stepName, validateWorkflow } from '@crewline/engine';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../platform/errors';
import { isUuid, requireUuid } from '../../platform/ids';
import type { RequestActor } from '../../platform/request-actor';
import { webhookSecretChange, withoutSecret, type WebhookSecrets } from './webhook-secret';
import { scheduledNextRunAt } from './schedule';
import { nothingToSet } from '../../platform/patch';
import type { Db, ExtraColumns } from '@crewline/db';
import { withProblems, type VersionAuthor, type WorkflowsRepository } from './workflows.repository';
import { checkStatusChange } from './workflow-status';

const notFound = 'Workflow not found';

/** The workflow a map or loop node runs (`data.run.workflowId`), if it runs one. */
const runWorkflowId = (node: Workflow['nodes'][number]): string | undefined => {
  const run = (node.data as { run?: { workflowId?: unknown } } | undefined)?.run;
  return typeof run?.workflowId === 'string' ? run.workflowId : undefined;
};

/**
 * What a run reads of its workflow (its pinned version, else the working copy, as stored): the
 * composition root hands modules/executions the repository's reads, typed here.
 */
export type WorkflowReads = Pick<WorkflowsRepository, 'get' | 'version' | 'versionAt'>;

/** The scheduler's store of due ticks (schedules.repository.ts), handed to modules/triggers. */
export type { DueSchedule, SchedulesRepository } from './schedules.repository';

export type WorkflowWithWarnings = Workflow & { warnings: string[] };

/**
 * The activation gate (modules/evaluations, activation-gate.ts): a workflow whose
 * `config.activationGate` names an evaluation records a new version only once that evaluation
 * passes on it (docs/product-rules.md, Evaluations).
 */
export type ActivationGatePort = {
  /** Refuses (400) a gate naming an evaluation that is not one of this workflow's. */
  checkConfig(organizationId: string, workflowId: string, gate: ActivationGate): Promise<void>;
  /**
   * The verdict on the saved working copy: returns the line the version keeps about it, or throws
   * a 409 (the evaluation failed) or a 202 (it is running; the version is recorded when it passes).
   */
  admit(
    organizationId: string,
    userId: string | null,
    workflow: Workflow,
    gate: ActivationGate,
    note: string | null,
  ): Promise<string | null>;
};

/** The workflow's gate, if its settings name one. */
const activationGateOf = (config: Workflow['config'] | undefined): ActivationGate | undefined => {
  const parsed = activationGateSchema.safeParse(
    (config as { activationGate?: unknown } | undefined)?.activationGate,
  );
  return parsed.success ? parsed.data : undefined;
};

/**
 * `webhookSecrets` seals a webhook workflow's secret on every save (modules/triggers/webhook-secret.ts);
 * `gate` is the activation gate, bound late (modules/evaluations needs this service first).
 */
export function createWorkflowsService(
  repository: WorkflowsRepository,
  webhookSecrets: WebhookSecrets,
  gate?: () => ActivationGatePort | undefined,
) {
  /** The engine's structural rules (docs/product-rules.md): errors become a 400, warnings travel with the answer. */
  async function check(
    organizationId: string,
    draft: Pick<Workflow, 'name' | 'triggerType' | 'triggerConfig' | 'nodes' | 'edges'> &
      Partial<Pick<Workflow, 'processType' | 'id'>>,
    /** The existing agents and tools among those the nodes name, when already read with the workflow. */
    known?: { agentIds: Set<string>; toolIds: Set<string> },
    within?: Pick<Db, 'select' | 'transaction'>,
  ) {
    // A save reads the organization's agents with their output schemas (a run's start, which knows
    // the agent ids already, checks expressions over agents' data at run time instead).
    const agents = known ? undefined : await repository.agentSchemas(organizationId, within);
    const agentIds = known?.agentIds ?? new Set(agents!.keys());
    // Only a workflow with Tool steps reads the organization's tools: others save as they did.
    const toolIds =
      known?.toolIds ??
      ((draft.nodes ?? []).some((node) => node.type === 'tool')
        ? await repository.toolIds(organizationId, within)
        : undefined);
    // Only a workflow whose maps or loops run other workflows reads which of those exist.
    const targets = [...new Set((draft.nodes ?? []).map(runWorkflowId).filter((id) => id !== undefined))];
    const workflowIds =
      targets.length > 0
        ? await repository.workflowIds(organizationId, targets.filter(isUuid), within)
        : undefined;
    const { errors, warnings } = validateWorkflow(
      {
        name: draft.name ?? '',
        triggerType: draft.triggerType ?? 'manual',
        triggerConfig: draft.triggerConfig ?? {},
        processType: draft.processType ?? 'sequential',
        nodes: draft.nodes ?? [],
        edges: draft.edges ?? [],
      },
      (id) => agentIds.has(id),
      {
        toolExists: toolIds && ((id) => toolIds.has(id)),
        workflowExists: workflowIds && ((id) => workflowIds.has(id)),
        workflowId: draft.id,
        agentOutputSchema: agents && ((id) => agents.get(id) ?? undefined),
      },
    );
    if (errors.length > 0) {
      throw new BadRequestError(
        errors.join(', '),
        errors.map((message) => ({ path: '', message })),
      );
    }
    return warnings;
  }

  async function withAgentIds<Extra extends ExtraColumns>(
    organizationId: string,
    id: string,
    extra?: Extra,
    parameters?: Record<string, unknown>,
  ) {
    const found = await repository.getWithAgentIds(
      organizationId,
      requireUuid(id, notFound),
      extra,
      parameters,
    );
    if (!found) throw new NotFoundError(notFound);
    return found;
  }

  async function get(organizationId: string, id: string): Promise<Workflow> {
    const workflow = await repository.get(organizationId, requireUuid(id, notFound));
    if (!workflow) throw new NotFoundError(notFound);
    return workflow;
  }

  /**
   * A save that leaves the workflow active records a new version (see the repository). Behind an
   * activation gate, only an activation (`status: 'active'` in the patch) records one, once the
   * gate admits the saved working copy (an owner's `gateOverride` records it anyway, with its
   * note); other saves of a gated workflow keep the working copy only.
   */
  async function update(
    organizationId: string,
    userId: string | null,
    id: string,
    patch: UpdateWorkflowData,
    /**
     * Whether the caller may change the activation gate (owners and admins; not API keys), and the
     * request's address for the audit log.
     */
    options: { mayChangeGate?: boolean; ip?: string | null; apiKey?: RequestActor['apiKey'] } = {},
  ): Promise<WorkflowWithWarnings> {
    const { versionNote, gateOverride, ...fields } = patch;
    const existing = await get(organizationId, id);
    checkStatusChange(existing.status, fields.status);
    // The gate is a control over releases: only owners and admins set, change or remove it.
    if (
      fields.config &&
      !options.mayChangeGate &&
      JSON.stringify(activationGateOf(fields.config) ?? null) !==
        JSON.stringify(activationGateOf(existing.config) ?? null)
    )
      throw new ForbiddenError(workflowMessages.gateAdminsOnly);
    // Resuming is an activation: the same structural check (below) refuses a workflow that cannot run.
    const warnings = await check(organizationId, { ...existing, ...fields });
    // The gate in force is the saved one: a save that drops or changes it is held by it this time.
    const activationGate = activationGateOf(existing.config) ?? activationGateOf(fields.config);
    const gatePort = activationGate && gate?.();
    if (fields.config && activationGate && gatePort) {
      await gatePort.checkConfig(organizationId, existing.id, activationGate);
    }
    // The secret never stays in trigger_config: a typed one is sealed, a plaintext one from before moves.
    const stored = (await repository.storedWebhookSecret(organizationId, existing.id)) ?? { sealed: null };
    const sealed = webhookSecrets.sealedForSave(
      organizationId,
      fields.triggerType ?? existing.triggerType,
      fields.triggerConfig,
      stored,
    );
    const triggerConfig =
      fields.triggerConfig || stored.legacy !== undefined
        ? withoutSecret(fields.triggerConfig ?? existing.triggerConfig)
        : undefined;
    const changes = {
      ...fields,
      ...(triggerConfig !== undefined ? { triggerConfig } : {}),
      ...(sealed !== stored.sealed ? { webhookSecret: sealed } : {}),
    };
    /** One write; the schedule's next tick from now goes with it (null unless active with a schedule). */
    const save = (values: Partial<typeof changes>, author: VersionAuthor, base: Workflow = existing) =>
      repository.update(
        organizationId,
        existing.id,
        nothingToSet(values) ? values : { ...values, nextRunAt: scheduledNextRunAt({ ...base, ...values }) },
        author,
        {
          actor: { userId, ip: options.ip ?? null, ...(options.apiKey ? { apiKey: options.apiKey } : {}) },
          previousStatus: existing.status,
          webhookSecret: webhookSecretChange(
            fields.triggerType ?? existing.triggerType,
            fields.triggerConfig,
            stored,
          ),
        },
      );
    let workflow: Workflow | undefined;
    if (!gatePort) {
      workflow = await save(changes, { userId, note: versionNote });
    } else if (fields.status !== 'active') {
      workflow = await save(changes, { userId, record: false });
    } else {
      // An activation behind the gate: the working copy is saved first (an edit is never lost to a
      // refusal), then recorded as a version only if the gate admits it.
      const { status: _status, ...edits } = changes;
      const saved = await save(edits, { userId, record: false });
      if (!saved) throw new NotFoundError(notFound);
      const note = gateOverride
        ? `Activation gate overridden: ${gateOverride.note}`
        : await gatePort.admit(organizationId, userId, saved, activationGate, versionNote ?? null);
      const kept = [versionNote, note].filter(Boolean).join(' · ') || null;
      workflow = await save({ status: 'active' }, { userId, note: kept }, saved);
    }
    if (!workflow) throw new NotFoundError(notFound);
    // The check above refused any step on a missing agent: nothing needs attention after a save.
    return { ...withProblems(workflow, []), warnings };
  }

  async function versionOf(organizationId: string, id: string, version: number): Promise<WorkflowVersion> {
    const workflow = await get(organizationId, id);
    const found = await repository.version(organizationId, workflow.id, version);
    if (!found) throw new NotFoundError(workflowVersionMessages.notFound);
    return found;
  }

  return {
    list: (organizationId: string) => repository.list(organizationId),

    /** With whether it needs attention: its steps on deleted agents, from the agents read with it. */
    async get(organizationId: string, id: string): Promise<WorkflowWithWarnings> {
      const { workflow, agentIds } = await withAgentIds(organizationId, id);
      const deletedSteps = workflow.nodes
        .filter((node) => {
          const agentId = node.type === 'agent' ? nodeAgentId(node) : undefined;
          return agentId !== undefined && !agentIds.has(agentId);
        })
        .map(stepName);
      return {
        ...withProblems(workflow, deletedSteps),
        warnings: validateWorkflow(workflow, (agentId) => agentIds.has(agentId)).warnings,
      };
    },

    /**
     * The workflow as a run needs it: it must pass the same structural rules as a save (else 400).
     * One statement reads it with the agents it names, and with `extra` columns the caller reads
     * along (the plan's allowance of runs) with the `parameters` they name (WorkflowsRepository's
     * getWithAgentIds).
     */
    async getRunnable<Extra extends ExtraColumns>(
      organizationId: string,
      id: string,
      extra?: Extra,
      parameters?: Record<string, unknown>,
    ): Promise<{ workflow: Workflow; extra: { [K in keyof Extra]: unknown } }> {
      const found = await withAgentIds(organizationId, id, extra, parameters);
      await check(organizationId, found.workflow, found);
      return { workflow: found.workflow, extra: found.extra };
    },

    /** Given `within` (a template copy's transaction), checked and written in that transaction. */
    async create(
      organizationId: string,
      userId: string,
      input: CreateWorkflowData,
      within?: Pick<Db, 'select' | 'transaction'>,
      /** Who creates it, from where (the audit log's actor; the user alone when not given). */
      actor: RequestActor = { userId, ip: null },
    ): Promise<WorkflowWithWarnings> {
      const { versionNote, ...given } = input;
      // A new workflow has no evaluations yet, so no gate can name one of its own (a template or a
      // copy may carry another workflow's): it starts without, and an owner or admin sets one later.
      const { activationGate: _gate, ...config } = given.config;
      const fields = { ...given, config };
      const warnings = await check(organizationId, fields, undefined, within);
      const workflow = await repository.create(
        organizationId,
        userId,
        {
          ...fields,
          triggerConfig: withoutSecret(fields.triggerConfig),
          webhookSecret: webhookSecrets.sealedForSave(
            organizationId,
            fields.triggerType,
            fields.triggerConfig,
            { sealed: null },
          ),
          nextRunAt: scheduledNextRunAt(fields),
        },
        versionNote,
        within,
        {
          actor,
          webhookSecret: webhookSecretChange(fields.triggerType, fields.triggerConfig, { sealed: null }),
        },
      );
      return { ...withProblems(workflow, []), warnings };
    },

    update,

    /** Newest first; another organization's workflow is not found. */
    async versions(organizationId: string, id: string): Promise<WorkflowVersionSummary[]> {
      const workflow = await get(organizationId, id);
      return repository.versions(organizationId, workflow.id);
    },

    version: versionOf,

    /** Records the working copy as a snapshot (a version below zero) for an evaluation of the draft. */
    async snapshot(organizationId: string, userId: string | null, id: string): Promise<number> {
      const version = await repository.snapshot(organizationId, requireUuid(id, notFound), userId);
      if (version === undefined) throw new NotFoundError(notFound);
      return version;
    },

    /**
     * Makes the version's definition the working copy again; the version itself is never rewritten.
     * Like any save of an active workflow, restoring one records a new version.
     */
    async restore(
      organizationId: string,
      userId: string | null,
      id: string,
      version: number,
    ): Promise<WorkflowWithWarnings> {
      // A snapshot of the draft (below zero) is no version to restore.
      if (version < 1) throw new NotFoundError(workflowVersionMessages.notFound);
      const old = await versionOf(organizationId, id, version);
      const { activationGate: _restoredGate, ...oldConfig } = old.config;
      const { activationGate } = (await get(organizationId, id)).config;
      return update(organizationId, userId, id, {
        name: old.name,
        description: old.description,
        processType: old.processType,
        triggerType: old.triggerType,
        triggerConfig: old.triggerConfig,
        nodes: old.nodes,
        edges: old.edges,
        // The gate stays as it is: a restore brings back what runs, not how it is released.
        config: activationGate === undefined ? oldConfig : { ...oldConfig, activationGate },
        versionNote: `Restored from version ${old.version}`,
      });
    },

    /** A trigger configuration without its webhook secret, as templates keep it (webhook-secret.ts). */
    withoutSecret,

    /** Why a trigger last failed to start a run (modules/triggers); null once one started a run again. */
    setTriggerError: (organizationId: string, id: string, message: string | null) =>
      repository.setTriggerError(organizationId, id, message),

    /** Its executions and their agent steps go with it (foreign-key cascade). */
    async remove(organizationId: string, id: string): Promise<void> {
      if (!(await repository.remove(organizationId, requireUuid(id, notFound))))
        throw new NotFoundError(notFound);
    },
  };
}
export type WorkflowsService = ReturnType<typeof createWorkflowsService>;
