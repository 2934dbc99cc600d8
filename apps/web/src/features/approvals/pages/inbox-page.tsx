// The Inbox (/inbox, docs/product-rules.md, People in the loop): the approvals waiting for the
// viewer's decision, oldest first, each with its form and Approve / Reject; and the organization's
// recently decided ones. The approval events keep both current (lib/realtime-invalidation.ts).
import { CheckCheck, Inbox } from 'lucide-react';
import { useState } from 'react';

import { CardSkeleton } from '@/components/card-skeleton';
import { EmptyState, LoadErrorState } from '@/components/empty-state';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useDecidedApprovals } from '@/lib/approvals/approval-lists';
import { useMyPendingApprovals } from '@/lib/queries/approvals';
import { useAuth } from '@/lib/session';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useNow } from '@/lib/use-now';

import { ApprovalCard } from '../components/approval-card';
import { DecidedApprovalCard } from '../components/decided-approval-card';

function ListSkeleton() {
  return (
    <div className="space-y-4" aria-busy="true" aria-label="Loading approvals">
      {[0, 1].map((key) => (
        <CardSkeleton key={key} testId="approval-card-skeleton">
          <div className="space-y-3 p-5">
            <Skeleton className="h-4 w-1/2" />
            <Skeleton className="h-3 w-1/3" />
            <Skeleton className="h-16 w-full" />
          </div>
        </CardSkeleton>
      ))}
    </div>
  );
}

export function InboxPage() {
  useDocumentTitle('Inbox');
  const { user } = useAuth();
  const [tab, setTab] = useState<'pending' | 'decided'>('pending');
  const pending = useMyPendingApprovals();
  const decided = useDecidedApprovals(tab === 'decided');
  // 'Requested 5 minutes ago' and 'Times out in 2 hours' move on while the page is open.
  const now = useNow(true, 30_000);
  const waiting = pending.data?.filter((approval) => approval.canDecide).length ?? 0;

  return (
    <PageContainer className="max-w-4xl space-y-6">
      <PageHeader title="Inbox" description="Approvals waiting for your decision, oldest first" />
      <Tabs value={tab} onValueChange={(value) => setTab(value as 'pending' | 'decided')} className="gap-4">
        <TabsList>
          <TabsTrigger value="pending" className="px-3">
            <Inbox aria-hidden="true" />
            Waiting for me
            {waiting > 0 && <span className="text-xs text-muted-foreground tabular-nums">{waiting}</span>}
          </TabsTrigger>
          <TabsTrigger value="decided" className="px-3">
            <CheckCheck aria-hidden="true" />
            Decided
          </TabsTrigger>
        </TabsList>

        <TabsContent value="pending">
          {pending.isLoading ? (
            <ListSkeleton />
          ) : pending.isError ? (
            <LoadErrorState title="Could not load your approvals" onRetry={() => void pending.refetch()} />
          ) : pending.data && pending.data.length > 0 ? (
            <ul className="space-y-4" aria-label="Waiting for me">
              {pending.data.map((approval) => (
                <li key={approval.id}>
                  <ApprovalCard approval={approval} viewerId={user?.id} now={now} />
                </li>
              ))}
            </ul>
          ) : (
            <EmptyState
              icon={Inbox}
              title="Nothing waits for you"
              description="When a run reaches an Approval step you may decide, it shows here."
            />
          )}
        </TabsContent>

        <TabsContent value="decided">
          {decided.isLoading ? (
            <ListSkeleton />
          ) : decided.isError ? (
            <LoadErrorState
              title="Could not load the decided approvals"
              onRetry={() => void decided.refetch()}
            />
          ) : decided.data && decided.data.length > 0 ? (
            <ul className="space-y-3" aria-label="Decided">
              {decided.data.map((approval) => (
                <li key={approval.id}>
                  <DecidedApprovalCard approval={approval} />
                </li>
              ))}
            </ul>
          ) : (
            <EmptyState icon={CheckCheck} title="No decisions yet" />
          )}
        </TabsContent>
      </Tabs>
    </PageContainer>
  );
}
