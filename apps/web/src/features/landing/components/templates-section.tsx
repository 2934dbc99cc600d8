import { ArrowRight, GitBranch, Star, Users, Zap } from 'lucide-react';
import { useState } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';
import { cn } from '@/lib/utils';

import { templateCategories, templates, type TemplatePreview } from '../content/landing-content';
import { SectionHeading } from './section-heading';

type Category = (typeof templateCategories)[number];

function TemplateCard({ template }: { template: TemplatePreview }) {
  return (
    <li className="flex">
      <Card className="flex w-full flex-col transition-shadow hover:shadow-md">
        <CardHeader>
          <div className="flex flex-wrap items-center gap-2">
            <Badge variant="secondary">{template.category}</Badge>
            <Badge variant="outline" className="gap-1">
              <GitBranch className="size-3" aria-hidden="true" />
              {template.flowType}
            </Badge>
          </div>
          <h3 className="mt-3 text-lg leading-snug font-semibold text-card-foreground">{template.title}</h3>
          <CardDescription>{template.description}</CardDescription>
        </CardHeader>
        <CardContent className="mt-auto">
          <dl className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-muted-foreground">
            <div>
              <dt className="sr-only">Agents</dt>
              <dd className="inline-flex items-center gap-1.5">
                <Users className="size-4" aria-hidden="true" />
                {template.agents} agents
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
                {template.uses} uses
              </dd>
            </div>
          </dl>
        </CardContent>
        <CardFooter>
          <Button type="button" variant="outline" className="w-full">
            Use Template
          </Button>
        </CardFooter>
      </Card>
    </li>
  );
}

export function TemplatesSection() {
  const [category, setCategory] = useState<Category>('All');

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
          {templateCategories.map((item) => {
            const selected = item === category;
            return (
              <button
                key={item}
                type="button"
                aria-pressed={selected}
                onClick={() => setCategory(item)}
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

        <ul className="mt-10 grid gap-5 md:grid-cols-2 lg:grid-cols-3">
          {templates.map((template) => (
            <TemplateCard key={template.title} template={template} />
          ))}
        </ul>

        <div className="mt-12 flex justify-center">
          <Button type="button" variant="secondary" size="lg" className="group">
            Browse All Templates
            <ArrowRight
              className="transition-transform group-hover:translate-x-0.5 motion-reduce:transition-none"
              aria-hidden="true"
            />
          </Button>
        </div>
      </div>
    </section>
  );
}
