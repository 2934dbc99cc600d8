import type { Agent } from '@crewline/contracts';
import { Bot, FlaskConical, LayoutTemplate, Save } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { useParams } from 'react-router';

import { BackLink, NotFoundPage } from '@/components/not-found-page';
import { LoadErrorState } from '@/components/empty-state';
import { PageContainer } from '@/components/page-header';
import { SaveAsTemplateDialog } from '@/components/save-as-template-dialog';
import { Spinner } from '@/components/spinner';
import { StatusBadge, type StatusTone } from '@/components/status-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import { isApiStatus } from '@/lib/api';
import { formatDateTime, formatRelativeTime } from '@/lib/format';
import { useAgent } from '@/lib/queries/agents';
import { useDocumentTitle } from '@/lib/use-document-title';

import {
  agentStatusDisplay,
  displayMaxTokens,
  displayTemperature,
  type AgentStatusDisplay,
} from '../agent-display';
import { agentToFormValues } from '../agent-form-values';
import { useTestAgent, useUpdateAgent } from '../api/agents';
import { AgentForm } from '../components/agent-form';
import { SavedAgentKnowledge } from '../components/agent-knowledge-section';
import { AgentMemoriesPanel } from '../components/agent-memories-panel';
import { ConnectedToolsPanel } from '../components/connected-tools-panel';
import { ProviderLabel } from '../components/provider-icon';

const FORM_ID = 'edit-agent-form';

const STATUS_TONE: Record<AgentStatusDisplay, StatusTone> = {
  active: 'green',
  busy: 'blue',
  error: 'red',
  inactive: 'gray',
};

function BackToAgents() {
  return <BackLink to="/agents" label="Back to Agents" />;
}

function AgentNotFound() {
  return <NotFoundPage title="Agent Not Found" item="agent" backTo="/agents" backLabel="Back to Agents" />;
}

function EditSkeleton() {
  return (
    <PageContainer className="space-y-6">
      <div role="status" aria-label="Loading agent" className="space-y-6">
        <Skeleton className="h-8 w-36" />
        <div className="flex items-center gap-3">
          <Skeleton className="size-12 rounded-xl" />
          <div className="space-y-2">
            <Skeleton className="h-7 w-56" />
            <Skeleton className="h-4 w-40" />
          </div>
        </div>
        <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
          <Skeleton className="h-[30rem] rounded-xl" />
          <Skeleton className="h-72 rounded-xl" />
        </div>
      </div>
    </PageContainer>
  );
}

function SummaryRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-4 py-2.5 text-sm">
      <dt className="shrink-0 text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-right">{children}</dd>
    </div>
  );
}

function AgentSummary({ agent }: { agent: Agent }) {
  const testAgent = useTestAgent();
  const temperature = displayTemperature(agent.temperature);

  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle className="text-base">Overview</CardTitle>
        <CardDescription>The saved settings of this agent.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <dl className="divide-y">
          <SummaryRow label="Provider">
            <ProviderLabel provider={agent.llmProvider} className="justify-end" />
          </SummaryRow>
          <SummaryRow label="Model">
            <span className="block truncate font-mono text-[13px]" title={agent.llmModel}>
              {agent.llmModel}
            </span>
          </SummaryRow>
          <SummaryRow label="Temperature">
            <span className="flex items-center gap-2">
              <Progress value={temperature} aria-label="Saved temperature" className="h-1.5 w-20" />
              <span className="w-9 text-xs font-medium tabular-nums">{temperature}%</span>
            </span>
          </SummaryRow>
          <SummaryRow label="Max Tokens">
            <span className="font-medium tabular-nums">{displayMaxTokens(agent.maxTokens)}</span>
          </SummaryRow>
          <SummaryRow label="Created">
            <span title={formatDateTime(agent.createdAt)}>{formatDateTime(agent.createdAt)}</span>
          </SummaryRow>
          <SummaryRow label="Last updated">
            <span title={formatDateTime(agent.updatedAt)}>{formatRelativeTime(agent.updatedAt)}</span>
          </SummaryRow>
        </dl>
        <Button
          type="button"
          variant="outline"
          className="w-full"
          onClick={() => testAgent.mutate(agent.id)}
          disabled={testAgent.isPending}
          aria-busy={testAgent.isPending}
        >
          {testAgent.isPending ? <Spinner /> : <FlaskConical aria-hidden="true" />}
          {testAgent.isPending ? 'Testing...' : 'Test Agent'}
        </Button>
        <p className="text-xs text-muted-foreground">
          Sends a short greeting to the saved agent and shows the start of its answer.
        </p>
      </CardContent>
    </Card>
  );
}

