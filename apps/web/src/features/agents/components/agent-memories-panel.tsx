import type { AgentMemory } from '@crewline/contracts';
import { ArrowUpRight, Brain, Search, SearchX, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';

import { IconButton } from '@/components/icon-button';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { EmptyState, LoadErrorState } from '@/components/empty-state';
import { Spinner } from '@/components/spinner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime, formatRelativeTime } from '@/lib/format';
import { runDetailsPath } from '@/lib/run-links';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useNow } from '@/lib/use-now';

import {
  forgetAllQuestion,
  MEMORY_SEARCH_DEBOUNCE_MS,
  memoryCountLine,
  noMemoriesHint,
} from '../agent-memory-display';
import {
  useAgentMemories,
  useForgetAllMemories,
  useForgetMemory,
  useMemoriesFollowRuns,
} from '../api/agent-memories';

function MemoryRow({
  memory,
  now,
  forgetting,
  onForget,
}: {
  memory: AgentMemory;
  now: number;
  forgetting: boolean;
  onForget: () => void;
}) {
  return (
    <li data-testid="agent-memory" className="flex items-start gap-3 rounded-lg border p-3">
      <div className="min-w-0 flex-1 space-y-1">
        <p data-testid="agent-memory-content" className="text-sm break-words">
          {memory.content}
        </p>
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
          <time dateTime={memory.createdAt} title={formatDateTime(memory.createdAt)}>
            {formatRelativeTime(memory.createdAt, now)}
          </time>
          {memory.executionId && (
            <Link
              to={runDetailsPath(memory.executionId)}
              className="inline-flex items-center gap-0.5 font-medium text-foreground/80 underline-offset-4 hover:text-foreground hover:underline"
            >
              From run
              <ArrowUpRight className="size-3" aria-hidden="true" />
            </Link>
          )}
        </p>
      </div>
      <IconButton
        icon={<Trash2 aria-hidden="true" />}
        tooltip="Forget this memory"
        label="Forget this memory"
        onClick={onForget}
        busy={forgetting}
        destructive
        className="-my-1"
      />
    </li>
  );
}

function MemoriesSkeleton() {
  return (
    <div className="space-y-2" aria-busy="true" aria-label="Loading memories">
      {Array.from({ length: 3 }, (_, i) => (
        <div key={i} className="space-y-2 rounded-lg border p-3">
          <Skeleton className="h-4 w-3/4" />
          <Skeleton className="h-3 w-24" />
        </div>
      ))}
    </div>
  );
}

/**
 * A saved agent's memories, newest first, on its Advanced tab: search, forget one, forget all. Shown
 * whether Memory is on or off (an agent switched off keeps what it remembered).
 */
export function AgentMemoriesPanel({
  agentId,
  agentName,
  memoryOn,
}: {
  agentId: string;
  agentName: string;
  memoryOn: boolean;
}) {
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText.trim(), MEMORY_SEARCH_DEBOUNCE_MS);
  // Every memory (the heading's count) and those matching the search (the same query when blank).
  const all = useAgentMemories(agentId, '');
  const found = useAgentMemories(agentId, search);
  useMemoriesFollowRuns(agentId);
  const forget = useForgetMemory(agentId);
  const forgetAll = useForgetAllMemories(agentId);
  const [confirming, setConfirming] = useState(false);
  // Relative dates move on while the page stays open.
  const now = useNow(true, 60_000);

  const total = all.data?.total ?? 0;
  const searching = search !== '';
  const forgettingId = forget.isPending ? forget.variables?.id : undefined;

  let body;
  if (all.isLoading || (searching && found.isLoading)) {
    body = <MemoriesSkeleton />;
  } else if (all.isError || found.isError || !found.data) {
    body = (
      <LoadErrorState
        icon={Brain}
        title="Could not load memories"
        size="sm"
        onRetry={() => void Promise.all([all.refetch(), found.refetch()])}
      />
    );
  } else if (total === 0) {
    body = <EmptyState icon={Brain} title="No memories yet" description={noMemoriesHint(memoryOn)} />;
  } else if (found.data.memories.length === 0) {
    body = (
      <EmptyState
        icon={SearchX}
        title="No matching memories"
        description={`No memory of ${agentName} mentions “${search}”.`}
      />
    );
  } else {
    const countLine = memoryCountLine(found.data.memories.length, found.data.total, searching);
    body = (
      <div className="space-y-2">
        {countLine && (
          <p className="text-xs text-muted-foreground" aria-live="polite">
            {countLine}
          </p>
        )}
        <ul className="space-y-2" aria-label="Memories">
          {found.data.memories.map((memory) => (
            <MemoryRow
              key={memory.id}
              memory={memory}
              now={now}
              forgetting={forgettingId === memory.id}
              onForget={() => forget.mutate(memory)}
            />
          ))}
        </ul>
      </div>
    );
  }

  return (
    <section aria-label="Memories" className="space-y-4 border-t pt-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <h3 className="flex items-center gap-2 font-medium">
            Memories
            {all.data && (
              <Badge variant="secondary" className="tabular-nums" data-testid="agent-memories-total">
                {total}
              </Badge>
            )}
          </h3>
          <p className="text-sm text-muted-foreground">
            What this agent remembers from its runs, newest first.
          </p>
        </div>
        {total > 0 && (
          <Button
            type="button"
            variant="outline"
            size="sm"
            className="shrink-0 text-destructive hover:text-destructive"
            onClick={() => setConfirming(true)}
          >
            <Trash2 aria-hidden="true" />
            Forget all
          </Button>
        )}
      </div>
      {total > 0 && (
        <div className="relative">
          <Search
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            type="search"
            value={searchText}
            onChange={(event) => setSearchText(event.target.value)}
            // The panel sits in the agent's form: Enter searches, it does not save the agent.
            onKeyDown={(event) => {
              if (event.key === 'Enter') event.preventDefault();
            }}
            placeholder="Search memories"
            aria-label="Search memories"
            maxLength={200}
            className="pr-9 pl-9"
          />
          {found.isFetching && searching && (
            <Spinner className="absolute top-1/2 right-3 -translate-y-1/2 text-muted-foreground" />
          )}
        </div>
      )}
      {body}
      <ConfirmDialog
        title="Forget all memories?"
        description={forgetAllQuestion(total, agentName)}
        open={confirming}
        onOpenChange={setConfirming}
        pending={forgetAll.isPending}
        confirmLabel="Forget all"
        pendingLabel="Forgetting..."
        variant="destructive"
        onConfirm={() =>
          forgetAll.mutate(
            { agentName },
            {
              onSuccess: () => {
                setConfirming(false);
                setSearchText('');
              },
            },
          )
        }
      />
    </section>
  );
}
