// clsx rather than cn: none of these classes overrides another, and the first screen is drawn without
// tailwind-merge (first-screen-classes.ts).
import { clsx } from 'clsx';

import { heroStats, type HeroStat } from '../content/hero-content';
import { useCountUp } from '../hooks/use-count-up';

function formatStat(value: number, decimals: number) {
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

function StatItem({ stat, className }: { stat: HeroStat; className?: string }) {
  const decimals = stat.decimals ?? 0;
  const value = useCountUp(stat.value);
  const final = `${formatStat(stat.value, decimals)}${stat.suffix ?? ''}`;

  return (
    <div
      className={clsx('flex flex-col-reverse gap-1 border-border px-4 py-6 text-center sm:px-6', className)}
    >
      <dt className="text-sm text-muted-foreground">{stat.label}</dt>
      <dd className="text-3xl font-semibold tracking-tight text-foreground tabular-nums sm:text-4xl">
        <span aria-hidden="true">
          {formatStat(value, decimals)}
          {stat.suffix}
        </span>
        <span className="sr-only">{final}</span>
      </dd>
    </div>
  );
}

/** Marketing statistics that count up on mount. */
export function HeroStats() {
  return (
    <dl className="mt-16 grid grid-cols-2 overflow-hidden rounded-2xl border border-border bg-card/60 backdrop-blur lg:mt-20 lg:grid-cols-4">
      {heroStats.map((stat, index) => (
        <StatItem
          key={stat.label}
          stat={stat}
          className={clsx(
            index % 2 === 0 && 'border-r',
            index < 2 && 'border-b lg:border-b-0',
            index === 1 && 'lg:border-r',
          )}
        />
      ))}
    </dl>
  );
}