function AgentEditor({ agent }: { agent: Agent }) {
  const updateAgent = useUpdateAgent();
  const [dirty, setDirty] = useState(false);
  const [savingAsTemplate, setSavingAsTemplate] = useState(false);

  // The form's baseline follows the saved agent (after Save or a refetch), not every render.
  const version = `${agent.id}:${agent.updatedAt}`;
  const [baseline, setBaseline] = useState(() => ({ version, values: agentToFormValues(agent) }));
  if (baseline.version !== version) setBaseline({ version, values: agentToFormValues(agent) });

  const status = agentStatusDisplay(agent.status);

  return (
    <PageContainer className="space-y-6">
      <BackToAgents />

      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex min-w-0 items-center gap-3">
          <span className="grid size-12 shrink-0 place-items-center rounded-xl bg-violet-500/10 text-violet-600 dark:text-violet-400">
            <Bot className="size-6" aria-hidden="true" />
          </span>
          <div className="min-w-0 space-y-1">
            <div className="flex min-w-0 items-center gap-2">
              <h1 className="truncate text-2xl font-semibold tracking-tight sm:text-3xl">{agent.name}</h1>
              <StatusBadge label={status} tone={STATUS_TONE[status]} />
            </div>
            <p className="truncate text-sm text-muted-foreground sm:text-base">{agent.role}</p>
          </div>
        </div>
        <div className="flex shrink-0 flex-wrap items-center gap-3">
          {dirty && (
            <Badge
              variant="outline"
              className="border-amber-500/30 bg-amber-500/10 text-amber-700 dark:text-amber-400"
            >
              Unsaved changes
            </Badge>
          )}
          <Button type="button" variant="outline" onClick={() => setSavingAsTemplate(true)}>
            <LayoutTemplate aria-hidden="true" />
            Save as Template
          </Button>
          <Button
            type="submit"
            form={FORM_ID}
            disabled={updateAgent.isPending}
            aria-busy={updateAgent.isPending}
          >
            {updateAgent.isPending ? <Spinner /> : <Save aria-hidden="true" />}
            {updateAgent.isPending ? 'Saving...' : 'Save Changes'}
          </Button>
        </div>
      </div>

      <SaveAsTemplateDialog
        kind="agent"
        sourceId={agent.id}
        source={agent}
        unsavedChanges={dirty}
        open={savingAsTemplate}
        onOpenChange={setSavingAsTemplate}
      />

      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <Card className="py-5 sm:py-6">
          <CardContent className="px-4 sm:px-6">
            <AgentForm
              mode="edit"
              formId={FORM_ID}
              defaultValues={baseline.values}
              savedMemory={agent.memory}
              disabled={updateAgent.isPending}
              onDirtyChange={setDirty}
              contentClassName="min-h-[24rem]"
              toolsContent={
                <div className="space-y-8">
                  <SavedAgentKnowledge agentId={agent.id} />
                  <ConnectedToolsPanel agentId={agent.id} />
                </div>
              }
              memories={(memoryOn) => (
                <AgentMemoriesPanel agentId={agent.id} agentName={agent.name} memoryOn={memoryOn} />
              )}
              onSubmit={(payload, applyServerErrors) =>
                updateAgent.mutate({ id: agent.id, updates: payload }, { onError: applyServerErrors })
              }
            />
          </CardContent>
        </Card>
        <aside className="lg:sticky lg:top-20">
          <AgentSummary agent={agent} />
        </aside>
      </div>
    </PageContainer>
  );
}

/** /agents/edit/:id: the same four tabs, Back to Agents, 'Agent Not Found'. */
export function AgentEditPage() {
  const { id } = useParams();
  const agent = useAgent(id);
  useDocumentTitle(agent.data ? `Edit ${agent.data.name}` : 'Edit Agent');

  if (!id) return <AgentNotFound />;
  // A failed background refetch keeps showing the agent we have.
  if (agent.data) return <AgentEditor agent={agent.data} />;
  if (agent.isLoading) return <EditSkeleton />;
  const missing = !agent.isError || isApiStatus(agent.error, 404) || isApiStatus(agent.error, 400);
  if (missing) return <AgentNotFound />;
  return (
    <PageContainer className="space-y-6">
      <BackToAgents />
      <LoadErrorState icon={Bot} title="Could not load this agent" onRetry={() => void agent.refetch()} />
    </PageContainer>
  );
}
