import { Quote } from 'lucide-react';

import { cn } from '@/lib/utils';

import { testimonials } from '../content/landing-content';
import { SectionHeading } from './section-heading';

export function TestimonialsSection() {
  return (
    <section aria-labelledby="testimonials-title" className="border-t border-border/60 py-20 sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          id="testimonials-title"
          eyebrow="Customers"
          title="Loved by teams who ship with agents"
        />
        <ul className="mt-14 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {testimonials.map((item) => (
            <li key={item.name} className="flex">
              <figure className="flex w-full flex-col rounded-2xl border border-border bg-card p-6 text-card-foreground shadow-xs sm:p-8">
                <Quote className="size-6 text-violet-500/70" aria-hidden="true" />
                <blockquote className="mt-4 flex-1 text-base leading-relaxed text-foreground">
                  <p>“{item.quote}”</p>
                </blockquote>
                <figcaption className="mt-6 flex items-center gap-3">
                  <span
                    aria-hidden="true"
                    className={cn(
                      'grid size-11 shrink-0 place-items-center rounded-full text-sm font-semibold',
                      item.avatarClass,
                    )}
                  >
                    {item.initials}
                  </span>
                  <span>
                    <span className="block text-sm font-semibold text-foreground">{item.name}</span>
                    <span className="block text-sm text-muted-foreground">{item.role}</span>
                  </span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
