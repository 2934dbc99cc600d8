import type { Organization, SubscriptionStatusResponse } from '@crewline/contracts';
import { AlertTriangle, Bot, CreditCard, Database, Play, Receipt, Sparkles, Users } from 'lucide-react';
import type { ComponentType } from 'react';
import { useState } from 'react';
import { Link } from 'react-router';

import { StatusBadge } from '@/components/status-badge';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
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
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import {
  canManageBilling,
  canViewInvoices,
  OWNER_ONLY_BILLING,
  INVOICES_NEED_ADMIN,
  planName,
  STATUS_TONES,
  statusLabel,
  storageMeter,
  subscribePath,
  trialAvailable,
  TRIAL_USED_TEXT,
  usageMeter,
  type UsageMeter,
} from '@/lib/billing';
import { getErrorMessage } from '@/lib/api';
import { useSubscription } from '@/lib/queries/subscription';
import { cn } from '@/lib/utils';

import { intervalPrice, periodDetail, trialEndText } from '@/lib/billing-texts';
import { InvoicesDialog } from './invoices-dialog';

const METER_TONE = {
  ok: '',
  warn: '[&_[data-slot=progress-indicator]]:bg-amber-500',
  full: '[&_[data-slot=progress-indicator]]:bg-destructive',
} as const;

function Meter({
  icon: Icon,
  label,
  meter,
}: {
  icon: ComponentType<{ className?: string }>;
  label: string;
  meter: UsageMeter;
}) {
  return (
    <div className="space-y-2" data-testid={`usage-${label.toLowerCase().replace(/\s+/g, '-')}`}>
      <div className="flex items-center justify-between gap-3 text-sm">
        <span className="flex items-center gap-2 font-medium">
          <Icon className="size-4 text-muted-foreground" />
          {label}
        </span>
        <span
          className={cn(
            'tabular-nums',
            meter.level === 'full'
              ? 'font-medium text-destructive'
              : meter.level === 'warn'
                ? 'font-medium text-amber-700 dark:text-amber-400'
                : 'text-muted-foreground',
          )}
        >
          {meter.label}
        </span>
      </div>
      <Progress
        value={meter.percent ?? 0}
        aria-label={`${label}: ${meter.label}`}
        className={cn(meter.percent === null && 'opacity-40', METER_TONE[meter.level])}
      />
    </div>
  );
}

function UsageWarning({ meters }: { meters: { label: string; meter: UsageMeter }[] }) {
  const full = meters.filter((m) => m.meter.level === 'full');
  const warn = meters.filter((m) => m.meter.level === 'warn');
  if (full.length === 0 && warn.length === 0) return null;
  const names = (list: typeof meters) => list.map((m) => m.label.toLowerCase()).join(', ');
  return (
    <Alert
      variant={full.length > 0 ? 'destructive' : 'default'}
      className={cn(full.length === 0 && 'border-amber-500/40')}
    >
      <AlertTriangle aria-hidden="true" />
      <AlertTitle>{full.length > 0 ? 'Plan limit reached' : 'Approaching your plan limit'}</AlertTitle>
      <AlertDescription>
        {full.length > 0
          ? `You have reached the limit for ${names(full)}. Upgrade your plan to add more.`
          : `You have used 80 % or more of your ${names(warn)}. Consider upgrading your plan.`}
      </AlertDescription>
    </Alert>
  );
}

