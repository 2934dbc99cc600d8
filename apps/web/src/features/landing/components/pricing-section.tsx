import { Check, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

import { plans, type Plan } from '../content/landing-content';
import { SectionHeading } from './section-heading';

function PlanCard({ plan }: { plan: Plan }) {
  const titleId = `plan-${plan.id}-title`;
  return (
    <li
      className={cn(
        'relative flex flex-col rounded-2xl border bg-card p-6 text-card-foreground shadow-xs sm:p-8',
        plan.popular
          ? 'border-violet-500/60 shadow-xl shadow-violet-500/10 ring-1 ring-violet-500/40 lg:-my-4 lg:py-12 dark:border-violet-400/50'
          : 'border-border',
      )}
    >
      {plan.popular ? (
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-0 rounded-2xl bg-linear-to-b from-violet-500/[0.07] to-transparent"
        />
      ) : null}
      <div className="relative flex items-center justify-between gap-3">
        <h3 id={titleId} className="text-lg font-semibold text-foreground">
          {plan.name}
        </h3>
        {plan.popular ? (
          <Badge className="border-transparent bg-linear-to-r from-violet-600 to-indigo-500 text-white">
            Most Popular
          </Badge>
        ) : null}
      </div>
      <p className="relative mt-2 text-sm text-muted-foreground lg:min-h-10">{plan.description}</p>
      <p className="relative mt-6 flex items-baseline gap-1">
        <span className="text-5xl font-semibold tracking-tight text-foreground">${plan.price}</span>
        <span className="text-sm font-medium text-muted-foreground">/month</span>
      </p>
      <Button
        asChild
        size="lg"
        variant={plan.popular ? 'default' : 'outline'}
        className="relative mt-6 w-full"
      >
        <Link to={`/signup?plan=${plan.id}`}>Choose {plan.name}</Link>
      </Button>
      <p className="relative mt-3 text-center text-xs text-muted-foreground">14-day free trial included</p>
      <ul className="relative mt-8 space-y-3 border-t border-border pt-8 text-sm">
        {plan.features.map((feature) => (
          <li key={feature} className="flex gap-3">
            <Check
              className="mt-0.5 size-4 shrink-0 text-violet-600 dark:text-violet-400"
              aria-hidden="true"
            />
            <span className="text-foreground first-letter:uppercase">{feature}</span>
          </li>
        ))}
      </ul>
    </li>
  );
}

export function PricingSection() {
  return (
    <section
      id="pricing"
      aria-labelledby="pricing-title"
      className="scroll-mt-20 border-y border-border/60 bg-muted/30 py-20 sm:py-28"
    >
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          id="pricing-title"
          eyebrow="Pricing"
          title="Simple pricing for every team"
          description="Priced per organization, not per seat. Every plan starts with a 14-day free trial, and no credit card is needed."
        />

        <ul className="mx-auto mt-14 grid max-w-md gap-6 lg:mt-20 lg:max-w-none lg:grid-cols-3 lg:items-start">
          {plans.map((plan) => (
            <PlanCard key={plan.id} plan={plan} />
          ))}
        </ul>

        <p className="mt-12 flex flex-wrap items-center justify-center gap-x-2 gap-y-1 text-center text-sm text-muted-foreground">
          <ShieldCheck className="size-4 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
          <span>14-day free trial on all plans · No credit card needed · Save 20% with annual billing</span>
        </p>
      </div>
    </section>
  );
}
