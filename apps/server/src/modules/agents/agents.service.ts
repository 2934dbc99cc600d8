import type { AgentsRepository } from './agents.repository';

export function createAgentsService(repository: AgentsRepository) {
  return {
    list: (organizationId: string) => repository.list(organizationId),
  };
}
export type AgentsService = ReturnType<typeof createAgentsService>;
