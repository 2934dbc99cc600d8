import { Workflow } from 'lucide-react';
import { useParams } from 'react-router';

import { ComingSoonPage } from '@/components/coming-soon';

export function WorkflowEditPage() {
  const { id } = useParams();
  return (
    <ComingSoonPage
      title="Edit Workflow"
      description="Editing workflows in the visual builder is coming to this workspace soon."
      icon={Workflow}
      heading="The workflow builder is on its way"
      summary={`Workflow ${id ?? ''} will open here on the canvas, ready to change, validate and activate.`}
      upcoming={[
        'Rearrange agents and connections on the canvas',
        'Edit node properties, inputs and outputs',
        'Validate the graph before activating it',
        'Export the workflow as JSON',
      ]}
    />
  );
}
