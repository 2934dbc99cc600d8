import {
  workflowVersionMessages,
  type CreateWorkflowData,
  type UpdateWorkflowData,
  type Workflow,
  type WorkflowVersion,
  type WorkflowVersionSummary,
} from '@crewline/contracts';
import { nodeAgentId, stepName, validateWorkflow } from '@crewline/engine';
import { BadRequestError, NotFoundError } from '../../platform/errors';
import { isUuid, requireUuid } from '../../platform/ids';
import { withoutSecret, type WebhookSecrets } from './webhook-secret';
import { scheduledNextRunAt } from './schedule';
import { nothingToSet } from '../../platform/patch';
import type { Db, ExtraColumns } from '@crewline/db';
import { withProblems, type WorkflowsRepository } from './workflows.repository';
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

/** `webhookSecrets` seals a webhook workflow's secret on every save (modules/triggers/webhook-secret.ts). */
export function createWorkflowsService(repository: WorkflowsRepository, webhookSecrets: WebhookSecrets) {
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

  /** A save that leaves the workflow active records a new version (see the repository). */
  async function update(
    organizationId: string,
    userId: string | null,
    id: string,
    patch: UpdateWorkflowData,
  ): Promise<WorkflowWithWarnings> {
    const { versionNote, ...fields } = patch;
    const existing = await get(organizationId, id);
    checkStatusChange(existing.status, fields.status);
    // Resuming is an activation: the same structural check (below) refuses a workflow that cannot run.
    const warnings = await check(organizationId, { ...existing, ...fields });
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
    const workflow = await repository.update(
      organizationId,
      existing.id,
      {
        ...fields,
        triggerConfig,
        ...(sealed !== stored.sealed ? { webhookSecret: sealed } : {}),
        // The schedule's next tick from now, in the same write (null unless active with a schedule).
        ...(nothingToSet(fields) ? {} : { nextRunAt: scheduledNextRunAt({ ...existing, ...fields }) }),
      },
      { userId, note: versionNote },
    );
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
    ): Promise<WorkflowWithWarnings> {
      const { versionNote, ...fields } = input;
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
      const old = await versionOf(organizationId, id, version);
      return update(organizationId, userId, id, {
        name: old.name,
        description: old.description,
        processType: old.processType,
        triggerType: old.triggerType,
        triggerConfig: old.triggerConfig,
        nodes: old.nodes,
        edges: old.edges,
        config: old.config,
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
