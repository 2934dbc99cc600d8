// The grid of cards a list page shows (agents, workflows, knowledge bases, runs): one column on a phone,
// two, then three as the page widens; its placeholder cards while the list loads, and what it says
// when the filters hide every card.
import { SearchX } from 'lucide-react';
import type { ComponentType, ReactNode } from 'react';

import { EmptyState } from '@/components/empty-state';

const CARD_GRID = 'grid gap-4 md:grid-cols-2 lg:grid-cols-3 lg:gap-5';

/** `count` placeholder cards, announced as loading under `label`. */
export function CardGridSkeleton({
  label,
  count,
  skeleton: Skeleton,
}: {
  label: string;
  count: number;
  skeleton: ComponentType;
}) {
  return (
    <div className={CARD_GRID} aria-busy="true" aria-label={label}>
      {Array.from({ length: count }, (_, i) => (
        <Skeleton key={i} />
      ))}
    </div>
  );
}

/**
 * A list of cards named `label`, one item each. min-w-0: a grid item would otherwise grow to its
 * longest word instead of letting the card truncate it.
 */
export function CardGrid<T extends { id: string }>({
  label,
  items,
  children,
}: {
  label: string;
  items: readonly T[];
  children: (item: T) => ReactNode;
}) {
  return (
    <ul className={CARD_GRID} aria-label={label}>
      {items.map((item) => (
        <li key={item.id} className="min-w-0">
          {children(item)}
        </li>
      ))}
    </ul>
  );
}

/** What a filtered list shows when its filters hide every item, e.g. 'No agents found'. */
export function NoMatchesState({ title }: { title: string }) {
  return (
    <EmptyState
      icon={SearchX}
      title={title}
      description="Try adjusting your filters to find what you're looking for"
      className="py-16"
    />
  );
}
