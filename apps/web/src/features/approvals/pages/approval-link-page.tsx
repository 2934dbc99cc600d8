// /approvals/email/:token (docs/security.md, Approval links): the page an approval email's Approve or
// Reject link opens, signed in or out. The link binds its approver and decision; opening it decides
// nothing (mail scanners open links too): the approver reads what they decide, answers the form when
// approving, may add a comment, and confirms with one click.
import type { ApprovalLinkView } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQuery } from '@tanstack/react-query';
import { CircleCheck, CircleX, Hourglass, LinkIcon, Workflow } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';

import { ApprovalFieldInput } from '@/components/approvals/approval-decision-form';
import { Brand } from '@/components/brand';
import { FullPageSpinner } from '@/components/full-page-spinner';
import { Spinner } from '@/components/spinner';
import { ThemeToggle } from '@/components/theme-toggle';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { getErrorMessage } from '@/lib/api';
import { api } from '@/lib/api-call';
import { answersOf, decisionErrorOf, draftErrors, type FieldDraft } from '@/lib/approvals/approval-texts';
import { formatDateTime } from '@/lib/format';
import { queryKeys } from '@/lib/queries/keys';
import { cn } from '@/lib/utils';
import { useDocumentTitle } from '@/lib/use-document-title';

const CLOSED: Record<Exclude<ApprovalLinkView['approval']['status'], 'pending'>, string> = {
  approved: 'This approval was already decided: approved.',
  rejected: 'This approval was already decided: rejected.',
  timed_out: 'This approval timed out before a decision.',
  cancelled: 'This approval was cancelled with its run.',
};

/** The page's frame: no app chrome, the brand and the theme, one column that suits a phone. */
function Frame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-svh flex-col bg-muted/30 dark:bg-background">
      <header className="mx-auto flex h-14 w-full max-w-xl items-center justify-between px-4 sm:h-16 sm:px-6">
        <Link
          to="/"
          className="rounded-md focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
        >
          <Brand />
        </Link>
        <ThemeToggle />
      </header>
      <main id="main" className="flex flex-1 justify-center px-3 pt-2 pb-12 sm:px-6 sm:pt-8">
        <div className="w-full max-w-xl">{children}</div>
      </main>
    </div>
  );
}

/** A short message in place of the form: done, or why the link decides nothing. */
function Notice({ tone, title, children }: { tone: 'done' | 'gone'; title: string; children?: ReactNode }) {
  const Icon = tone === 'done' ? CircleCheck : LinkIcon;
  return (
    <Card className="items-center gap-3 px-6 py-10 text-center" data-testid="approval-link-notice">
      <span
        className={cn(
          'grid size-12 place-items-center rounded-full',
          tone === 'done'
            ? 'bg-emerald-500/15 text-emerald-700 dark:text-emerald-300'
            : 'bg-muted text-muted-foreground',
        )}
      >
        <Icon className="size-5" aria-hidden="true" />
      </span>
      <h1 role={tone === 'done' ? 'status' : 'alert'} className="text-xl leading-tight font-semibold">
        {title}
      </h1>
      {children && <div className="max-w-sm text-sm text-muted-foreground">{children}</div>}
    </Card>
  );
}

