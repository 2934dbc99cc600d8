import { useQueryClient } from '@tanstack/react-query';
import { Loader2, Mail } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';

import { StatusBadge } from '@/components/status-badge';
import { Button } from '@/components/ui/button';
import {
  Card,
  CardAction,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { parseApiError } from '@/lib/api';
import { openOAuthPopup, type OAuthPopup } from '@/lib/oauth-popup';
import { queryKeys } from '@/lib/queries/keys';
import { useMicrosoftStatus } from '@/lib/queries/microsoft';

import {
  isMicrosoftConnectedMessage,
  startMicrosoftConnection,
  useDisconnectMicrosoft,
} from '../api/microsoft';

/**
 * Microsoft 365: connects the organization's mailbox through Microsoft's sign-in in a popup. The
 * popup lands on the server's callback page, which posts `microsoft_connected` back to this window.
 */
export function MicrosoftCard({ readOnlyReason = null }: { readOnlyReason?: string | null } = {}) {
  const queryClient = useQueryClient();
  const status = useMicrosoftStatus();
  const disconnect = useDisconnectMicrosoft();
  const [connecting, setConnecting] = useState(false);
  const pending = useRef<OAuthPopup | null>(null);

  useEffect(() => () => pending.current?.stop(), []);

  const data = status.data;
  const configured = data?.configured ?? false;
  const connected = data?.connected === true;
  const broken = connected && data?.broken === true;

  async function connect() {
    pending.current?.stop();
    setConnecting(true);
    let authUrl: string;
    try {
      ({ authUrl } = await startMicrosoftConnection());
    } catch (error) {
      setConnecting(false);
      toast({
        variant: 'destructive',
        title: 'Connection Failed',
        description: parseApiError(error).message ?? 'Failed to initiate Microsoft connection',
      });
      return;
    }
    const handle = openOAuthPopup(authUrl, 'microsoft-auth', isMicrosoftConnectedMessage, {
      onAnswer(message) {
        if (message.success) {
          toast({
            title: 'Microsoft 365 Connected',
            description: 'Email monitoring is now active for your workflows',
          });
        } else {
          toast({
            variant: 'destructive',
            title: 'Connection Failed',
            description: message.message || 'Failed to initiate Microsoft connection',
          });
        }
        void queryClient.invalidateQueries({ queryKey: queryKeys.microsoftStatus });
      },
      onEnd() {
        if (pending.current === handle) pending.current = null;
        setConnecting(false);
      },
    });
    if (!handle) {
      setConnecting(false);
      toast({
        variant: 'destructive',
        title: 'Connection Failed',
        description: 'The sign-in window was blocked: allow pop-ups for this site and try again.',
      });
      return;
    }
    pending.current = handle;
  }

  function onDisconnect() {
    disconnect.mutate(undefined, {
      onSuccess: () =>
        toast({ title: 'Microsoft 365 Disconnected', description: 'Email monitoring has been disabled' }),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Disconnect Failed',
          description: parseApiError(error).message ?? 'Failed to disconnect Microsoft account',
        }),
    });
  }

  const badge = status.isPending ? (
    <StatusBadge label="Checking…" tone="gray" />
  ) : broken ? (
    <StatusBadge label="Reconnect needed" tone="yellow" />
  ) : connected ? (
    <StatusBadge label="Connected" tone="green" />
  ) : (
    <StatusBadge label="Not Connected" tone="gray" />
  );

  const note = status.isError
    ? 'Could not read the connection status.'
    : !status.isPending && !configured
      ? 'Not configured on this server: an administrator sets MICROSOFT_CLIENT_ID and MICROSOFT_CLIENT_SECRET.'
      : broken
        ? 'Microsoft no longer accepts this sign-in. Reconnect to resume email monitoring.'
        : connected
          ? 'Email-triggered workflows read this inbox.'
          : 'You sign in with Microsoft in a small window.';

  return (
    <Card role="region" aria-labelledby="microsoft-365-title" className="gap-5">
      <CardHeader className="gap-x-3 has-data-[slot=card-action]:grid-cols-[auto_minmax(0,1fr)_auto]">
        <span className="row-span-2 grid size-10 place-items-center rounded-lg bg-sky-500/10 text-sky-600 dark:text-sky-400">
          <Mail className="size-5" aria-hidden="true" />
        </span>
        <CardTitle id="microsoft-365-title" className="self-center">
          Microsoft 365
        </CardTitle>
        <CardDescription className="col-span-2 col-start-2">
          Start workflows from incoming Outlook email
        </CardDescription>
        <CardAction className="col-start-3 row-span-1 self-center">{badge}</CardAction>
      </CardHeader>
      <CardContent className="space-y-3 text-sm text-muted-foreground">
        {connected && data?.account ? (
          <dl className="grid gap-1 rounded-lg border bg-muted/40 px-3 py-2.5">
            <dt className="sr-only">Account</dt>
            <dd className="truncate font-medium text-foreground">
              {data.account.name || data.account.email}
            </dd>
            {data.account.name && data.account.email && (
              <dd className="truncate font-mono text-xs">{data.account.email}</dd>
            )}
          </dl>
        ) : (
          <p>
            Connect a Microsoft 365 mailbox and email-triggered workflows run when a matching message arrives.
            Crewline will ask for the <span className="font-mono text-foreground">Mail.Read</span> and{' '}
            <span className="font-mono text-foreground">Mail.ReadWrite</span> permissions.
          </p>
        )}
      </CardContent>
      <CardFooter className="flex-col items-start gap-3 border-t sm:flex-row sm:items-center sm:justify-between [.border-t]:pt-5">
        <p id="microsoft-365-note" className="text-xs text-muted-foreground">
          {note}
        </p>
        <div className="flex shrink-0 gap-2">
          {connected && (
            <Button
              variant="outline"
              size="sm"
              onClick={onDisconnect}
              disabled={disconnect.isPending || Boolean(readOnlyReason)}
              title={readOnlyReason ?? undefined}
              aria-describedby="microsoft-365-note"
            >
              {disconnect.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
              Disconnect
            </Button>
          )}
          {(!connected || broken) && (
            <Button
              variant={broken ? 'default' : 'outline'}
              size="sm"
              onClick={() => void connect()}
              disabled={!configured || connecting || Boolean(readOnlyReason)}
              title={readOnlyReason ?? undefined}
              aria-describedby="microsoft-365-note"
            >
              {connecting && <Loader2 className="animate-spin" aria-hidden="true" />}
              {broken ? 'Reconnect' : 'Connect'}
            </Button>
          )}
        </div>
      </CardFooter>
    </Card>
  );
}
