import { Workflow } from 'lucide-react';

import { ComingSoonPage } from '@/components/coming-soon';

export function WorkflowNewPage() {
  return (
    <ComingSoonPage
      title="Create New Workflow"
      description="The visual workflow builder is coming to this workspace soon."
      icon={Workflow}
      heading="The workflow builder is on its way"
      summary="Soon you will drag agents onto a canvas, connect them and choose how they work together."
      upcoming={[
        'A canvas with Start and End nodes, zoom and fit view',
        'Add agents from your roster and connect them with arrows',
        'Sequential, hierarchical or parallel processes',
        'Manual, schedule, webhook or email triggers',
      ]}
    />
  );
}
