import { LayoutTemplate } from 'lucide-react';

import { ComingSoonPage } from '@/components/coming-soon';

export function TemplatesPage() {
  return (
    <ComingSoonPage
      title="Template Marketplace"
      description="Ready-made workflow and agent templates are coming to this workspace soon."
      icon={LayoutTemplate}
      heading="The template marketplace is on its way"
      summary="Start from proven agent teams instead of a blank canvas, then adapt them to your business."
      upcoming={[
        'Workflow templates and agent templates',
        'Categories: Content Marketing, Customer Service, Email Marketing, Business Intelligence',
        'Search and sort by rating, popularity or recency',
        'Use a template to create a workflow or agent in one click',
      ]}
    />
  );
}
