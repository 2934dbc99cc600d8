import type { WorkflowsRepository } from './workflows.repository';

export function createWorkflowsService(repository: WorkflowsRepository) {
  return {
    list: (organizationId: string) => repository.list(organizationId),
  };
}
export type WorkflowsService = ReturnType<typeof createWorkflowsService>;
