import type { ExecutionsRepository } from './executions.repository';

export const EXECUTIONS_PAGE_DEFAULT = 50;
export const EXECUTIONS_PAGE_MAX = 200;

export function createExecutionsService(repository: ExecutionsRepository) {
  return {
    list: (organizationId: string, limit = EXECUTIONS_PAGE_DEFAULT) => repository.list(organizationId, limit),
  };
}
export type ExecutionsService = ReturnType<typeof createExecutionsService>;
