// The parts of a list card's placeholder while the list loads (components/card-grid.tsx): the card
// itself, hidden from screen readers as the list is announced busy, and its row of two buttons.
import type { ReactNode } from 'react';

import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';

/** A placeholder card; `children` sketch the real card's heading and body. */
export function CardSkeleton({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <Card className="h-full gap-0 py-0" data-testid={testId} aria-hidden="true">
      {children}
    </Card>
  );
}

/** The two buttons at the foot of a card. */
export function CardActionsSkeleton() {
  return (
    <div className="grid grid-cols-2 gap-2 border-t px-5 py-3">
      <Skeleton className="h-8" />
      <Skeleton className="h-8" />
    </div>
  );
}
