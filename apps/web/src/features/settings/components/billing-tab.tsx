import type { Organization } from '@crewline/contracts';
import { CreditCard, Receipt, Sparkles } from 'lucide-react';
import { Link } from 'react-router';

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
import { formatDate } from '@/lib/format';

import { billingStatus, PLAN_PRICES, planLabel } from '../settings-tabs';
import { comingSoon } from './details';

/** Billing: the organization's plan and trial, with the ways to change them. */
export function BillingTab({ organization }: { organization: Organization }) {
  const status = billingStatus(organization);
  const price = PLAN_PRICES[organization.plan];

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <CreditCard className="size-4 text-muted-foreground" aria-hidden="true" />
            Subscription
          </CardTitle>
          <CardDescription>Plans are billed per organization, not per user</CardDescription>
          <CardAction>
            {status.kind === 'trialing' ? (
              <StatusBadge label="Trial" tone="blue" />
            ) : status.kind === 'trial_ended' ? (
              <StatusBadge label="Trial ended" tone="yellow" />
            ) : null}
          </CardAction>
        </CardHeader>
        <CardContent className="space-y-5">
          <div className="flex flex-wrap items-end justify-between gap-4 rounded-xl border bg-muted/40 p-4">
            <div>
              <p className="text-sm text-muted-foreground">Current plan</p>
              <p className="text-2xl font-semibold tracking-tight">{planLabel(organization.plan)}</p>
            </div>
            {price !== undefined && (
              <p className="text-sm text-muted-foreground">
                <span className="text-xl font-semibold text-foreground">${price}</span> / month
              </p>
            )}
          </div>
          <p className="text-sm text-muted-foreground">
            {status.kind === 'trialing'
              ? `Your free trial ends on ${formatDate(status.trialEnd)}.`
              : status.kind === 'trial_ended'
                ? `Your free trial ended on ${formatDate(status.trialEnd)}.`
                : `${organization.name} is on the ${planLabel(organization.plan)} plan.`}
          </p>
          {status.kind !== 'trialing' && organization.plan === 'starter' && (
            <div className="flex items-start gap-3 rounded-lg border border-primary/20 bg-primary/5 p-4">
              <Sparkles className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
              <div className="space-y-1 text-sm">
                <p className="font-medium">Try Professional free for 14 days</p>
                <p className="text-muted-foreground">
                  Unlimited agents, 10,000 monthly executions, advanced analytics and priority support.
                </p>
              </div>
            </div>
          )}
        </CardContent>
        <CardFooter className="flex-wrap gap-2 border-t">
          <Button asChild>
            <Link to="/subscribe">Manage Billing</Link>
          </Button>
          {status.kind !== 'trialing' && (
            <Button asChild variant="outline">
              <Link to="/subscribe?plan=professional">Start Trial</Link>
            </Button>
          )}
        </CardFooter>
      </Card>

      <Card className="self-start">
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Receipt className="size-4 text-muted-foreground" aria-hidden="true" />
            Billing history
          </CardTitle>
          <CardDescription>Invoices and payments of your organization</CardDescription>
        </CardHeader>
        <CardFooter>
          <Button variant="outline" onClick={() => comingSoon('Billing history')}>
            View History
          </Button>
        </CardFooter>
      </Card>
    </div>
  );
}
