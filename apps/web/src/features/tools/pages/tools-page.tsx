import { Wrench } from 'lucide-react';

import { ComingSoonPage } from '@/components/coming-soon';

export function ToolsPage() {
  return (
    <ComingSoonPage
      title="Tools"
      description="Create and manage agent-specific tools with unique configurations"
      icon={Wrench}
      heading="Tools are coming to this workspace soon"
      summary="Tools give your agents abilities beyond the model: search the web, call APIs, query databases, send email."
      upcoming={[
        'Create tools by category: web, API, database, file, communication and more',
        'Store credentials encrypted and write-only',
        'Connect LLM providers such as OpenAI and Anthropic',
        'Switch tools on or off per agent',
      ]}
    />
  );
}
