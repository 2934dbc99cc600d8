import { Bot, ChartLine, LayoutDashboard, LayoutTemplate, Search, Workflow } from 'lucide-react';

import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { cn } from '@/lib/utils';

import { platformPlaceholders } from '../content/landing-content';
import { PlatformOverview } from './platform-overview';
import { SectionHeading } from './section-heading';

const sidebarItems = [
  { label: 'Dashboard', icon: LayoutDashboard, active: true },
  { label: 'Agents', icon: Bot },
  { label: 'Workflows', icon: Workflow },
  { label: 'Templates', icon: LayoutTemplate },
  { label: 'Analytics', icon: ChartLine },
];

const placeholderTabs = [
  { value: 'agents', label: 'Agents', icon: Bot, text: platformPlaceholders.agents },
  { value: 'workflows', label: 'Workflows', icon: Workflow, text: platformPlaceholders.workflows },
  { value: 'analytics', label: 'Analytics', icon: ChartLine, text: platformPlaceholders.analytics },
] as const;

function MockSidebar() {
  return (
    <div aria-hidden="true" className="hidden w-52 shrink-0 border-r border-border bg-muted/30 p-3 lg:block">
      <div className="mb-3 flex items-center gap-2 rounded-md border border-border bg-background px-2.5 py-1.5 text-xs text-muted-foreground">
        <Search className="size-3.5" />
        Search
      </div>
      <ul className="space-y-0.5">
        {sidebarItems.map(({ label, icon: Icon, active }) => (
          <li
            key={label}
            className={cn(
              'flex items-center gap-2 rounded-md px-2.5 py-1.5 text-sm text-muted-foreground',
              active && 'bg-background font-medium text-foreground shadow-xs',
            )}
          >
            <Icon className="size-4" />
            {label}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function PlatformSection() {
  return (
    <section
      id="platform"
      aria-labelledby="platform-title"
      className="scroll-mt-20 border-y border-border/60 bg-muted/30 py-20 sm:py-28"
    >
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          id="platform-title"
          eyebrow="Platform"
          title="One control room for every agent and every run"
          description="See what your agents are doing right now, how your workflows perform and where to step in, all from a single dashboard."
        />

        <div className="relative mt-14">
          <div
            aria-hidden="true"
            className="absolute inset-x-10 -top-6 -bottom-6 -z-10 rounded-[2rem] bg-linear-to-r from-violet-500/15 via-indigo-500/10 to-sky-500/15 blur-3xl"
          />
          <div className="overflow-hidden rounded-2xl border border-border bg-background shadow-2xl shadow-indigo-500/5">
            <div className="flex items-center gap-4 border-b border-border bg-muted/40 px-4 py-3">
              <div className="flex gap-1.5" aria-hidden="true">
                <span className="size-3 rounded-full bg-red-400/80" />
                <span className="size-3 rounded-full bg-amber-400/80" />
                <span className="size-3 rounded-full bg-emerald-400/80" />
              </div>
              <p className="mx-auto hidden rounded-md border border-border bg-background px-3 py-1 text-xs text-muted-foreground sm:block">
                app.crewline.io/dashboard
              </p>
              <span className="w-12" aria-hidden="true" />
            </div>

            <div className="flex min-h-[28rem]">
              <MockSidebar />
              <Tabs defaultValue="overview" className="min-w-0 flex-1 gap-0 p-4 sm:p-6">
                <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
                  <div>
                    <p className="text-lg font-semibold text-foreground">Dashboard</p>
                    <p className="text-sm text-muted-foreground">Acme Inc. · Professional plan</p>
                  </div>
                  <div className="-mx-1 overflow-x-auto px-1 pb-1 sm:pb-0">
                    <TabsList>
                      <TabsTrigger value="overview">Overview</TabsTrigger>
                      {placeholderTabs.map((tab) => (
                        <TabsTrigger key={tab.value} value={tab.value}>
                          {tab.label}
                        </TabsTrigger>
                      ))}
                    </TabsList>
                  </div>
                </div>

                <TabsContent value="overview" className="mt-6">
                  <PlatformOverview />
                </TabsContent>
                {placeholderTabs.map(({ value, label, icon: Icon, text }) => (
                  <TabsContent key={value} value={value} className="mt-6">
                    <div className="grid min-h-80 place-items-center rounded-xl border border-dashed border-border p-8 text-center">
                      <div className="max-w-sm">
                        <span className="mx-auto grid size-12 place-items-center rounded-xl bg-muted text-muted-foreground">
                          <Icon className="size-6" aria-hidden="true" />
                        </span>
                        <p className="mt-4 font-semibold text-foreground">{label}</p>
                        <p className="mt-2 text-sm text-muted-foreground">{text}</p>
                        <p className="mt-4 text-xs font-medium text-violet-600 dark:text-violet-400">
                          Start a free trial to explore it.
                        </p>
                      </div>
                    </div>
                  </TabsContent>
                ))}
              </Tabs>
            </div>
          </div>
        </div>
      </div>
    </section>
  );
}
