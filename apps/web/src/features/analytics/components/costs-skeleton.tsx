import { StatCardGridSkeleton } from '@/components/stat-card';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';

const BAR_HEIGHTS = [45, 70, 30, 85, 60, 95, 50];

/** The Costs tab's shape while its code or its first figures load: three cards and the chart. */
export function CostsSkeleton() {
  return (
    <div className="space-y-6" aria-busy="true" aria-label="Loading costs">
      <StatCardGridSkeleton count={3} className="lg:grid-cols-3" />
      <Card>
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
    </div>
  );
}
