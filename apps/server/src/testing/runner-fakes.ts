import type { Agent, RealtimeEvent } from '@crewline/contracts';
import type { EventBus } from '../platform/events';

/** The run the runner's unit tests work on. */
export const runIds = { organizationId: 'org-1', executionId: 'run-1', workflowId: 'flow-1' };

/**
 * An event bus that only records: what was published, and what travelled in statements (one entry
 * per statement, as their notification holds them).
 */
export function recordingBus() {
  const published: RealtimeEvent[] = [];
  const inStatements: RealtimeEvent[][] = [];
  const bus = {
    publish(event: RealtimeEvent) {
      published.push(event);
    },
    statementNotification(events: RealtimeEvent | RealtimeEvent[]) {
      const list = Array.isArray(events) ? events : [events];
      inStatements.push(list);
      return { sends: [{ channel: 'crewline_events', payload: JSON.stringify(list) }] };
    },
  };
  return { bus: bus as unknown as EventBus, published, inStatements };
}

/** An agent as the run reads it. */
export function agentNamed(name: string, more: Partial<Agent> = {}): Agent {
  return {
    id: `agent-${name.toLowerCase()}`,
    name,
    description: null,
    role: 'Writer',
    goal: 'Write',
    backstory: null,
    llmProvider: 'openai',
    llmModel: 'gpt-4o-mini',
    temperature: 70,
    maxTokens: 1000,
    systemPrompt: null,
    tools: [],
    status: 'active',
    templateCategory: null,
    templateTags: [],
    config: {},
    guardrails: {},
    memory: { enabled: false, connection: 'openai', model: 'text-embedding-3-small' },
    organizationId: runIds.organizationId,
    createdBy: null,
    createdAt: new Date(0).toISOString(),
    updatedAt: new Date(0).toISOString(),
    ...more,
  };
}
