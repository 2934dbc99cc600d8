import type { WorkflowTemplate } from '@crewline/contracts';
import { Flame, Heart, Star, type LucideIcon } from 'lucide-react';

import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';

import { type FeaturedTemplates } from '../template-library';
import { agentCountLabel, usageLabel } from '../template-texts';
import { CategoryIcon } from './template-cards';

const PICKS: {
  key: keyof FeaturedTemplates;
  label: string;
  icon: LucideIcon;
  accent: string;
  glow: string;
}[] = [
  {
    key: 'mostPopular',
    label: 'Most Popular',
    icon: Flame,
    accent: 'text-orange-600 dark:text-orange-400',
    glow: 'from-orange-500/10 dark:from-orange-500/15',
  },
  {
    key: 'highestRated',
    label: 'Highest Rated',
    icon: Star,
    accent: 'text-amber-600 dark:text-amber-400',
    glow: 'from-amber-500/10 dark:from-amber-500/15',
  },
  {
    key: 'teamFavorite',
    label: 'Team Favorite',
    icon: Heart,
    accent: 'text-rose-600 dark:text-rose-400',
    glow: 'from-rose-500/10 dark:from-rose-500/15',
  },
];

const STRIP =
  '-mx-4 flex snap-x snap-mandatory scroll-px-4 gap-3 overflow-x-auto px-4 pb-1 [scrollbar-width:none] sm:mx-0 sm:grid sm:grid-cols-3 sm:overflow-visible sm:px-0 sm:pb-0';
const ITEM = 'w-[78%] max-w-80 shrink-0 snap-start sm:w-auto sm:max-w-none';

/** The featured strip: three workflow templates picked from real usage; each opens its preview. */
export function FeaturedTemplatesStrip({
  featured,
  onPreview,
}: {
  featured: FeaturedTemplates;
  onPreview: (template: WorkflowTemplate) => void;
}) {
  const picks = PICKS.filter((pick) => featured[pick.key]);
  if (picks.length === 0) return null;
  return (
    <section aria-label="Featured templates">
      <ul className={STRIP}>
        {picks.map(({ key, label, icon: Icon, accent, glow }) => {
          const template = featured[key]!;
          return (
            <li key={key} className={ITEM}>
              <button
                type="button"
                onClick={() => onPreview(template)}
                data-testid={`featured-${key}`}
                className={cn(
                  'group flex h-full w-full flex-col gap-3 rounded-xl border bg-card bg-linear-to-br to-transparent to-60% p-4 text-left shadow-xs transition-[border-color,box-shadow] outline-none hover:border-primary/30 hover:shadow-md focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50',
                  glow,
                )}
              >
                <span
                  className={cn(
                    'flex items-center gap-1.5 text-xs font-semibold tracking-wide uppercase',
                    accent,
                  )}
                >
                  <Icon className="size-3.5 fill-current" aria-hidden="true" />
                  {label}
                </span>
                <span className="flex min-w-0 items-center gap-3">
                  <CategoryIcon category={template.category} className="size-9" />
                  <span className="min-w-0">
                    <span className="block truncate font-semibold group-hover:text-primary">
                      {template.name}
                    </span>
                    <span className="block truncate text-xs text-muted-foreground">
                      {template.category} · {agentCountLabel(template.agents.length)} ·{' '}
                      {usageLabel(template.usageCount)}
                    </span>
                  </span>
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function FeaturedTemplatesSkeleton() {
  return (
    <div className={STRIP} aria-hidden="true">
      {PICKS.map((pick) => (
        <div key={pick.key} className={cn(ITEM, 'space-y-3 rounded-xl border bg-card p-4')}>
          <Skeleton className="h-3 w-24" />
          <div className="flex items-center gap-3">
            <Skeleton className="size-9 rounded-lg" />
            <div className="flex-1 space-y-2">
              <Skeleton className="h-4 w-3/4" />
              <Skeleton className="h-3 w-1/2" />
            </div>
          </div>
        </div>
      ))}
    </div>
  );
}
