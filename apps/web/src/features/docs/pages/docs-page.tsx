// /docs and its pages, public like the landing page (signed out and signed in alike). The route is lazy,
// so neither the landing page nor the app downloads the documentation until it is opened.
import { FileQuestion } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Link, useLocation } from 'react-router';

import { Button } from '@/components/ui/button';
import { useDocumentTitle } from '@/lib/use-document-title';

import { DocArticle, DocsFrame, type DocContent } from '../components/docs-layout';
import { apiKeys } from '../content/api-keys';
import { chatApps } from '../content/chat-apps';
import { concepts } from '../content/concepts';
import { gettingStarted } from '../content/getting-started';
import { mcpServer } from '../content/mcp-server';
import { mcpTools } from '../content/mcp-tools';
import { webhooks } from '../content/webhooks';
import { DOCS_ROOT, docsPageForPath, type DocsPageId, type DocsPageLink } from '../docs-nav';

/**
 * The Workflow nodes guide (7 kB gzipped, mostly its JSON examples) is loaded when it is opened, so
 * the docs' first download stays what it was.
 */
const WorkflowNodesArticle = lazy(async () => {
  const { workflowNodes } = await import('../content/workflow-nodes');
  return {
    default: ({ page }: { page: DocsPageLink }) => <DocArticle page={page} content={workflowNodes} />,
  };
});

const CONTENT: Record<Exclude<DocsPageId, 'workflow-nodes'>, DocContent> = {
  'getting-started': gettingStarted,
  concepts,
  webhooks,
  'api-keys': apiKeys,
  'mcp-server': mcpServer,
  'mcp-tools': mcpTools,
  'chat-apps': chatApps,
};

function DocsNotFound() {
  return (
    <DocsFrame page={null}>
      <div className="flex max-w-xl flex-col items-start gap-4 py-10">
        <span className="grid size-11 place-items-center rounded-full bg-muted text-muted-foreground">
          <FileQuestion className="size-5" aria-hidden="true" />
        </span>
        <h1 className="text-3xl font-bold tracking-tight">Page not found</h1>
        <p className="leading-7 text-muted-foreground">
          The documentation has no page at this address. It may have moved: start from the overview.
        </p>
        <Button asChild>
          <Link to={DOCS_ROOT}>Go to Getting started</Link>
        </Button>
      </div>
    </DocsFrame>
  );
}

export function DocsPage() {
  const { pathname } = useLocation();
  const page = docsPageForPath(pathname);
  useDocumentTitle(page ? `${page.title} · Docs` : 'Page not found · Docs');
  if (!page) return <DocsNotFound />;
  if (page.id === 'workflow-nodes') {
    return (
      <Suspense fallback={<DocsFrame page={page}>{null}</DocsFrame>}>
        <WorkflowNodesArticle page={page} />
      </Suspense>
    );
  }
  return <DocArticle page={page} content={CONTENT[page.id]} />;
}
