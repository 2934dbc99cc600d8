import { CircleCheck, Clock3, ShieldCheck, Sparkles, Workflow } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { Brand, BRAND_NAME } from '@/components/brand';
import { ThemeToggle } from '@/components/theme-toggle';

const highlights = [
  {
    icon: Workflow,
    text: 'Wire agents into sequential, hierarchical or parallel workflows on a visual canvas.',
  },
  { icon: Clock3, text: 'Run them by hand, on a schedule, from a webhook or from an incoming email.' },
  { icon: ShieldCheck, text: 'Review every run: which agent did what, its output, tokens and timing.' },
];

const steps = [
  { name: 'Researcher', detail: 'Collected 12 sources', done: true },
  { name: 'Writer', detail: 'Drafted 1,240 words', done: true },
  { name: 'Editor', detail: 'Reviewing draft…', done: false },
];

/** Split screen for sign-in and sign-up: product story on the left (large screens), form on the right. */
export function AuthLayout({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <div className="grid min-h-svh lg:grid-cols-[minmax(0,1fr)_minmax(0,1.05fr)]">
      <aside className="relative hidden overflow-hidden bg-linear-to-br from-violet-700 via-indigo-700 to-indigo-900 p-10 text-white lg:flex lg:flex-col">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -top-32 -right-32 size-96 rounded-full bg-fuchsia-400/25 blur-3xl"
        />
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -bottom-40 -left-24 size-96 rounded-full bg-sky-400/20 blur-3xl"
        />

        <Link
          to="/"
          className="relative w-fit rounded-md focus-visible:ring-2 focus-visible:ring-white/70 focus-visible:outline-none"
        >
          <Brand inverse />
        </Link>

        <div className="relative my-auto max-w-md space-y-8 py-12">
          <div className="space-y-3">
            <p className="inline-flex items-center gap-1.5 rounded-full bg-white/10 px-3 py-1 text-xs font-medium text-white/90 ring-1 ring-white/20">
              <Sparkles className="size-3.5" aria-hidden="true" />
              Multi-agent automation
            </p>
            <h2 className="text-3xl leading-tight font-semibold tracking-tight xl:text-4xl">
              Build AI agent teams that do real work.
            </h2>
            <p className="text-white/75">
              {BRAND_NAME} turns a handful of specialised agents into a crew: give each a role and a goal,
              connect them, and watch every run unfold.
            </p>
          </div>

          <ul className="space-y-4">
            {highlights.map(({ icon: Icon, text }) => (
              <li key={text} className="flex gap-3 text-sm text-white/85">
                <span className="grid size-8 shrink-0 place-items-center rounded-lg bg-white/10 ring-1 ring-white/15">
                  <Icon className="size-4" aria-hidden="true" />
                </span>
                <span className="pt-1.5">{text}</span>
              </li>
            ))}
          </ul>

          <div
            className="rounded-xl bg-white/10 p-4 ring-1 ring-white/15 backdrop-blur-sm"
            aria-hidden="true"
          >
            <div className="mb-3 flex items-center justify-between text-xs text-white/70">
              <span className="font-medium text-white">Content pipeline</span>
              <span className="inline-flex items-center gap-1.5">
                <span className="size-1.5 animate-pulse rounded-full bg-emerald-300" />
                Running
              </span>
            </div>
            <ol className="space-y-2">
              {steps.map((step) => (
                <li
                  key={step.name}
                  className="flex items-center gap-3 rounded-lg bg-white/5 px-3 py-2 text-sm"
                >
                  <CircleCheck className={step.done ? 'size-4 text-emerald-300' : 'size-4 text-white/40'} />
                  <span className="font-medium">{step.name}</span>
                  <span className="ml-auto text-xs text-white/60">{step.detail}</span>
                </li>
              ))}
            </ol>
          </div>
        </div>

        <p className="relative text-xs text-white/60">14-day free trial on every plan · Cancel anytime</p>
      </aside>

      <div className="flex min-h-svh flex-col bg-background">
        <div className="flex items-center justify-between p-4 sm:p-6">
          <Link
            to="/"
            className="rounded-md focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none lg:invisible"
          >
            <Brand />
          </Link>
          <ThemeToggle />
        </div>
        <main className="flex flex-1 items-center justify-center px-4 pb-12 sm:px-6">
          <div className="w-full max-w-md space-y-6">
            <div className="space-y-2 text-center sm:text-left">
              <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{title}</h1>
              <p className="text-sm text-muted-foreground">{description}</p>
            </div>
            {children}
          </div>
        </main>
      </div>
    </div>
  );
}
