import { Mail } from 'lucide-react';

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

/**
 * Microsoft 365. The sign-in flow ships together with email triggers; until then
 * the card says so instead of pretending to connect.
 */
export function MicrosoftCard() {
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
        <CardAction className="col-start-3 row-span-1 self-center">
          <StatusBadge label="Not Connected" tone="gray" />
        </CardAction>
      </CardHeader>
      <CardContent className="space-y-3 text-sm text-muted-foreground">
        <p>
          Connect a Microsoft 365 mailbox and email-triggered workflows run when a matching message arrives.
          Crewline will ask for the <span className="font-mono text-foreground">Mail.Read</span> and{' '}
          <span className="font-mono text-foreground">Mail.ReadWrite</span> permissions.
        </p>
      </CardContent>
      <CardFooter className="flex-col items-start gap-3 border-t sm:flex-row sm:items-center sm:justify-between [.border-t]:pt-5">
        <p id="microsoft-365-note" className="text-xs text-muted-foreground">
          The Microsoft 365 integration arrives with email triggers.
        </p>
        <Button variant="outline" size="sm" disabled aria-describedby="microsoft-365-note">
          Connect
        </Button>
      </CardFooter>
    </Card>
  );
}
