// Each category's icon and colour on the cards and in the previews; any other category (an
// organization's own) gets the neutral template look.
import {
  CalendarClock,
  ChartColumn,
  GitFork,
  Hand,
  Headset,
  LayoutTemplate,
  ListOrdered,
  Mail,
  Network,
  PenLine,
  Webhook,
  type LucideIcon,
} from 'lucide-react';

import type { WorkflowTemplate } from '@crewline/contracts';

const CATEGORY_VISUALS: Record<string, { icon: LucideIcon; tone: string }> = {
  'Content Marketing': {
    icon: PenLine,
    tone: 'bg-violet-500/10 text-violet-600 dark:bg-violet-500/15 dark:text-violet-300',
  },
  'Customer Service': {
    icon: Headset,
    tone: 'bg-sky-500/10 text-sky-600 dark:bg-sky-500/15 dark:text-sky-300',
  },
  'Email Marketing': {
    icon: Mail,
    tone: 'bg-amber-500/10 text-amber-600 dark:bg-amber-500/15 dark:text-amber-300',
  },
  'Business Intelligence': {
    icon: ChartColumn,
    tone: 'bg-emerald-500/10 text-emerald-600 dark:bg-emerald-500/15 dark:text-emerald-300',
  },
};

const OTHER = { icon: LayoutTemplate, tone: 'bg-primary/10 text-primary dark:bg-primary/15' };

export function categoryVisual(category: string): { icon: LucideIcon; tone: string } {
  return CATEGORY_VISUALS[category] ?? OTHER;
}

export const PROCESS_ICONS: Record<WorkflowTemplate['processType'], LucideIcon> = {
  sequential: ListOrdered,
  hierarchical: Network,
  parallel: GitFork,
};

export const TRIGGER_ICONS: Record<WorkflowTemplate['triggerType'], LucideIcon> = {
  manual: Hand,
  schedule: CalendarClock,
  webhook: Webhook,
  email: Mail,
};
