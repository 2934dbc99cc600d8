import { SlidersHorizontal } from 'lucide-react';

import { ComingSoonPage } from '@/components/coming-soon';

export function ToolConfigDemoPage() {
  return (
    <ComingSoonPage
      title="Tool Configuration Demo"
      description="The tool configuration demo is coming to this workspace soon."
      icon={SlidersHorizontal}
      heading="The configuration demo is on its way"
      summary="A local playground to try out tool configuration cards without touching your real settings."
      upcoming={[
        'LLM Connections, Specialist Tools and Infrastructure tabs',
        'Edit, save, cancel and test each card',
        'Toggle tools on and off',
        'Runs entirely in your browser',
      ]}
    />
  );
}
