import { Workflow } from 'lucide-react';

import { ComingSoonPage } from '@/components/coming-soon';

export function WorkflowsPage() {
  return (
    <ComingSoonPage
      title="Workflows"
      description="Build and manage multi-agent automation workflows"
      icon={Workflow}
      heading="Workflows are coming to this workspace soon"
      summary="This is where your workflows and their executions will be listed, filtered, run and reviewed."
      upcoming={[
        'Search workflows and filter them by status and process type',
        'Activate drafts and execute workflows with runtime instructions and parameters',
        'Follow every execution live: status, duration, output and errors',
        'Download the results of a run as JSON',
      ]}
    />
  );
}