function SubscriptionCard({
  subscription,
  canChange,
}: {
  subscription: SubscriptionStatusResponse;
  /** Owners change the plan; everyone else reads it, told so before they try. */
  canChange: boolean;
}) {
  const { status, plan } = subscription;
  const trialText = trialEndText(subscription);
  const period = periodDetail(subscription);
  const meters = [
    { icon: Bot, label: 'Agents', meter: usageMeter(subscription.usage.agents, subscription.limits.agents) },
    {
      icon: Play,
      label: 'Runs this month',
      meter: usageMeter(subscription.usage.executionsThisMonth, subscription.limits.executionsPerMonth),
    },
    {
      icon: Users,
      label: 'Members',
      meter: usageMeter(subscription.usage.members, subscription.limits.members),
    },
    {
      icon: Database,
      label: 'Knowledge storage',
      meter: storageMeter(
        subscription.usage.knowledgeStorageBytes,
        subscription.limits.knowledgeStorageBytes,
      ),
    },
  ];
  const noSubscription = status === 'no_subscription';
  const canTry = trialAvailable(subscription);

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CreditCard className="size-4 text-muted-foreground" aria-hidden="true" />
          Subscription
        </CardTitle>
        <CardDescription>Plans are billed per organization, not per user</CardDescription>
        <CardAction>
          <StatusBadge label={statusLabel(status)} tone={STATUS_TONES[status]} />
        </CardAction>
      </CardHeader>
      <CardContent className="space-y-5">
        <div className="flex flex-wrap items-end justify-between gap-4 rounded-xl border bg-muted/40 p-4">
          <div>
            <p className="text-sm text-muted-foreground">Current plan</p>
            <p className="text-2xl font-semibold tracking-tight" data-testid="billing-plan">
              {noSubscription ? 'Free' : planName(plan)}
            </p>
          </div>
          {plan && !noSubscription && (
            <p className="text-right text-sm text-muted-foreground">
              <span className="text-xl font-semibold text-foreground">
                {intervalPrice(plan, subscription.interval).perMonth}
              </span>{' '}
              / month
              {subscription.interval === 'year' && (
                <span className="block text-xs">{intervalPrice(plan, 'year').perYear} billed yearly</span>
              )}
            </p>
          )}
        </div>
        <p className="text-sm text-muted-foreground" data-testid="billing-summary-text">
          {trialText
            ? trialText
            : noSubscription
              ? canTry
                ? 'Your organization is on the free tier. Start a 14-day trial to unlock more.'
                : TRIAL_USED_TEXT
              : period
                ? `${period.label}: ${period.value}.`
                : `${statusLabel(status)}.`}
          {subscription.pendingPlan &&
            ` Changes to ${planName(subscription.pendingPlan)} at the end of the period.`}
        </p>

        <div className="space-y-4">
          <h3 className="text-sm font-semibold">Usage</h3>
          {meters.map((m) => (
            <Meter key={m.label} icon={m.icon} label={m.label} meter={m.meter} />
          ))}
        </div>
        <UsageWarning meters={meters} />

        {canTry && (
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
          <Link to={noSubscription ? subscribePath('professional') : '/subscribe'}>
            {canTry ? 'Start Trial' : noSubscription ? 'Choose a Plan' : 'Manage Billing'}
          </Link>
        </Button>
        {!canChange && (
          <p className="text-xs text-muted-foreground" data-testid="billing-read-only">
            {OWNER_ONLY_BILLING}.
          </p>
        )}
      </CardFooter>
    </Card>
  );
}

/** Billing: the organization's plan, trial and usage against the plan's limits. */
export function BillingTab({ organization }: { organization: Organization }) {
  const subscription = useSubscription();
  const [historyOpen, setHistoryOpen] = useState(false);
  const mayViewInvoices = canViewInvoices(organization.role);

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      {subscription.data ? (
        <SubscriptionCard subscription={subscription.data} canChange={canManageBilling(organization.role)} />
      ) : subscription.isError ? (
        <Card>
          <CardHeader>
            <CardTitle>Subscription</CardTitle>
            <CardDescription>
              {getErrorMessage(
                subscription.error,
                `The subscription of ${organization.name} could not be loaded.`,
              )}
            </CardDescription>
          </CardHeader>
          <CardFooter className="gap-2">
            <Button variant="outline" onClick={() => void subscription.refetch()}>
              Try again
            </Button>
            <Button asChild variant="ghost">
              <Link to="/subscribe">Manage Billing</Link>
            </Button>
          </CardFooter>
        </Card>
      ) : (
        <Card aria-busy="true">
          <CardContent className="space-y-4">
            <Skeleton className="h-6 w-40" />
            <Skeleton className="h-20 w-full" />
            <Skeleton className="h-24 w-full" />
          </CardContent>
        </Card>
      )}

      <Card className="self-start">
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Receipt className="size-4 text-muted-foreground" aria-hidden="true" />
            Billing history
          </CardTitle>
          <CardDescription>Invoices and payments of your organization</CardDescription>
        </CardHeader>
        <CardFooter className="flex-wrap gap-3">
          <Button
            variant="outline"
            disabled={!mayViewInvoices}
            aria-describedby={mayViewInvoices ? undefined : 'billing-history-needs-admin'}
            onClick={() => setHistoryOpen(true)}
          >
            View History
          </Button>
          {!mayViewInvoices && (
            <p id="billing-history-needs-admin" className="text-xs text-muted-foreground">
              {INVOICES_NEED_ADMIN}
            </p>
          )}
        </CardFooter>
      </Card>
      {mayViewInvoices && (
        <InvoicesDialog
          open={historyOpen}
          onOpenChange={setHistoryOpen}
          organizationName={organization.name}
        />
      )}
    </div>
  );
}
