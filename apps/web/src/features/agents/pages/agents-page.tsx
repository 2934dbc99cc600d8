import { Bot } from 'lucide-react';

import { ComingSoonPage } from '@/components/coming-soon';

export function AgentsPage() {
  return (
    <ComingSoonPage
      title="AI Agents"
      description="Agent management is coming to this workspace soon."
      icon={Bot}
      heading="Your agent roster is on its way"
      summary="Soon you will create the agents of your crew here, tune their models and test them before they join a workflow."
      upcoming={[
        'Create agents with a role, a goal, a backstory and a system prompt',
        'Pick the provider and model, temperature and token limit',
        'Connect tools and test an agent with one click',
        'Search and filter by status and provider',
      ]}
    />
  );
}
