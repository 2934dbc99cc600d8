import { ArrowRight, Sparkles } from 'lucide-react';
import { Link } from 'react-router';

import { firstScreenClasses } from '../first-screen-classes';
import { HeroStats } from './hero-stats';
import { HeroWorkflowCard } from './hero-workflow-card';

export function HeroSection() {
  return (
    <section aria-labelledby="hero-title" className="relative isolate overflow-hidden">
      <div aria-hidden="true" className="pointer-events-none absolute inset-0 -z-10">
        <div className="absolute inset-0 bg-[linear-gradient(to_right,var(--color-border)_1px,transparent_1px),linear-gradient(to_bottom,var(--color-border)_1px,transparent_1px)] bg-size-[56px_56px] opacity-60 mask-[radial-gradient(ellipse_70%_60%_at_50%_0%,black_30%,transparent_100%)] dark:opacity-40" />
        <div className="absolute -top-48 left-1/2 h-[36rem] w-[72rem] max-w-[200vw] -translate-x-1/2 rounded-full bg-linear-to-r from-violet-400/25 via-indigo-400/20 to-sky-400/25 blur-3xl dark:from-violet-600/25 dark:via-indigo-600/20 dark:to-sky-600/15" />
      </div>

      <div className="mx-auto max-w-7xl px-4 pt-14 pb-16 sm:px-6 sm:pt-20 lg:px-8 lg:pt-24 lg:pb-24">
        <div className="grid grid-cols-1 items-center gap-14 lg:grid-cols-[1.05fr_0.95fr] lg:gap-16">
          <div className="text-center lg:text-left">
            <p className="inline-flex items-center gap-2 rounded-full border border-border bg-background/70 px-3 py-1 text-xs font-medium text-muted-foreground shadow-xs backdrop-blur sm:text-sm">
              <Sparkles className="size-3.5 text-violet-600 dark:text-violet-400" aria-hidden="true" />
              New: trigger workflows from webhooks and email
            </p>
            <h1
              id="hero-title"
              className="mt-6 text-4xl font-semibold tracking-tight text-balance text-foreground sm:text-5xl lg:text-6xl"
            >
              Build AI agent teams{' '}
              <span className="bg-linear-to-r from-violet-600 via-indigo-500 to-sky-500 bg-clip-text text-transparent dark:from-violet-400 dark:via-indigo-300 dark:to-sky-300">
                that get real work done
              </span>
            </h1>
            <p className="mx-auto mt-6 max-w-xl text-lg text-pretty text-muted-foreground lg:mx-0">
              Give every agent a role, a goal and the right model, wire them into multi-agent workflows on a
              visual canvas, and review every run step by step. Your first crew is live in minutes.
            </p>
            <div className="mt-8 flex flex-col items-stretch justify-center gap-3 sm:flex-row sm:items-center lg:justify-start">
              <Link to="/signup" data-slot="button" className={firstScreenClasses.heroPrimary}>
                Start Building Agents
                <ArrowRight
                  className="transition-transform group-hover:translate-x-0.5 motion-reduce:transition-none"
                  aria-hidden="true"
                />
              </Link>
              <a href="#platform" data-slot="button" className={firstScreenClasses.heroSecondary}>
                See the platform
              </a>
            </div>
            <p className="mt-4 text-sm text-muted-foreground">14-day free trial · No credit card needed</p>
          </div>

          <HeroWorkflowCard />
        </div>

        <HeroStats />
      </div>
    </section>
  );
}
