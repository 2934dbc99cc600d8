import type { Tool, ToolCategory } from '@crewline/contracts';
import { Plus, Wrench } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';

import { EmptyState } from '@/components/empty-state';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Spinner } from '@/components/spinner';
import { Button } from '@/components/ui/button';
import { useKnowledgeBases } from '@/lib/queries/knowledge-bases';
import { useTools } from '@/lib/queries/tools';
import { useDocumentTitle } from '@/lib/use-document-title';

import { DeleteToolDialog } from '../components/delete-tool-dialog';
import { McpServerToolsDialog } from '../components/mcp-server-tools-dialog';
import { ToolCard } from '../components/tool-card';
import { ToolFormDialog } from '../components/tool-form-dialog';
import { knowledgeBaseIdOf } from '../tool-form';

/**
 * The Tools page: the organization's tools as cards, with create, configure and delete. Settings →
 * Tools links here: `?new=mcp` opens the form on the MCP Server category, `?serverTools=<id>` that
 * connection's Server tools.
 */
export function ToolsPage() {
  useDocumentTitle('Tools');
  const tools = useTools();
  const [searchParams, setSearchParams] = useSearchParams();

  // A new key for every opening resets the dialog's form to the tool (or to an empty form).
  const [form, setForm] = useState<{
    open: boolean;
    tool: Tool | null;
    category?: ToolCategory;
    key: number;
  }>(() => ({ open: searchParams.get('new') === 'mcp', tool: null, category: 'mcp', key: 0 }));
  const [deletion, setDeletion] = useState<{ open: boolean; tool: Tool | null }>({ open: false, tool: null });
  const [serverToolsOf, setServerToolsOf] = useState<string | null>(() => searchParams.get('serverTools'));
  // The link's request is taken once, on arrival: a reload or Back does not open the dialog again.
  useEffect(() => {
    if (searchParams.has('new') || searchParams.has('serverTools')) setSearchParams({}, { replace: true });
  }, [searchParams, setSearchParams]);

  const openForm = (tool: Tool | null, category?: ToolCategory) =>
    setForm((current) => ({ open: true, tool, category, key: current.key + 1 }));

  const list = tools.data ?? [];
  const activeCount = list.filter((tool) => tool.isActive).length;
  // Vector stores on a knowledge base name it on their card.
  const bases = useKnowledgeBases({ enabled: list.some((tool) => knowledgeBaseIdOf(tool)) });
  const knowledgeBaseName = (id: string) => bases.data?.find((base) => base.id === id)?.name;

  return (
    <PageContainer className="space-y-6 sm:space-y-8">
      <PageHeader
        title="Tools"
        description="Create and manage agent-specific tools with unique configurations"
        actions={
          <Button onClick={() => openForm(null)}>
            <Plus aria-hidden="true" />
            Create Tool
          </Button>
        }
      />

      {tools.isLoading ? (
        <div role="status" aria-label="Loading tools" className="flex min-h-64 items-center justify-center">
          <Spinner className="size-8 text-primary" />
        </div>
      ) : tools.isError ? (
        <EmptyState
          icon={Wrench}
          title="Could not load tools"
          description="Check your connection and try again."
          action={
            <Button variant="outline" size="sm" onClick={() => void tools.refetch()}>
              Try again
            </Button>
          }
        />
      ) : list.length === 0 ? (
        <EmptyState
          icon={Wrench}
          title="No tools configured"
          description="Tools let your agents search the web, call APIs, query databases and more. Connect them to agents once they exist."
          className="py-16"
          action={
            <Button onClick={() => openForm(null)}>
              <Plus aria-hidden="true" />
              Create Your First Tool
            </Button>
          }
        />
      ) : (
        <section aria-label="Tools" className="space-y-4">
          <p className="text-sm text-muted-foreground">
            {list.length} {list.length === 1 ? 'tool' : 'tools'} · {activeCount} active
          </p>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {list.map((tool) => (
              <ToolCard
                key={tool.id}
                tool={tool}
                onConfigure={(target) => openForm(target)}
                onServerTools={(target) => setServerToolsOf(target.id)}
                knowledgeBaseName={bases.data ? knowledgeBaseName : undefined}
                onDelete={(target) => setDeletion({ open: true, tool: target })}
              />
            ))}
          </div>
        </section>
      )}

      <ToolFormDialog
        key={form.key}
        open={form.open}
        tool={form.tool}
        category={form.category}
        onOpenChange={(open) => setForm((current) => ({ ...current, open }))}
        onCreated={(tool) => tool.category === 'mcp' && setServerToolsOf(tool.id)}
      />
      <McpServerToolsDialog
        tool={list.find((tool) => tool.id === serverToolsOf) ?? null}
        open={!!serverToolsOf}
        onOpenChange={(open) => !open && setServerToolsOf(null)}
      />
      <DeleteToolDialog
        tool={deletion.tool}
        open={deletion.open}
        onClose={() => setDeletion((current) => ({ ...current, open: false }))}
      />
    </PageContainer>
  );
}
