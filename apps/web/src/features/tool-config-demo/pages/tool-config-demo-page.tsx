import { ArrowLeft, ArrowUpRight, Bot, Brain, Boxes, Info, Mail, type LucideIcon } from 'lucide-react';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { Link } from 'react-router';

import { PageContainer, PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useDocumentTitle } from '@/lib/use-document-title';

import { DemoToolCard } from '../components/demo-tool-card';
import { demoReducer, initialDemoState, startDemoTest } from '../demo-state';
import { DEMO_TABS, DEMO_TOOLS, type DemoToolId } from '../demo-tools';

/** Provider colours as in Settings: OpenAI blue, Anthropic purple, the others gray. */
const visuals: Record<DemoToolId, { icon: LucideIcon; tone: string }> = {
  openai: { icon: Bot, tone: 'bg-blue-500/10 text-blue-600 dark:text-blue-400' },
  anthropic: { icon: Brain, tone: 'bg-violet-500/10 text-violet-600 dark:text-violet-400' },
  pinecone: { icon: Boxes, tone: 'bg-slate-500/10 text-slate-600 dark:text-slate-300' },
  sendgrid: { icon: Mail, tone: 'bg-slate-500/10 text-slate-600 dark:text-slate-300' },
};

/**
 * A playground of tool configuration cards that runs entirely in the browser: nothing is sent to the
 * server, and everything is forgotten when the page is left. The app's top navigation is not shown
 * here, hence the way back.
 */
export function ToolConfigDemoPage() {
  useDocumentTitle('Tool Configuration Demo');
  const [state, dispatch] = useReducer(demoReducer, undefined, initialDemoState);

  // The pending end of each card's test, stopped when the page is left.
  const pendingTests = useRef(new Map<DemoToolId, () => void>());
  useEffect(() => {
    const pending = pendingTests.current;
    return () => {
      for (const stop of pending.values()) stop();
      pending.clear();
    };
  }, []);
  const onTest = useCallback((id: DemoToolId) => {
    pendingTests.current.get(id)?.();
    pendingTests.current.set(id, startDemoTest(dispatch, id));
  }, []);

  return (
    <PageContainer className="space-y-6 sm:space-y-8">
      <PageHeader
        title="Tool Configuration Demo"
        description="Try configuring, testing and switching tools on and off."
        actions={
          <Button asChild variant="outline">
            <Link to="/dashboard">
              <ArrowLeft aria-hidden="true" />
              Back to Dashboard
            </Link>
          </Button>
        }
      />

      <div className="flex flex-col gap-3 rounded-lg border border-primary/20 bg-primary/5 px-4 py-3 text-sm sm:flex-row sm:items-center sm:justify-between">
        <p className="flex items-start gap-2.5">
          <Info className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
          <span>
            A demo: what you enter stays on this page, nothing is sent anywhere, and it is forgotten when you
            leave. A test succeeds after two seconds when the saved values are valid.
          </span>
        </p>
        <Button asChild variant="link" size="sm" className="h-auto self-start px-0 sm:self-auto">
          <Link to="/settings/profile?tab=tools">
            Set up real connections
            <ArrowUpRight aria-hidden="true" />
          </Link>
        </Button>
      </div>

      <Tabs defaultValue={DEMO_TABS[0].id} className="gap-5">
        {/* On a phone the three tabs share the width, a long name on two lines rather than cut off. */}
        <TabsList className="grid h-auto w-full grid-cols-3 sm:inline-flex sm:h-9 sm:w-fit">
          {DEMO_TABS.map((tab) => (
            <TabsTrigger
              key={tab.id}
              value={tab.id}
              className="h-full px-1.5 py-1.5 leading-tight whitespace-normal sm:px-4 sm:py-1 sm:whitespace-nowrap"
            >
              {tab.label}
            </TabsTrigger>
          ))}
        </TabsList>

        {DEMO_TABS.map((tab) => (
          <TabsContent key={tab.id} value={tab.id} className="space-y-4">
            <p className="text-sm text-muted-foreground">{tab.description}</p>
            <div className="grid gap-4 lg:grid-cols-2">
              {DEMO_TOOLS.filter((tool) => tool.tab === tab.id).map((def) => (
                <DemoToolCard
                  key={def.id}
                  def={def}
                  card={state[def.id]}
                  icon={visuals[def.id].icon}
                  tone={visuals[def.id].tone}
                  dispatch={dispatch}
                  onTest={onTest}
                />
              ))}
            </div>
          </TabsContent>
        ))}
      </Tabs>
    </PageContainer>
  );
}
