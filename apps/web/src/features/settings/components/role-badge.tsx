import { Crown, ShieldCheck, UserRound } from 'lucide-react';

import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

import { roleLabel } from '../team-permissions';

const styles: Record<string, string> = {
  owner: 'border-amber-500/30 bg-amber-500/10 text-amber-700 dark:text-amber-300',
  admin: 'border-primary/30 bg-primary/10 text-primary',
  member: 'text-muted-foreground',
};
const icons = { owner: Crown, admin: ShieldCheck, member: UserRound } as const;

export function RoleBadge({ role, className }: { role: string; className?: string }) {
  const Icon = icons[role as keyof typeof icons] ?? UserRound;
  return (
    <Badge variant="outline" className={cn('gap-1', styles[role], className)}>
      <Icon className="size-3" aria-hidden="true" />
      {roleLabel(role)}
    </Badge>
  );
}
