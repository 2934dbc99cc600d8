// The one answer to a 402 plan_limit (Create Agent, Execute, Invite Member): the server's message
// with an 'Upgrade' link to /subscribe, as an alert inside the dialog of the refused action.
import { Sparkles } from 'lucide-react';
import { Link } from 'react-router';

import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { subscribePath, upgradeTarget, type PlanLimitInfo } from '@/lib/billing';

const PLAN_LIMIT_TITLE = 'Plan limit reached';

/**
 * Inside the dialog whose action was refused (a modal dialog blocks the toasts behind it), so what
 * was typed stays and the way to upgrade is one click away.
 */
export function PlanLimitAlert({ info }: { info: PlanLimitInfo | null }) {
  if (!info) return null;
  return (
    <Alert className="border-amber-500/40 bg-amber-500/5">
      <Sparkles className="text-amber-600 dark:text-amber-400" aria-hidden="true" />
      <AlertTitle>{PLAN_LIMIT_TITLE}</AlertTitle>
      <AlertDescription className="gap-3">
        <p>{info.message}</p>
        <Button asChild size="sm">
          <Link to={subscribePath(upgradeTarget(info.plan))}>Upgrade</Link>
        </Button>
      </AlertDescription>
    </Alert>
  );
}
