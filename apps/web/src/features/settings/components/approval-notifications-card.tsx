import { BellRing } from 'lucide-react';
import { useId, useState } from 'react';

import { FormBanner } from '@/components/form-dialog-parts';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { parseApiError } from '@/lib/api';

import { useOrganizationSettings, useUpdateOrganizationSettings } from '../api/organization-settings';

export const APPROVAL_NOTIFICATIONS_HELP =
  'Crewline posts a message to this URL when an approval waits, and a reminder halfway to its timeout. Slack and Microsoft Teams incoming webhook URLs work as they are.';
export const APPROVAL_NOTIFICATIONS_READ_ONLY = 'Only owners and admins can change the notification URL.';
const SAVE_FAILED = 'The notification URL could not be saved. Try again.';
const NONE = 'No notification URL: approvers hear of approvals by email and in the Inbox.';

/**
 * Settings → Organization: where approvals are posted (a Slack or Teams channel's incoming webhook).
 * The URL holds the webhook's secret, so once saved it is shown only as its origin; admins and owners
 * replace or remove it, members see where approvals go.
 */
export function ApprovalNotificationsCard({ manager }: { manager: boolean }) {
  const settings = useOrganizationSettings();
  const update = useUpdateOrganizationSettings();
  const [draft, setDraft] = useState('');
  const [banner, setBanner] = useState<string | null>(null);
  const fieldId = useId();
  const saved = settings.data?.approvalNotificationUrl ?? null;

  const change = (approvalNotificationUrl: string | null) => {
    setBanner(null);
    update.mutate(
      { approvalNotificationUrl },
      {
        onSuccess: () => {
          setDraft('');
          toast({ title: approvalNotificationUrl ? 'Notification URL saved' : 'Notification URL removed' });
        },
        onError: (error) => setBanner(parseApiError(error).message ?? SAVE_FAILED),
      },
    );
  };

  const current = saved ? (
    <p className="text-sm">
      Approvals are posted to <span className="break-all font-mono">{saved}</span>
    </p>
  ) : (
    <p className="text-sm">{NONE}</p>
  );

  return (
    <Card data-testid="approval-notifications-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <BellRing className="size-4 text-muted-foreground" aria-hidden="true" />
          Approval notifications
        </CardTitle>
        <CardDescription>{APPROVAL_NOTIFICATIONS_HELP}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {settings.isPending ? (
          <Skeleton className="h-10 w-full" />
        ) : settings.isError ? (
          <FormBanner message="The notification URL could not be loaded." />
        ) : manager ? (
          <form
            className="grid gap-3"
            onSubmit={(event) => {
              event.preventDefault();
              change(draft.trim());
            }}
          >
            <FormBanner message={banner} />
            {current}
            <div className="grid gap-2">
              <Label htmlFor={fieldId}>{saved ? 'New notification URL' : 'Notification URL'}</Label>
              <Input
                id={fieldId}
                type="url"
                value={draft}
                onChange={(event) => setDraft(event.target.value)}
                placeholder="https://hooks.slack.com/services/…"
                spellCheck={false}
                autoCapitalize="none"
                autoComplete="off"
                className="font-mono"
              />
            </div>
            <div className="flex flex-wrap gap-2">
              <Button type="submit" size="sm" disabled={draft.trim() === '' || update.isPending}>
                {update.isPending ? 'Saving…' : 'Save'}
              </Button>
              {saved && (
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  disabled={update.isPending}
                  onClick={() => change(null)}
                >
                  Remove
                </Button>
              )}
            </div>
          </form>
        ) : (
          <>
            {current}
            <p className="text-sm text-muted-foreground">{APPROVAL_NOTIFICATIONS_READ_ONLY}</p>
          </>
        )}
      </CardContent>
    </Card>
  );
}
