import { BarChart3, Bot, ChevronRight, LayoutTemplate, Workflow, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';

import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';

const actions: { label: string; href: string; icon: LucideIcon; tint: string }[] = [
  {
    label: 'Create New Agent',
    href: '/agents',
    icon: Bot,
    tint: 'bg-violet-500/10 text-violet-600 dark:text-violet-400',
  },
  {
    label: 'Build Workflow',
    href: '/workflows',
    icon: Workflow,
    tint: 'bg-indigo-500/10 text-indigo-600 dark:text-indigo-400',
  },
  {
    label: 'Browse Templates',
    href: '/templates',
    icon: LayoutTemplate,
    tint: 'bg-fuchsia-500/10 text-fuchsia-600 dark:text-fuchsia-400',
  },
  {
    label: 'View Analytics',
    href: '/analytics',
    icon: BarChart3,
    tint: 'bg-sky-500/10 text-sky-600 dark:text-sky-400',
  },
];

export function QuickActions() {
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle>Quick Actions</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-1 px-3">
        {actions.map(({ label, href, icon: Icon, tint }) => (
          <Link
            key={href}
            to={href}
            className="group flex items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium transition-colors hover:bg-muted focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
          >
            <span className={`grid size-8 place-items-center rounded-lg ${tint}`}>
              <Icon className="size-4" aria-hidden="true" />
            </span>
            {label}
            <ChevronRight
              className="ml-auto size-4 text-muted-foreground transition-transform group-hover:translate-x-0.5"
              aria-hidden="true"
            />
          </Link>
        ))}
      </CardContent>
    </Card>
  );
}
