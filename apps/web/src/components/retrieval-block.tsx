import type { StepRetrieval } from '@crewline/contracts';
import { ChevronRight, FileText, Search } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';

import { hitsLabel, passageLabel, retrievalScore } from '@/lib/retrieval-text';
import { cn } from '@/lib/utils';

const LABEL = 'text-[11px] font-semibold tracking-wide text-muted-foreground uppercase';

function Hit({ hit, rank }: { hit: StepRetrieval['hits'][number]; rank: number }) {
  const passage = passageLabel(hit);
  return (
    <li className="space-y-1 rounded-md border bg-background p-2" data-testid="retrieval-hit">
      <div className="flex min-w-0 items-center gap-1.5">
        <span className="grid size-5 shrink-0 place-items-center rounded-full bg-muted text-[11px] font-semibold tabular-nums">
          {rank}
        </span>
        {/* On a phone the name needs the room more than the icon. */}
        <FileText className="hidden size-3.5 shrink-0 text-muted-foreground sm:block" aria-hidden="true" />
        <span className="min-w-0 truncate font-medium" title={hit.source} data-testid="retrieval-hit-source">
          {hit.source}
        </span>
        {passage && <span className="shrink-0 text-muted-foreground">{passage}</span>}
        <span
          className="ml-auto shrink-0 rounded-md bg-primary/10 px-1.5 py-0.5 font-semibold text-primary tabular-nums"
          title="Similarity to the query, 0 to 1"
          data-testid="retrieval-hit-score"
        >
          <span className="sr-only">score </span>
          {retrievalScore(hit.score)}
        </span>
      </div>
      {/* Passage text is shown as text: React escapes it. */}
      <p className="leading-relaxed break-words text-foreground/80">{hit.excerpt}</p>
    </li>
  );
}

/**
 * A knowledge search a tool call made: the query, then each passage found with its source, score and
 * the start of its text. `raw` (the call's arguments and result as the model got them) opens below.
 */
export function RetrievalBlock({ retrieval, raw }: { retrieval: StepRetrieval; raw: ReactNode }) {
  const [showRaw, setShowRaw] = useState(false);
  const rawId = useId();
  return (
    <div className="space-y-2 text-xs" data-testid="retrieval">
      <div className="space-y-1">
        <p className={LABEL}>Retrieval</p>
        <p
          className="flex items-start gap-1.5 rounded-md border bg-muted/40 p-2"
          data-testid="retrieval-query"
        >
          <Search className="mt-0.5 size-3.5 shrink-0 text-muted-foreground" aria-hidden="true" />
          <span className="min-w-0 break-words">
            <span className="sr-only">Query: </span>
            {retrieval.query}
          </span>
        </p>
        <p className="text-muted-foreground">{hitsLabel(retrieval.hits.length)}</p>
      </div>
      {retrieval.hits.length > 0 && (
        <ol className="space-y-1.5" aria-label="Retrieved passages">
          {retrieval.hits.map((hit, index) => (
            <Hit key={index} hit={hit} rank={index + 1} />
          ))}
        </ol>
      )}
      <div>
        <button
          type="button"
          className="inline-flex items-center gap-1 rounded-sm font-medium text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          aria-expanded={showRaw}
          aria-controls={rawId}
          onClick={() => setShowRaw((open) => !open)}
        >
          <ChevronRight
            className={cn('size-3.5 transition-transform', showRaw && 'rotate-90')}
            aria-hidden="true"
          />
          Raw result
        </button>
        {showRaw && (
          <div id={rawId} className="mt-2 space-y-2">
            {raw}
          </div>
        )}
      </div>
    </div>
  );
}
