import type { Analytics } from '@crewline/contracts';

import { AgentUtilizationCard } from './agent-utilization-card';
import { TopAgentsCard } from './top-agents-card';

/** Agents: how much each agent works, and the busiest agents' success rates. */
export function AgentsTab({ analytics }: { analytics: Analytics }) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <AgentUtilizationCard agents={analytics.agents} />
      <TopAgentsCard agents={analytics.topAgents} />
    </div>
  );
}
