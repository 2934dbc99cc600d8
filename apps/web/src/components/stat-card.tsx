import type { LucideIcon } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';

import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';

/** One headline figure (dashboard, analytics): title, tinted icon, big value and a detail line. */
export function StatCard({
  title,
  icon: Icon,
  value,
  children,
  accent,
  className,
  ...props
}: Omit<ComponentProps<'div'>, 'title'> & {
  title: string;
  icon: LucideIcon;
  value: ReactNode;
  children?: ReactNode;
  /** Background and text colour of the icon's tile. */
  accent: string;
}) {
  return (
    <Card className={cn('gap-3 py-4 sm:py-5', className)} {...props}>
      <CardHeader className="flex flex-row items-center justify-between gap-2 px-4 sm:px-5">
        <CardTitle className="text-sm leading-tight font-medium text-muted-foreground">{title}</CardTitle>
        <span className={`grid size-8 shrink-0 place-items-center rounded-lg ${accent}`}>
          <Icon className="size-4" aria-hidden="true" />
        </span>
      </CardHeader>
      <CardContent className="space-y-2 px-4 sm:px-5">
        <p
          className="text-2xl font-semibold tracking-tight tabular-nums sm:text-3xl"
          data-testid="stat-value"
        >
          {value}
        </p>
        {children}
      </CardContent>
    </Card>
  );
}

function StatCardSkeleton() {
  return (
    <Card className="gap-3 py-4 sm:py-5" data-testid="stat-skeleton">
      <CardHeader className="flex flex-row items-center justify-between px-4 sm:px-5">
        <Skeleton className="h-4 w-24" />
        <Skeleton className="size-8 rounded-lg" />
      </CardHeader>
      <CardContent className="space-y-3 px-4 sm:px-5">
        <Skeleton className="h-8 w-16" />
        <Skeleton className="h-5 w-20" />
      </CardContent>
    </Card>
  );
}

/** The row of four stat cards (two per row on a phone). */
export function StatCardGrid({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4', className)} {...props} />;
}

/** Placeholder stat cards (four unless told) while the figures load. */
export function StatCardGridSkeleton({ count = 4, ...props }: ComponentProps<'div'> & { count?: number }) {
  return (
    <StatCardGrid aria-busy="true" {...props}>
      {Array.from({ length: count }, (_, i) => (
        <StatCardSkeleton key={i} />
      ))}
    </StatCardGrid>
  );
}
