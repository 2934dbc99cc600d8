import { Bot } from 'lucide-react';
import { useParams } from 'react-router';

import { ComingSoonPage } from '@/components/coming-soon';

export function AgentEditPage() {
  const { id } = useParams();
  return (
    <ComingSoonPage
      title="Edit Agent"
      description="Editing agents is coming to this workspace soon."
      icon={Bot}
      heading="The agent editor is on its way"
      summary={`Agent ${id ?? ''} will open here with its basic info, LLM settings, tools and advanced options.`}
      upcoming={[
        'Basic Info: name, role, goal and backstory',
        'LLM Settings: provider, model, temperature and max tokens',
        'Tools: connect, configure and switch tools on or off',
        'Advanced: system prompt and template tags',
      ]}
    />
  );
}