function Confirmation({ token, view }: { token: string; view: ApprovalLinkView }) {
  const { approval, decision, approver } = view;
  const approving = decision === 'approve';
  const fields = approving ? approval.fields : [];
  const commentId = useId();
  const [draft, setDraft] = useState<FieldDraft>({});
  const [comment, setComment] = useState('');
  const [shown, setShown] = useState<Record<string, string>>({});
  const confirm = useMutation({
    mutationFn: () =>
      api.call(endpoints.approvalLinks.decide, {
        params: { token },
        body: {
          comment: comment.trim() || undefined,
          ...(approving && fields.length > 0 ? { fields: answersOf(fields, draft) } : {}),
        },
      }),
  });
  const refused = confirm.error ? decisionErrorOf(confirm.error) : null;
  const fieldErrors = { ...shown, ...refused?.fields };

  if (confirm.isSuccess)
    return (
      <Notice tone="done" title="Done: the run goes on">
        {confirm.data.status === 'pending'
          ? 'Your decision is recorded; the run goes on once enough approvers have decided.'
          : `You ${approving ? 'approved' : 'rejected'} “${approval.title}”. You can close this page.`}
      </Notice>
    );

  const Icon = approving ? CircleCheck : CircleX;
  const closed = approval.status !== 'pending' ? CLOSED[approval.status] : null;
  return (
    <Card className="gap-5 px-4 py-5 sm:px-6 sm:py-6" data-testid="approval-link">
      <div className="space-y-2">
        <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">Approval needed</p>
        <h1 className="text-xl leading-tight font-semibold break-words sm:text-2xl">{approval.title}</h1>
        <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted-foreground">
          <span className="inline-flex items-center gap-1.5" data-testid="approval-link-workflow">
            <Workflow className="size-4" aria-hidden="true" />
            {approval.workflowName ?? 'A deleted workflow'}
          </span>
          {approval.expiresAt && (
            <span className="inline-flex items-center gap-1.5 text-amber-700 dark:text-amber-400">
              <Hourglass className="size-4" aria-hidden="true" />
              Times out {formatDateTime(approval.expiresAt)}
            </span>
          )}
        </p>
      </div>
      {approval.message && (
        // Filled-in template text: shown as text, whitespace kept.
        <p
          className="rounded-lg bg-muted/50 p-3 text-base leading-relaxed break-words whitespace-pre-wrap sm:text-sm"
          data-testid="approval-link-message"
        >
          {approval.message}
        </p>
      )}
      {closed ? (
        <p role="alert" className="rounded-lg border p-3 text-sm">
          {closed}
        </p>
      ) : (
        <form
          className="space-y-5"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const problems = draftErrors(fields, draft, decision);
            setShown(problems);
            if (Object.keys(problems).length === 0) confirm.mutate();
          }}
        >
          <p
            className={cn(
              'flex items-center gap-2 rounded-lg border p-3 text-base font-medium sm:text-sm',
              approving
                ? 'border-emerald-500/30 bg-emerald-500/10 text-emerald-800 dark:text-emerald-300'
                : 'border-red-500/30 bg-red-500/10 text-red-800 dark:text-red-300',
            )}
            data-testid="approval-link-decision"
          >
            <Icon className="size-5 shrink-0" aria-hidden="true" />
            <span>
              {approving ? 'You are about to approve' : 'You are about to reject'}
              {approver.name && <span className="font-normal"> as {approver.name}</span>}
            </span>
          </p>
          {fields.map((field) => (
            <ApprovalFieldInput
              key={field.name}
              size="comfortable"
              field={field}
              value={draft[field.name]}
              error={fieldErrors[field.name]}
              disabled={confirm.isPending}
              onChange={(value) => setDraft((current) => ({ ...current, [field.name]: value }))}
            />
          ))}
          <div className="space-y-1.5">
            <Label htmlFor={commentId}>Comment</Label>
            <Textarea
              id={commentId}
              value={comment}
              maxLength={2000}
              disabled={confirm.isPending}
              onChange={(event) => setComment(event.target.value)}
              placeholder="Optional"
              className="min-h-20"
            />
          </div>
          {refused?.message && (
            <p role="alert" className="text-sm text-destructive" data-testid="approval-link-error">
              {refused.message}
            </p>
          )}
          <Button
            type="submit"
            size="lg"
            variant={approving ? 'default' : 'destructive'}
            className="h-12 w-full text-base sm:h-10 sm:text-sm"
            disabled={confirm.isPending}
          >
            {confirm.isPending && <Spinner />}
            {approving ? 'Approve' : 'Reject'}
          </Button>
        </form>
      )}
    </Card>
  );
}

/** /approvals/email/:token, signed in or out. */
export function ApprovalLinkPage() {
  useDocumentTitle('Approval');
  const { token = '' } = useParams();
  const view = useQuery({
    queryKey: queryKeys.approvalLink(token),
    queryFn: () => api.call(endpoints.approvalLinks.get, { params: { token } }),
    enabled: !!token,
    retry: false,
    // Deciding changes it; it is read once.
    staleTime: Infinity,
  });

  let body: ReactNode;
  if (view.isLoading) body = <FullPageSpinner />;
  else if (view.data) body = <Confirmation token={token} view={view.data} />;
  else
    body = (
      <Notice tone="gone" title={getErrorMessage(view.error, 'The link could not be opened. Try again.')}>
        Approvals that still wait for you are in the Inbox once you sign in to Crewline.
      </Notice>
    );
  return <Frame>{body}</Frame>;
}
