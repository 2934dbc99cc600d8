import type { CreateWorkflowData, UpdateWorkflowData, Workflow } from '@crewline/contracts';
import { validateWorkflow } from '@crewline/engine';
import { BadRequestError, NotFoundError } from '../../platform/errors';
import { requireUuid } from '../../platform/ids';
import type { WorkflowsRepository } from './workflows.repository';

const notFound = 'Workflow not found';

export type WorkflowWithWarnings = Workflow & { warnings: string[] };

export function createWorkflowsService(repository: WorkflowsRepository) {
  /** The engine's structural rules (spec part 2 §5): errors become a 400, warnings travel with the answer. */
  async function check(
    organizationId: string,
    draft: Pick<Workflow, 'name' | 'triggerType' | 'triggerConfig' | 'nodes' | 'edges'>,
  ) {
    const agentIds = await repository.agentIds(organizationId);
    const { errors, warnings } = validateWorkflow(
      {
        name: draft.name ?? '',
        triggerType: draft.triggerType ?? 'manual',
        triggerConfig: draft.triggerConfig ?? {},
        nodes: draft.nodes ?? [],
        edges: draft.edges ?? [],
      },
      (id) => agentIds.has(id),
    );
    if (errors.length > 0) {
      throw new BadRequestError(
        errors.join(', '),
        errors.map((message) => ({ path: '', message })),
      );
    }
    return warnings;
  }

  async function get(organizationId: string, id: string): Promise<Workflow> {
    const workflow = await repository.get(organizationId, requireUuid(id, notFound));
    if (!workflow) throw new NotFoundError(notFound);
    return workflow;
  }

  return {
    list: (organizationId: string) => repository.list(organizationId),

    async get(organizationId: string, id: string): Promise<WorkflowWithWarnings> {
      const workflow = await get(organizationId, id);
      const agentIds = await repository.agentIds(organizationId);
      return {
        ...workflow,
        warnings: validateWorkflow(workflow, (agentId) => agentIds.has(agentId)).warnings,
      };
    },

    /** The workflow as a run needs it: it must pass the same structural rules as a save (else 400). */
    async getRunnable(organizationId: string, id: string): Promise<Workflow> {
      const workflow = await get(organizationId, id);
      await check(organizationId, workflow);
      return workflow;
    },

    async create(
      organizationId: string,
      userId: string,
      input: CreateWorkflowData,
    ): Promise<WorkflowWithWarnings> {
      const warnings = await check(organizationId, input);
      const workflow = await repository.create(organizationId, userId, input);
      return { ...workflow, warnings };
    },

    async update(
      organizationId: string,
      id: string,
      patch: UpdateWorkflowData,
    ): Promise<WorkflowWithWarnings> {
      const existing = await get(organizationId, id);
      const warnings = await check(organizationId, { ...existing, ...patch });
      const workflow = await repository.update(organizationId, existing.id, patch);
      if (!workflow) throw new NotFoundError(notFound);
      return { ...workflow, warnings };
    },

    /** Its executions and their agent steps go with it (foreign-key cascade). */
    async remove(organizationId: string, id: string): Promise<void> {
      if (!(await repository.remove(organizationId, requireUuid(id, notFound))))
        throw new NotFoundError(notFound);
    },
  };
}
export type WorkflowsService = ReturnType<typeof createWorkflowsService>;
