import type { TemplateLibraryResponse } from '@crewline/contracts';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { ArrowRight, CalendarClock, GitBranch, Radio, Star, Users, Zap } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { queryClient } from '@/lib/query-client';
import { queryKeys } from '@/lib/queries/keys';
import { cn } from '@/lib/utils';

import { templates } from '../content/landing-content';
import {
  ALL_TEMPLATES,
  LANDING_TEMPLATE_COUNT,
  templateCards,
  type TemplateCardData,
} from '../template-cards';
import { SectionHeading } from './section-heading';

/** The library changes only when templates are used; a visit reads it once. */
const LIBRARY_STALE_TIME = 5 * 60_000;

function TemplateCard({ template }: { template: TemplateCardData }) {
  const titleId = useId();
  return (
    <li className="flex">
      <Card
        role="article"
        aria-labelledby={titleId}
        data-testid="landing-template-card"
        className="flex w-full flex-col transition-shadow hover:shadow-md"
      >
        <CardHeader>
          <div className="flex flex-wrap items-center gap-2">
            <Badge variant="secondary">{template.category}</Badge>
            <Badge variant="outline" className="gap-1">
              <GitBranch className="size-3" aria-hidden="true" />
              {template.flowType}
            </Badge>
          </div>
          <h3 id={titleId} className="mt-3 text-lg leading-snug font-semibold text-card-foreground">
            {template.title}
          </h3>
          <CardDescription className="line-clamp-3">{template.description}</CardDescription>
        </CardHeader>
        <CardContent className="mt-auto">
          <dl className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-muted-foreground">
            <div>
              <dt className="sr-only">Agents</dt>
              <dd className="inline-flex items-center gap-1.5">
                <Users className="size-4" aria-hidden="true" />
                {template.agents} {template.agents === 1 ? 'agent' : 'agents'}
              </dd>
            </div>
            <div>
              <dt className="sr-only">Rating</dt>
              <dd className="inline-flex items-center gap-1.5 font-medium text-foreground">
                <Star className="size-4 fill-amber-400 text-amber-400" aria-hidden="true" />
                {template.rating.toFixed(1)}
              </dd>
            </div>
            <div>
              <dt className="sr-only">Uses</dt>
              <dd className="inline-flex items-center gap-1.5">
                <Zap className="size-4" aria-hidden="true" />
                {template.uses}
              </dd>
            </div>
            {template.trigger && (
              <div>
                <dt className="sr-only">Trigger</dt>
                <dd className="inline-flex items-center gap-1.5" data-testid="landing-template-trigger">
                  {template.trigger === 'Scheduled' ? (
                    <CalendarClock className="size-4" aria-hidden="true" />
                  ) : (
                    <Radio className="size-4" aria-hidden="true" />
                  )}
                  {template.trigger}
                </dd>
              </div>
            )}
          </dl>
        </CardContent>
        <CardFooter>
          {/* Using a template needs an account: sign up (or sign in), then the template opens. */}
          <Button asChild variant="outline" className="w-full">
            <Link to={template.useHref} aria-describedby={titleId}>
              Use Template
            </Link>
          </Button>
        </CardFooter>
      </Card>
    </li>
  );
}

/** The shape of a card while the library loads. */
function TemplateCardSkeleton() {
  return (
    <li className="flex" aria-hidden="true">
      <Card className="flex w-full flex-col">
        <CardHeader>
          <div className="flex gap-2">
            <Skeleton className="h-5 w-28 rounded-full" />
            <Skeleton className="h-5 w-24 rounded-full" />
          </div>
          <Skeleton className="mt-3 h-6 w-3/4" />
          <div className="space-y-2 pt-1">
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-2/3" />
          </div>
        </CardHeader>
        <CardContent className="mt-auto">
          <div className="flex gap-4">
            <Skeleton className="h-4 w-20" />
            <Skeleton className="h-4 w-10" />
            <Skeleton className="h-4 w-16" />
          </div>
        </CardContent>
        <CardFooter>
          <Skeleton className="h-9 w-full" />
        </CardFooter>
      </Card>
    </li>
  );
}

/**
 * On a visit that starts signed out the landing page is drawn without the app's providers
 * (app/router.tsx), so the section brings the app's query client along for the one read it makes.
 */
export function TemplatesSection() {
  return (
    <QueryClientProvider client={queryClient}>
      <TemplatesSectionContent />
    </QueryClientProvider>
  );
}

function TemplatesSectionContent() {
  const [chosen, setChosen] = useState<string>(ALL_TEMPLATES);
  // Public: the shipped library's most used workflows (the static previews if it cannot be read).
  const library = useQuery<TemplateLibraryResponse>({
    queryKey: queryKeys.templates.library,
    staleTime: LIBRARY_STALE_TIME,
  });
  const shown = templateCards(library, templates, chosen);
  const cards = shown === 'loading' ? 'loading' : shown.cards;
  const category = shown === 'loading' ? ALL_TEMPLATES : shown.category;
  const chips = shown === 'loading' ? [ALL_TEMPLATES] : shown.chips;

  return (
    <section id="templates" aria-labelledby="templates-title" className="scroll-mt-20 py-20 sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          id="templates-title"
          eyebrow="Template marketplace"
          title="Start from a proven crew"
          description="Launch in minutes with ready-made multi-agent workflows built for real business processes, then adapt them to your team."
        />

        <div
          role="group"
          aria-label="Template categories"
          className="mt-10 flex flex-wrap justify-center gap-2"
        >
          {chips.map((item) => {
            const selected = item === category;
            return (
              <button
                key={item}
                type="button"
                aria-pressed={selected}
                onClick={() => setChosen(item)}
                className={cn(
                  'rounded-full border px-4 py-1.5 text-sm font-medium transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background focus-visible:outline-none',
                  selected
                    ? 'border-primary bg-primary text-primary-foreground shadow-sm'
                    : 'border-border bg-background text-muted-foreground hover:bg-muted hover:text-foreground',
                )}
              >
                {item}
              </button>
            );
          })}
        </div>

        <ul
          aria-label="Templates"
          aria-busy={cards === 'loading'}
          className="mt-10 grid gap-5 md:grid-cols-2 lg:grid-cols-3"
        >
          {cards === 'loading'
            ? Array.from({ length: LANDING_TEMPLATE_COUNT }, (_, i) => <TemplateCardSkeleton key={i} />)
            : cards.map((template) => <TemplateCard key={template.key} template={template} />)}
        </ul>
        {cards === 'loading' && (
          <p role="status" className="sr-only">
            Loading templates
          </p>
        )}

        <div className="mt-12 flex justify-center">
          <Button asChild variant="secondary" size="lg" className="group">
            <Link to="/templates">
              Browse All Templates
              <ArrowRight
                className="transition-transform group-hover:translate-x-0.5 motion-reduce:transition-none"
                aria-hidden="true"
              />
            </Link>
          </Button>
        </div>
      </div>
    </section>
  );
}
