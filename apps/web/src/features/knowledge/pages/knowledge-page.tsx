import type { KnowledgeBase } from '@crewline/contracts';
import { Library, Plus } from 'lucide-react';
import { useMemo, useState } from 'react';

import { CardGrid, CardGridSkeleton, NoMatchesState } from '@/components/card-grid';
import { EmptyState, LoadErrorState } from '@/components/empty-state';
import { PageContainer, PageHeader } from '@/components/page-header';
import { ResultCount } from '@/components/result-count';
import { StatCardGridSkeleton } from '@/components/stat-card';
import { Button } from '@/components/ui/button';
import { useDocumentTitle } from '@/lib/use-document-title';

import { useKnowledgeBases } from '../api/knowledge-bases';
import { DeleteKnowledgeBaseDialog } from '../components/delete-knowledge-base-dialog';
import { KnowledgeBaseCard, KnowledgeBaseCardSkeleton } from '../components/knowledge-base-card';
import { KnowledgeBaseFormDialog } from '../components/knowledge-base-form-dialog';
import { KnowledgeFiltersBar } from '../components/knowledge-filters';
import { StorageSummary } from '../components/storage-summary';
import {
  DEFAULT_KNOWLEDGE_FILTERS,
  filterKnowledgeBases,
  hasActiveKnowledgeFilters,
  type KnowledgeFilters,
} from '../knowledge-display';

/** /knowledge: the organization's knowledge bases and its storage, with create, rename and delete. */
export function KnowledgePage() {
  useDocumentTitle('Knowledge');
  const bases = useKnowledgeBases();
  const [filters, setFilters] = useState<KnowledgeFilters>(DEFAULT_KNOWLEDGE_FILTERS);
  // The form dialog creates (base null) or renames; the base stays set while a dialog closes.
  const [form, setForm] = useState<{ open: boolean; base: KnowledgeBase | null }>({
    open: false,
    base: null,
  });
  const [deletion, setDeletion] = useState<{ open: boolean; base: KnowledgeBase | null }>({
    open: false,
    base: null,
  });

  const all = bases.data;
  const visible = useMemo(() => filterKnowledgeBases(all ?? [], filters), [all, filters]);
  const filtering = hasActiveKnowledgeFilters(filters);
  const openCreate = () => setForm({ open: true, base: null });

  let content;
  if (bases.isLoading) {
    content = (
      <CardGridSkeleton label="Loading knowledge bases" count={3} skeleton={KnowledgeBaseCardSkeleton} />
    );
  } else if (bases.isError || !all) {
    content = (
      <LoadErrorState
        icon={Library}
        title="Could not load knowledge bases"
        onRetry={() => void bases.refetch()}
      />
    );
  } else if (all.length === 0) {
    content = (
      <EmptyState
        icon={Library}
        title="No knowledge bases yet"
        description="Create one, upload your documents, and your agents can answer from them."
        className="py-16"
        action={
          <Button onClick={openCreate}>
            <Plus aria-hidden="true" />
            Create Your First Knowledge Base
          </Button>
        }
      />
    );
  } else if (visible.length === 0) {
    content = <NoMatchesState title="No knowledge bases found" />;
  } else {
    content = (
      <>
        <ResultCount shown={visible.length} total={all.length} noun="knowledge base" filtering={filtering} />
        <CardGrid label="Knowledge bases" items={visible}>
          {(base) => (
            <KnowledgeBaseCard
              base={base}
              onRename={(target) => setForm({ open: true, base: target })}
              onDelete={(target) => setDeletion({ open: true, base: target })}
            />
          )}
        </CardGrid>
      </>
    );
  }

  return (
    <PageContainer className="space-y-6">
      <PageHeader
        title="Knowledge"
        description="Documents your agents can search and answer from"
        actions={
          <Button onClick={openCreate}>
            <Plus aria-hidden="true" />
            Create Knowledge Base
          </Button>
        }
      />
      {bases.isLoading ? (
        <StatCardGridSkeleton />
      ) : all && all.length > 0 ? (
        <StorageSummary bases={all} />
      ) : null}
      {all && all.length > 0 && <KnowledgeFiltersBar filters={filters} onChange={setFilters} />}
      <section aria-label="Knowledge base list" className="space-y-4">
        {content}
      </section>
      <KnowledgeBaseFormDialog
        open={form.open}
        base={form.base}
        onOpenChange={(open) => setForm((current) => ({ ...current, open }))}
      />
      <DeleteKnowledgeBaseDialog
        base={deletion.base}
        open={deletion.open}
        onClose={() => setDeletion((current) => ({ ...current, open: false }))}
      />
    </PageContainer>
  );
}
