import type { KnowledgeBase, KnowledgeDocument } from '@crewline/contracts';
import { ClipboardPaste, FileText, Library, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';

import { EmptyState, LoadErrorState } from '@/components/empty-state';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { isApiStatus } from '@/lib/api';
import { useRealtimeStatus } from '@/lib/realtime';
import { useDocumentTitle } from '@/lib/use-document-title';

import { useKnowledgeDocuments } from '../api/documents';
import { useKnowledgeBase, useKnowledgeBases } from '../api/knowledge-bases';
import { useDocumentUploads } from '../api/use-document-uploads';
import { DeleteDocumentDialog } from '../components/delete-document-dialog';
import { DeleteKnowledgeBaseDialog } from '../components/delete-knowledge-base-dialog';
import { DocumentsList, DocumentsListSkeleton } from '../components/documents-list';
import { KnowledgeBaseFormDialog } from '../components/knowledge-base-form-dialog';
import {
  BackToKnowledge,
  KnowledgeBaseNotFound,
  KnowledgeBasePageSkeleton,
} from '../components/knowledge-base-page-states';
import { KnowledgeSearchPanel } from '../components/knowledge-search-panel';
import { KnowledgeStats } from '../components/knowledge-stats';
import { PasteTextDialog } from '../components/paste-text-dialog';
import { UploadDropZone, UploadList } from '../components/upload-panel';
import { hasPendingDocuments, storageTotals } from '../knowledge-display';

function KnowledgeBaseView({ base }: { base: KnowledgeBase }) {
  const navigate = useNavigate();
  const live = useRealtimeStatus() === 'open';
  const documents = useKnowledgeDocuments(base.id);
  const pending = hasPendingDocuments(documents.data);
  // Counts follow the documents: polled with them while the live connection is down.
  const current = useKnowledgeBase(base.id, { poll: pending && !live }).data ?? base;
  const all = useKnowledgeBases();
  const uploads = useDocumentUploads(base.id);
  const [editOpen, setEditOpen] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const [pasteOpen, setPasteOpen] = useState(false);
  const [documentToDelete, setDocumentToDelete] = useState<{
    open: boolean;
    document: KnowledgeDocument | null;
  }>({
    open: false,
    document: null,
  });

  const list = documents.data;
  const hasReady = !!list?.some((document) => document.status === 'ready');

  let documentsContent;
  if (documents.isLoading) documentsContent = <DocumentsListSkeleton />;
  else if (documents.isError || !list)
    documentsContent = (
      <LoadErrorState
        icon={FileText}
        title="Could not load documents"
        size="sm"
        onRetry={() => void documents.refetch()}
      />
    );
  else if (list.length === 0)
    documentsContent = (
      <EmptyState
        icon={FileText}
        title="No documents yet"
        description="Upload files or paste text above; each is cut into chunks and embedded for search."
      />
    );
  else
    documentsContent = (
      <DocumentsList
        documents={list}
        onDelete={(document) => setDocumentToDelete({ open: true, document })}
      />
    );

  return (
    <PageContainer className="space-y-6">
      <BackToKnowledge />
      <PageHeader
        title={<span className="break-words">{current.name}</span>}
        description={current.description || 'No description'}
        actions={
          <>
            <Button variant="outline" onClick={() => setEditOpen(true)}>
              <Pencil aria-hidden="true" />
              Edit
            </Button>
            <Button
              variant="outline"
              className="text-destructive hover:bg-destructive/10 hover:text-destructive"
              onClick={() => setDeleteOpen(true)}
            >
              <Trash2 aria-hidden="true" />
              Delete
            </Button>
          </>
        }
      />
      <KnowledgeStats base={current} organizationBytes={all.data ? storageTotals(all.data).bytes : null} />

      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="min-w-0 space-y-4">
          <section aria-labelledby="add-documents-title" className="space-y-3">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 id="add-documents-title" className="font-semibold">
                Add documents
              </h2>
              <Button variant="outline" size="sm" onClick={() => setPasteOpen(true)}>
                <ClipboardPaste aria-hidden="true" />
                Paste Text
              </Button>
            </div>
            <UploadDropZone onFiles={uploads.upload} />
            <UploadList
              items={uploads.items}
              onDismiss={uploads.dismiss}
              onClearFinished={uploads.clearFinished}
            />
          </section>
          <section aria-labelledby="documents-title" className="space-y-3">
            <h2 id="documents-title" className="font-semibold">
              Documents
              {list && list.length > 0 && (
                <span className="ml-2 text-sm font-normal text-muted-foreground">{list.length}</span>
              )}
            </h2>
            {documentsContent}
          </section>
        </div>
        <div className="lg:sticky lg:top-20">
          <KnowledgeSearchPanel knowledgeBaseId={base.id} hasReady={hasReady} />
        </div>
      </div>

      <KnowledgeBaseFormDialog open={editOpen} onOpenChange={setEditOpen} base={current} />
      <DeleteKnowledgeBaseDialog
        base={current}
        open={deleteOpen}
        onClose={() => setDeleteOpen(false)}
        onDeleted={() => void navigate('/knowledge')}
      />
      <PasteTextDialog knowledgeBaseId={base.id} open={pasteOpen} onOpenChange={setPasteOpen} />
      <DeleteDocumentDialog
        knowledgeBaseId={base.id}
        document={documentToDelete.document}
        open={documentToDelete.open}
        onClose={() => setDocumentToDelete((state) => ({ ...state, open: false }))}
      />
    </PageContainer>
  );
}

/** /knowledge/:id: its documents, uploads, pasted text, search, rename and delete. */
export function KnowledgeBasePage() {
  const { id = '' } = useParams();
  const base = useKnowledgeBase(id);
  useDocumentTitle(base.data ? base.data.name : 'Knowledge');

  if (!id) return <KnowledgeBaseNotFound />;
  // A failed background refetch keeps showing what we have.
  if (base.data) return <KnowledgeBaseView key={id} base={base.data} />;
  if (base.isLoading) return <KnowledgeBasePageSkeleton />;
  if (isApiStatus(base.error, 404) || isApiStatus(base.error, 400)) return <KnowledgeBaseNotFound />;
  return (
    <PageContainer className="space-y-6">
      <BackToKnowledge />
      <LoadErrorState
        icon={Library}
        title="Could not load this knowledge base"
        onRetry={() => void base.refetch()}
      />
    </PageContainer>
  );
}
