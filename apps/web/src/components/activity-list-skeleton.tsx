import { Skeleton } from '@/components/ui/skeleton';

/** Three placeholder rows (an icon and two lines) while a list of recent activity loads. */
export function ActivityListSkeleton() {
  return (
    <div className="space-y-4" aria-busy="true" aria-label="Loading activity">
      {Array.from({ length: 3 }, (_, i) => (
        <div key={i} className="flex gap-3">
          <Skeleton className="size-8 rounded-full" />
          <div className="flex-1 space-y-2">
            <Skeleton className="h-3.5 w-3/4" />
            <Skeleton className="h-3 w-1/3" />
          </div>
        </div>
      ))}
    </div>
  );
}
