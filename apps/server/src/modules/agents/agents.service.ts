import type { Agent, CreateAgentInput, UpdateAgentInput } from '@crewline/contracts';
import { NotFoundError } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { requireUuid } from '../../platform/ids';
import type { AgentsRepository } from './agents.repository';

const notFound = 'Agent not found';

export function createAgentsService(deps: { repository: AgentsRepository; events: EventBus }) {
  const { repository, events } = deps;
  return {
    list: (organizationId: string) => repository.list(organizationId),

    async get(organizationId: string, id: string): Promise<Agent> {
      const agent = await repository.get(organizationId, requireUuid(id, notFound));
      if (!agent) throw new NotFoundError(notFound);
      return agent;
    },

    async create(organizationId: string, userId: string, input: CreateAgentInput): Promise<Agent> {
      const agent = await repository.create(organizationId, userId, input);
      events.publish({ type: 'agent_created', organizationId, agentId: agent.id });
      return agent;
    },

    async update(organizationId: string, id: string, patch: UpdateAgentInput): Promise<Agent> {
      const agent = await repository.update(organizationId, requireUuid(id, notFound), patch);
      if (!agent) throw new NotFoundError(notFound);
      events.publish({ type: 'agent_updated', organizationId, agentId: agent.id });
      return agent;
    },

    async remove(organizationId: string, id: string): Promise<void> {
      if (!(await repository.remove(organizationId, requireUuid(id, notFound))))
        throw new NotFoundError(notFound);
      events.publish({ type: 'agent_deleted', organizationId, agentId: id });
    },
  };
}
export type AgentsService = ReturnType<typeof createAgentsService>;
