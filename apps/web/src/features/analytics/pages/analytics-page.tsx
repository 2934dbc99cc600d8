import { BarChart3 } from 'lucide-react';

import { ComingSoonPage } from '@/components/coming-soon';

export function AnalyticsPage() {
  return (
    <ComingSoonPage
      title="Analytics"
      description="Detailed analytics are coming to this workspace soon."
      icon={BarChart3}
      heading="Analytics are on their way"
      summary="Follow how your agents and workflows perform over time. Your headline figures are already on the dashboard."
      upcoming={[
        'Success rate, execution time and volume over 24 hours to 90 days',
        'Agent utilization and top performing agents',
        'Per-workflow performance and token usage',
        'System health at a glance',
      ]}
    />
  );
}
