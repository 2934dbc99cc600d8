import { ChevronRight } from 'lucide-react';

import { cn } from '@/lib/utils';

import { features, teamRoles, type Feature } from '../content/landing-content';
import { SectionHeading } from './section-heading';

function FeatureCard({ feature, featured = false }: { feature: Feature; featured?: boolean }) {
  const Icon = feature.icon;
  return (
    <li
      className={cn(
        'group relative overflow-hidden rounded-2xl border border-border bg-card p-6 text-card-foreground shadow-xs transition-shadow hover:shadow-md',
        featured && 'md:col-span-2',
      )}
    >
      {featured ? (
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -top-24 -right-24 size-64 rounded-full bg-violet-500/10 blur-3xl dark:bg-violet-500/15"
        />
      ) : null}
      <span className="grid size-11 place-items-center rounded-xl bg-linear-to-br from-violet-500/15 to-indigo-500/15 text-violet-700 ring-1 ring-violet-500/20 ring-inset dark:text-violet-300">
        <Icon className="size-5" aria-hidden="true" />
      </span>
      <h3 className="mt-5 text-lg font-semibold text-foreground">{feature.title}</h3>
      <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{feature.description}</p>
      {featured ? (
        <div className="mt-6 flex flex-wrap items-center gap-1.5">
          {teamRoles.map((role, index) => (
            <span key={role} className="inline-flex items-center gap-1.5">
              {index > 0 ? (
                <ChevronRight className="size-4 text-muted-foreground/60" aria-hidden="true" />
              ) : null}
              <span className="rounded-full border border-border bg-background px-3 py-1 text-xs font-medium text-foreground">
                {role}
              </span>
            </span>
          ))}
        </div>
      ) : null}
    </li>
  );
}

export function FeaturesSection() {
  return (
    <section id="features" aria-labelledby="features-title" className="scroll-mt-20 py-20 sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          id="features-title"
          eyebrow="Features"
          title="Everything you need to run an AI workforce"
          description="From a single helpful agent to a coordinated crew of specialists, Crewline gives you the building blocks, the canvas and the visibility."
        />
        <ul className="mt-14 grid gap-4 md:grid-cols-2 lg:grid-cols-4">
          {features.map((feature, index) => (
            <FeatureCard key={feature.title} feature={feature} featured={index === 0} />
          ))}
        </ul>
      </div>
    </section>
  );
}
