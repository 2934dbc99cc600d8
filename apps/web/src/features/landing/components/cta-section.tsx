import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';

import { Button } from '@/components/ui/button';

import { TalkToSales } from '@/components/talk-to-sales-button';

export function CtaSection() {
  return (
    <section aria-labelledby="cta-title" className="px-4 pb-20 sm:px-6 sm:pb-28 lg:px-8">
      <div className="relative isolate mx-auto max-w-6xl overflow-hidden rounded-3xl bg-linear-to-br from-violet-600 via-indigo-600 to-sky-600 px-6 py-16 text-center text-white shadow-2xl shadow-indigo-500/20 sm:px-12 sm:py-20 dark:from-violet-700 dark:via-indigo-700 dark:to-sky-700">
        <div
          aria-hidden="true"
          className="absolute inset-0 -z-10 bg-[linear-gradient(to_right,rgb(255_255_255/0.08)_1px,transparent_1px),linear-gradient(to_bottom,rgb(255_255_255/0.08)_1px,transparent_1px)] bg-size-[40px_40px] mask-[radial-gradient(ellipse_at_center,black_20%,transparent_75%)]"
        />
        <h2
          id="cta-title"
          className="mx-auto max-w-2xl text-3xl font-semibold tracking-tight text-balance sm:text-4xl"
        >
          Put your first AI agent team to work today
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-lg text-pretty text-white/80">
          Build a crew in minutes, run it on real work and see every step. 14-day free trial, no credit card
          needed.
        </p>
        <div className="mt-8 flex flex-col items-stretch justify-center gap-3 sm:flex-row sm:items-center">
          <Button
            asChild
            size="lg"
            className="group h-11 bg-white px-6 text-base text-indigo-700 shadow-lg hover:bg-white/90"
          >
            <Link to="/dashboard">
              Start Free Trial
              <ArrowRight
                className="transition-transform group-hover:translate-x-0.5 motion-reduce:transition-none"
                aria-hidden="true"
              />
            </Link>
          </Button>
          <TalkToSales
            render={(open) => (
              <Button
                type="button"
                size="lg"
                variant="outline"
                onClick={open}
                className="h-11 border-white/40 bg-white/10 px-6 text-base text-white hover:bg-white/20 hover:text-white dark:border-white/40 dark:bg-white/10 dark:hover:bg-white/20"
              >
                Talk to Sales
              </Button>
            )}
          />
        </div>
      </div>
    </section>
  );
}
