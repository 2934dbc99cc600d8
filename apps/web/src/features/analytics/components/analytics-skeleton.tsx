import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';

import { MetricCardsSkeleton } from './metric-cards';

const BAR_HEIGHTS = [45, 70, 30, 85, 60, 95, 50];

/** The page's shape while its first figures load: cards, tabs, the chart and a side column. */
export function AnalyticsSkeleton() {
  return (
    <div className="space-y-6" aria-busy="true" aria-label="Loading analytics">
      <MetricCardsSkeleton />
      <Skeleton className="h-9 w-full rounded-lg sm:w-96" />
      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader className="space-y-2">
            <Skeleton className="h-5 w-40" />
            <Skeleton className="h-4 w-64 max-w-full" />
          </CardHeader>
          <CardContent className="flex h-52 items-end gap-2 sm:gap-4">
            {BAR_HEIGHTS.map((height, i) => (
              <Skeleton key={i} className="w-full max-w-12 flex-1" style={{ height: `${height}%` }} />
            ))}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <Skeleton className="h-5 w-32" />
          </CardHeader>
          <CardContent className="space-y-3">
            {Array.from({ length: 5 }, (_, i) => (
              <div key={i} className="flex items-center justify-between">
                <Skeleton className="h-4 w-28" />
                <Skeleton className="h-4 w-20" />
              </div>
            ))}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
