import type { OrganizationBudget } from '@crewline/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';

import { formatCost } from '@/lib/format';
import { queryKeys } from '@/lib/queries/keys';
import { useOrganizationBudget } from '@/lib/queries/organization-budget';
import { useAuth } from '@/lib/session';
import { cn } from '@/lib/utils';

const COSTS_TAB = '/settings/profile?tab=costs';
const TOOLS_TAB = '/settings/profile?tab=tools';

const linkClass = 'font-medium whitespace-nowrap underline underline-offset-2';

/**
 * Above every signed-in page while the organization's monthly budget is at 80 % or spent, or the
 * plan's included model spend on Crewline's keys is used up (issue 37). Loaded after the first paint
 * (shell.tsx): the dashboard's first JavaScript has no room for it. Nothing while all is well.
 */
export function BudgetBanner() {
  const hasOrganization = !!useAuth().organization;
  const budget = useOrganizationBudget({ enabled: hasOrganization }).data;
  const { pathname } = useLocation();
  const queryClient = useQueryClient();

  // The shell stays mounted from page to page: a figure over a minute old is read again on the next one.
  useEffect(() => {
    void queryClient.refetchQueries(
      { queryKey: queryKeys.organizationBudget, stale: true, type: 'active' },
      // A read under way (the first, on mount) is the one wanted: not a second.
      { cancelRefetch: false },
    );
  }, [pathname, queryClient]);

  if (!hasOrganization || !budget) return null;
  const lines = bannerLines(budget);
  if (lines.length === 0) return null;
  return (
    <div data-testid="budget-banner">
      {lines.map(({ key, tone, text }) => (
        <div
          key={key}
          role={tone === 'exceeded' ? 'alert' : 'status'}
          data-state={tone}
          className={cn(
            'border-b px-4 py-2 text-center text-sm',
            tone === 'exceeded'
              ? 'bg-red-50 text-red-900 dark:bg-red-950/40 dark:text-red-100'
              : 'bg-amber-50 text-amber-900 dark:bg-amber-950/40 dark:text-amber-100',
          )}
        >
          {text}
        </div>
      ))}
    </div>
  );
}

type BannerLine = { key: string; tone: 'warning' | 'exceeded'; text: ReactNode };

/** The organization's cap at 80 % or spent, then the plan's included spend used up. */
function bannerLines(budget: OrganizationBudget): BannerLine[] {
  const lines: BannerLine[] = [];
  const spent = formatCost(budget.spentThisMonthUsd);
  const cap = budget.monthlyCapUsd;
  if (cap !== null && budget.state === 'exceeded') {
    lines.push({
      key: 'organization',
      tone: 'exceeded',
      text: (
        <>
          Your organization&apos;s monthly budget is spent ({spent} of {formatCost(cap)}). New runs and model
          calls are refused until next month or until an owner or admin raises it in{' '}
          <Link to={COSTS_TAB} className={linkClass}>
            Settings → Costs
          </Link>
          .
        </>
      ),
    });
  } else if (cap !== null && budget.state === 'warning') {
    lines.push({
      key: 'organization',
      tone: 'warning',
      text: `Your organization has spent ${spent} of its ${formatCost(cap)} monthly budget (80 % or more).`,
    });
  }
  const included = budget.includedSpend;
  if (included.capUsd !== null && included.state === 'exceeded') {
    lines.push({
      key: 'plan',
      tone: 'exceeded',
      text: (
        <>
          Your plan&apos;s included model spend on Crewline&apos;s keys is used up (
          {formatCost(included.spentUsd)} of {formatCost(included.capUsd)}). Add your own API key in{' '}
          <Link to={TOOLS_TAB} className={linkClass}>
            Settings → Tools
          </Link>
          , or{' '}
          <Link to="/subscribe" className={linkClass}>
            upgrade your plan
          </Link>
          .
        </>
      ),
    });
  }
  return lines;
}
