import { Brain, Puzzle, Server, Sparkles, type LucideIcon } from 'lucide-react';

import { cn } from '@/lib/utils';

import { providerLabel, providerTone, type ProviderTone } from '../agent-display';

const ICONS: Record<string, LucideIcon> = { openai: Sparkles, anthropic: Brain, local: Server };

/** Provider colours (docs/product-rules.md): openai blue, anthropic purple, local green, other gray. */
const TONE_CLASSES: Record<ProviderTone, string> = {
  blue: 'bg-blue-500/10 text-blue-600 dark:text-blue-400',
  purple: 'bg-purple-500/10 text-purple-600 dark:text-purple-400',
  green: 'bg-emerald-500/10 text-emerald-600 dark:text-emerald-400',
  gray: 'bg-muted text-muted-foreground',
};

const TEXT_CLASSES: Record<ProviderTone, string> = {
  blue: 'text-blue-700 dark:text-blue-400',
  purple: 'text-purple-700 dark:text-purple-400',
  green: 'text-emerald-700 dark:text-emerald-400',
  gray: 'text-muted-foreground',
};

/** The provider's icon on a tinted tile. */
export function ProviderIcon({ provider, className }: { provider: string; className?: string }) {
  const Icon = ICONS[provider] ?? Puzzle;
  return (
    <span
      aria-hidden="true"
      className={cn(
        'grid size-6 shrink-0 place-items-center rounded-md',
        TONE_CLASSES[providerTone(provider)],
        className,
      )}
    >
      <Icon className="size-3.5" />
    </span>
  );
}

/** Icon + provider name in the provider's colour. */
export function ProviderLabel({ provider, className }: { provider: string; className?: string }) {
  return (
    <span
      className={cn('inline-flex min-w-0 items-center gap-1.5 text-sm font-medium', className)}
      data-provider={provider}
      data-tone={providerTone(provider)}
    >
      <ProviderIcon provider={provider} />
      <span className={cn('truncate', TEXT_CLASSES[providerTone(provider)])}>{providerLabel(provider)}</span>
    </span>
  );
}
