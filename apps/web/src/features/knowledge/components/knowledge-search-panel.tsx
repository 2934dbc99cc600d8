// Search: the closest chunks to a question, with their similarity, document and text, so a user can
// check what an agent would find before wiring the knowledge base to one.
import type { KnowledgeSearchHit } from '@crewline/contracts';
import { FileText, Search, SearchX } from 'lucide-react';
import { useState, type FormEvent } from 'react';

import { Spinner } from '@/components/spinner';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { getErrorMessage } from '@/lib/api';

import { useKnowledgeSearch } from '../api/search';
import { formatScore } from '../knowledge-display';

/** Matches asked for; the server answers at most this many. */
const TOP_K = 5;

function HitCard({ hit, rank }: { hit: KnowledgeSearchHit; rank: number }) {
  return (
    <li data-testid="search-hit" className="space-y-2 rounded-lg border bg-card p-3.5">
      <div className="flex items-center gap-2 text-sm">
        <span className="grid size-6 shrink-0 place-items-center rounded-full bg-muted text-xs font-semibold tabular-nums">
          {rank}
        </span>
        <FileText className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        <span
          className="min-w-0 flex-1 truncate font-medium"
          title={hit.documentName}
          data-testid="search-hit-document"
        >
          {hit.documentName}
        </span>
        <span className="shrink-0 text-xs text-muted-foreground">chunk {hit.chunkIndex + 1}</span>
        <span
          className="shrink-0 rounded-md bg-primary/10 px-1.5 py-0.5 text-xs font-semibold text-primary tabular-nums"
          title={`Cosine similarity ${hit.score.toFixed(3)}`}
        >
          {formatScore(hit.score)}
          <span className="sr-only"> match</span>
        </span>
      </div>
      <p className="line-clamp-4 text-sm whitespace-pre-line text-foreground/80">{hit.text}</p>
    </li>
  );
}

export function KnowledgeSearchPanel({
  knowledgeBaseId,
  hasReady,
}: {
  knowledgeBaseId: string;
  hasReady: boolean;
}) {
  const search = useKnowledgeSearch(knowledgeBaseId);
  const [query, setQuery] = useState('');
  const [asked, setAsked] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const text = query.trim();
    if (!text) return;
    setAsked(text);
    search.mutate({ query: text, topK: TOP_K });
  };

  const hits = search.data?.hits ?? [];
  return (
    <section
      aria-labelledby="knowledge-search-title"
      className="space-y-3 rounded-xl border bg-card p-4 sm:p-5"
    >
      <div className="space-y-1">
        <h2 id="knowledge-search-title" className="font-semibold">
          Test search
        </h2>
        <p className="text-sm text-muted-foreground">
          Ask a question to see the passages an agent would get, best match first.
        </p>
      </div>
      <form role="search" onSubmit={onSubmit} className="flex flex-col gap-2 sm:flex-row">
        <div className="relative min-w-0 flex-1">
          <Search
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            type="search"
            aria-label="Search this knowledge base"
            placeholder={hasReady ? 'e.g. How long do refunds take?' : 'Add documents, then search'}
            value={query}
            maxLength={2000}
            onChange={(event) => setQuery(event.target.value)}
            className="pl-9"
          />
        </div>
        <Button type="submit" disabled={!query.trim() || search.isPending} aria-busy={search.isPending}>
          {search.isPending && <Spinner />}
          Search
        </Button>
      </form>

      {search.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {getErrorMessage(search.error, 'Search failed. Try again.')}
        </p>
      ) : search.isSuccess && hits.length === 0 ? (
        <div className="flex items-center gap-2 py-2 text-sm text-muted-foreground">
          <SearchX className="size-4" aria-hidden="true" />
          No matches for “{asked}”{hasReady ? '' : ': no document is ready yet'}.
        </div>
      ) : hits.length > 0 ? (
        <ol aria-label="Search results" className="space-y-2">
          {hits.map((hit, index) => (
            <HitCard key={`${hit.documentId}-${hit.chunkIndex}`} hit={hit} rank={index + 1} />
          ))}
        </ol>
      ) : null}
    </section>
  );
}
