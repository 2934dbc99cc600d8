import type { BillingInterval, PlanId, SubscriptionStatusResponse } from '@crewline/contracts';
import {
  ArrowLeft,
  BadgeDollarSign,
  CalendarClock,
  Check,
  CreditCard,
  RefreshCcw,
  Repeat,
  ShieldCheck,
  XCircle,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';

import { ConfirmDialog } from '@/components/confirm-dialog';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Spinner } from '@/components/spinner';
import { StatusBadge } from '@/components/status-badge';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';
import { formatDate } from '@/lib/format';
import { useSubscription } from '@/lib/queries/subscription';
import { useAuth } from '@/lib/session';
import { useDocumentTitle } from '@/lib/use-document-title';

import { stripePublishableKey, useBillingConfig, useCreateSetupIntent } from '../api/billing-config';
import { useCancelSubscription, useCreateSubscription } from '../api/subscription';
import {
  canManageBilling,
  fromEpochSeconds,
  isPlanId,
  OWNER_ONLY_BILLING,
  parsePlanParam,
  PLAN_IDS,
  planDetails,
  planName,
  STATUS_TONES,
  statusLabel,
  TRIAL_USED_NO_PROVIDER_TEXT,
} from '@/lib/billing';
import { cn } from '@/lib/utils';
import { ChangePlanDialog, EnterpriseInvoiceChoice } from '../components/change-plan-dialog';
import { IntervalSwitch } from '../components/interval-switch';
import { LazyPaymentForm } from '../components/lazy-payment-form';
import {
  intervalAdverb,
  intervalPrice,
  parseIntervalParam,
  periodDetail,
  subscriptionCreatedToast,
  trialEndText,
} from '@/lib/billing-texts';
import { pendingPaymentFor, type PendingPayment as StripePendingPayment } from '../lib/stripe-payment';

export const NO_PAYMENT_PROVIDER_TEXT =
  'No payment provider is configured on this server yet. No card is needed during the trial.';

const SELLING_POINTS = [
  { icon: BadgeDollarSign, title: 'No Hidden Fees', text: 'One price per organization, not per seat.' },
  { icon: CalendarClock, title: '14-Day Trial', text: 'Every feature of the plan, free for 14 days.' },
  { icon: RefreshCcw, title: 'Cancel Anytime', text: 'Your plan runs to the end of the billing period.' },
] as const;

/** A subscription created with Stripe whose first payment or card still has to be confirmed. */
type PendingPayment = StripePendingPayment<PlanId>;
/** …with what was chosen, for the texts once it is confirmed. */
type SubscribePayment = PendingPayment & { interval: BillingInterval; trialStarted: boolean };

/**
 * New subscription: the plan, its features and the trial; after the organization's one trial, a paid
 * subscription from today (with Stripe), or why none can start (without a payment provider).
 */
function SubscribeView({
  plan,
  interval,
  onPlanChange,
  onIntervalChange,
  publishableKey,
  configPending,
  trialUsed,
  onPaymentRequired,
}: {
  plan: PlanId;
  interval: BillingInterval;
  onPlanChange: (plan: PlanId) => void;
  onIntervalChange: (interval: BillingInterval) => void;
  /** Set when Stripe collects payments: a client secret in the answer opens the payment form. */
  publishableKey: string | null;
  configPending: boolean;
  /** The organization had its trial: no second one is offered. */
  trialUsed: boolean;
  onPaymentRequired: (payment: SubscribePayment) => void;
}) {
  const details = planDetails(plan);
  const price = intervalPrice(plan, interval);
  const per = interval === 'year' ? `${price.perYear}/year` : `${price.perMonth}/month`;
  const create = useCreateSubscription();
  const [byInvoice, setByInvoice] = useState(false);
  const cannotPay = trialUsed && !configPending && !publishableKey;
  const payByInvoice = byInvoice && plan === 'enterprise' && Boolean(publishableKey);

  const start = () =>
    create.mutate(
      { plan, interval, payByInvoice },
      {
        onSuccess: (answer) => {
          const payment = pendingPaymentFor(answer, publishableKey, plan);
          if (payment) {
            onPaymentRequired({ ...payment, interval, trialStarted: !trialUsed });
            return;
          }
          toast(subscriptionCreatedToast({ plan, interval, trialStarted: !trialUsed }));
        },
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Setup Error',
            description: getErrorMessage(error, 'Failed to setup subscription'),
          }),
      },
    );

  return (
    <PageContainer className="max-w-3xl space-y-8">
      <div className="space-y-2 text-center">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Subscribe to {details.name}</h1>
        <p className="text-muted-foreground">
          {cannotPay
            ? 'Plans are billed per organization. You can change or cancel your plan at any time.'
            : trialUsed
              ? 'Your organization has used its free trial: the plan is billed from today. You can change or cancel it at any time.'
              : 'Start with a 14-day free trial. You can change or cancel your plan at any time.'}
        </p>
      </div>

      <div className="flex flex-col items-center gap-3">
        <IntervalSwitch value={interval} onChange={onIntervalChange} disabled={create.isPending} />
        <div role="radiogroup" aria-label="Plans" className="inline-flex flex-wrap justify-center gap-2">
          {PLAN_IDS.map((id) => (
            <button
              key={id}
              type="button"
              role="radio"
              aria-checked={id === plan}
              disabled={create.isPending}
              onClick={() => onPlanChange(id)}
              className={cn(
                'rounded-lg border px-3.5 py-1.5 text-sm font-medium transition-colors outline-none hover:bg-muted/50 focus-visible:ring-[3px] focus-visible:ring-ring/50',
                id === plan && 'border-primary bg-primary/5 text-primary ring-1 ring-primary',
              )}
            >
              {planName(id)}
            </button>
          ))}
        </div>
      </div>

      <Card className={details.popular ? 'border-violet-500/50 ring-1 ring-violet-500/30' : undefined}>
        <CardHeader>
          <CardTitle className="flex flex-wrap items-center gap-2 text-xl">
            {details.name}
            {details.popular && (
              <Badge className="border-transparent bg-linear-to-r from-violet-600 to-indigo-500 text-white">
                Most Popular
              </Badge>
            )}
          </CardTitle>
          <CardDescription>
            {cannotPay
              ? `Billed ${intervalAdverb(interval)} per organization`
              : trialUsed
                ? `Billed ${intervalAdverb(interval)} per organization, from today`
                : `Billed ${intervalAdverb(interval)} per organization, after the trial`}
          </CardDescription>
          <CardAction>
            <p className="text-right" data-testid="plan-price">
              <span className="text-3xl font-semibold tracking-tight">{price.perMonth}</span>
              <span className="text-sm text-muted-foreground">/month</span>
              {interval === 'year' && (
                <span className="block text-xs text-muted-foreground">{price.perYear} billed yearly</span>
              )}
            </p>
          </CardAction>
        </CardHeader>
        <CardContent className="space-y-6">
          <ul className="grid gap-2.5 text-sm sm:grid-cols-2" aria-label={`${details.name} features`}>
            {details.features.map((feature) => (
              <li key={feature} className="flex gap-2.5">
                <Check
                  className="mt-0.5 size-4 shrink-0 text-violet-600 dark:text-violet-400"
                  aria-hidden="true"
                />
                <span>{feature}</span>
              </li>
            ))}
          </ul>
          <div className="space-y-3 border-t pt-6">
            {plan === 'enterprise' && (
              <EnterpriseInvoiceChoice
                id="subscribe-pay-by-invoice"
                withProvider={Boolean(publishableKey)}
                byInvoice={byInvoice}
                onChange={setByInvoice}
                disabled={create.isPending}
              />
            )}
            {cannotPay ? (
              <Alert>
                <CreditCard aria-hidden="true" />
                <AlertDescription>{TRIAL_USED_NO_PROVIDER_TEXT}</AlertDescription>
              </Alert>
            ) : (
              <Button
                size="lg"
                className="w-full"
                onClick={start}
                disabled={create.isPending || configPending}
                aria-busy={create.isPending}
              >
                {create.isPending && <Spinner />}
                {create.isPending
                  ? 'Processing...'
                  : trialUsed
                    ? `Subscribe for ${per}`
                    : 'Start 14-Day Trial'}
              </Button>
            )}
            {!cannotPay && (
              <p className="flex items-center justify-center gap-2 text-center text-xs text-muted-foreground">
                <ShieldCheck
                  className="size-3.5 shrink-0 text-emerald-600 dark:text-emerald-400"
                  aria-hidden="true"
                />
                {payByInvoice
                  ? `Stripe emails an invoice for ${per}, due within 30 days; cancel at any time.`
                  : trialUsed
                    ? `The card pays ${per} from today; cancel at any time.`
                    : `No card needed for the trial. Without a payment method the organization moves to the Free plan when it ends; with one, it is billed ${per}.`}
              </p>
            )}
          </div>
        </CardContent>
      </Card>

      <ul className={trialUsed ? 'grid gap-4 sm:grid-cols-2' : 'grid gap-4 sm:grid-cols-3'}>
        {SELLING_POINTS.filter((point) => !trialUsed || point.title !== '14-Day Trial').map(
          ({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-xl border bg-card p-4 text-center">
              <Icon className="mx-auto size-5 text-primary" aria-hidden="true" />
              <p className="mt-2 font-medium">{title}</p>
              <p className="mt-1 text-sm text-muted-foreground">{text}</p>
            </li>
          ),
        )}
      </ul>
    </PageContainer>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="space-y-1">
      <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{label}</dt>
      <dd className="text-sm font-medium">{children}</dd>
    </div>
  );
}

/** An owner-only action: disabled with the reason for everyone else. */
function OwnerOnly({ allowed, children }: { allowed: boolean; children: ReactNode }) {
  if (allowed) return <>{children}</>;
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        {/* A disabled button gets no pointer events: the wrapper carries the tooltip. */}
        <span tabIndex={0} className="inline-flex w-full sm:w-auto" aria-label={OWNER_ONLY_BILLING}>
          {children}
        </span>
      </TooltipTrigger>
      <TooltipContent>{OWNER_ONLY_BILLING}</TooltipContent>
    </Tooltip>
  );
}

/** After create-subscription with Stripe: the card for the trial, or the first payment. */
function PaymentStepView({ payment, onFinished }: { payment: SubscribePayment; onFinished: () => void }) {
  const price = intervalPrice(payment.plan, payment.interval);
  const per = payment.interval === 'year' ? `${price.perYear}/year` : `${price.perMonth}/month`;
  const details = planDetails(payment.plan);
  const setup = payment.mode === 'setup';

  const done = () => {
    toast(subscriptionCreatedToast(payment));
    onFinished();
  };

  return (
    <PageContainer className="max-w-xl space-y-6">
      <div className="space-y-2 text-center">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">
          {setup ? 'Add a Payment Method' : `Pay for ${details.name}`}
        </h1>
        <p className="text-muted-foreground">
          {setup
            ? `Your trial has started. You are billed ${per} only after it ends.`
            : `${per}, billed per organization.`}
        </p>
      </div>
      <Card>
        <CardContent className="pt-6">
          <LazyPaymentForm
            publishableKey={payment.publishableKey}
            clientSecret={payment.clientSecret}
            mode={payment.mode}
            onDone={done}
          />
        </CardContent>
      </Card>
      {setup && (
        <p className="text-center text-sm">
          <Button variant="link" onClick={onFinished}>
            Add it later
          </Button>
        </p>
      )}
    </PageContainer>
  );
}

/** Existing trial or subscription: the plan and what can be done with it. */
function ManageView({
  subscription,
  publishableKey,
  requestedPlan,
  requestedInterval,
}: {
  subscription: SubscriptionStatusResponse;
  publishableKey: string | null;
  /** /subscribe?plan=…: Change Plan opens with it chosen (for the owner). */
  requestedPlan: PlanId | null;
  requestedInterval: BillingInterval | null;
}) {
  const { organization } = useAuth();
  const isOwner = canManageBilling(organization?.role);
  const cancel = useCancelSubscription();
  const setupIntent = useCreateSetupIntent();
  const [changeOpen, setChangeOpen] = useState(() => Boolean(requestedPlan && isOwner));
  const [cancelOpen, setCancelOpen] = useState(false);
  /** The SetupIntent's client secret while the Update Payment Method dialog is open. */
  const [cardSecret, setCardSecret] = useState<string | null>(null);

  const updatePaymentMethod = () => {
    if (!publishableKey) {
      toast({ title: 'No payment provider', description: NO_PAYMENT_PROVIDER_TEXT });
      return;
    }
    setupIntent.mutate(undefined, {
      onSuccess: (answer) => setCardSecret(answer.clientSecret),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Error',
          description: getErrorMessage(error, 'Failed to start updating the payment method'),
        }),
    });
  };

  const cardSaved = () => {
    setCardSecret(null);
    toast({ title: 'Payment Method Updated', description: 'Your new payment method is saved.' });
  };

  const plan = subscription.plan ?? 'professional';
  const details = planDetails(plan);
  const price = intervalPrice(plan, subscription.interval);
  const trialEnd = fromEpochSeconds(subscription.trialEnd);
  const periodEnd = fromEpochSeconds(subscription.currentPeriodEnd);
  const canceled = subscription.status === 'canceled';
  const trialText = trialEndText(subscription);
  const period = periodDetail(subscription);

  const confirmCancel = () =>
    cancel.mutate(undefined, {
      onSuccess: () => {
        setCancelOpen(false);
        toast({
          title: 'Subscription Cancelled',
          description: 'Your subscription will end at the current billing period.',
        });
      },
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Error',
          description: getErrorMessage(error, 'Failed to cancel subscription'),
        }),
    });

  return (
    <PageContainer className="max-w-4xl space-y-6">
      <Button asChild variant="ghost" size="sm" className="-ml-2">
        <Link to="/dashboard">
          <ArrowLeft aria-hidden="true" />
          Back to Dashboard
        </Link>
      </Button>
      <PageHeader title="Billing Management" description="Your organization's plan, trial and billing" />

      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <CreditCard className="size-4 text-muted-foreground" aria-hidden="true" />
              Current Plan
            </CardTitle>
            <CardDescription>Billed per organization, not per user</CardDescription>
            <CardAction>
              <StatusBadge
                label={statusLabel(subscription.status)}
                tone={STATUS_TONES[subscription.status]}
              />
            </CardAction>
          </CardHeader>
          <CardContent className="space-y-5">
            <div className="flex flex-wrap items-end justify-between gap-4 rounded-xl border bg-muted/40 p-4">
              <div>
                <p className="text-sm text-muted-foreground">Plan</p>
                <p className="text-2xl font-semibold tracking-tight" data-testid="current-plan">
                  {details.name}
                </p>
              </div>
              <p className="text-sm text-muted-foreground">
                <span className="text-xl font-semibold text-foreground">{price.perMonth}</span> / month
                {subscription.interval === 'year' && (
                  <span className="block text-xs">{price.perYear} billed yearly</span>
                )}
              </p>
            </div>
            <dl className="grid gap-4 sm:grid-cols-2">
              <Detail label="Status">{statusLabel(subscription.status)}</Detail>
              <Detail label="Billing">{subscription.interval === 'year' ? 'Yearly' : 'Monthly'}</Detail>
              <Detail label="Payment">
                {subscription.paymentMethod === 'invoice'
                  ? 'By invoice'
                  : subscription.paymentMethod === 'saved'
                    ? 'Saved payment method'
                    : 'No payment method'}
              </Detail>
              {trialEnd && <Detail label="Trial Ends">{formatDate(trialEnd)}</Detail>}
              {period && <Detail label={period.label}>{period.value}</Detail>}
            </dl>
            {trialText && (
              <p className="text-sm text-muted-foreground" data-testid="trial-end-text">
                {trialText}
              </p>
            )}
            {subscription.cancelAtPeriodEnd && (
              <Alert>
                <XCircle aria-hidden="true" />
                <AlertDescription>
                  Your subscription is cancelled and ends on{' '}
                  {formatDate(periodEnd ?? trialEnd, 'the end of the period')}. You keep {details.name} until
                  then.
                </AlertDescription>
              </Alert>
            )}
            {subscription.pendingPlan && (
              <Alert>
                <Repeat aria-hidden="true" />
                <AlertDescription>
                  Your plan changes to {planName(subscription.pendingPlan)} on{' '}
                  {formatDate(periodEnd, 'the end of the billing period')}.
                </AlertDescription>
              </Alert>
            )}
          </CardContent>
        </Card>

        <Card className="self-start">
          <CardHeader>
            <CardTitle>Billing Actions</CardTitle>
            <CardDescription>
              {isOwner ? 'Change or cancel your plan' : 'Only the organization owner can change billing'}
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-2">
            {/* Without a provider it only explains; with Stripe it is an owner's action. */}
            <OwnerOnly allowed={!publishableKey || isOwner}>
              <Button
                variant="outline"
                className="w-full justify-start"
                disabled={(Boolean(publishableKey) && !isOwner) || setupIntent.isPending}
                aria-busy={setupIntent.isPending}
                onClick={updatePaymentMethod}
              >
                {setupIntent.isPending ? <Spinner /> : <CreditCard aria-hidden="true" />}
                Update Payment Method
              </Button>
            </OwnerOnly>
            <OwnerOnly allowed={isOwner}>
              <Button
                variant="outline"
                className="w-full justify-start"
                disabled={!isOwner}
                onClick={() => setChangeOpen(true)}
              >
                <Repeat aria-hidden="true" />
                Change Plan
              </Button>
            </OwnerOnly>
            <OwnerOnly allowed={isOwner}>
              <Button
                variant="outline"
                className="w-full justify-start text-destructive hover:text-destructive"
                disabled={!isOwner || subscription.cancelAtPeriodEnd || canceled}
                onClick={() => setCancelOpen(true)}
              >
                <XCircle aria-hidden="true" />
                Cancel Subscription
              </Button>
            </OwnerOnly>
            {(subscription.cancelAtPeriodEnd || canceled) && isOwner && (
              <p className="text-xs text-muted-foreground">
                Cancelled. Choose a plan with Change Plan to continue after the period ends.
              </p>
            )}
          </CardContent>
        </Card>
      </div>

      <ChangePlanDialog
        open={changeOpen}
        onOpenChange={setChangeOpen}
        subscription={subscription}
        initialPlan={requestedPlan}
        initialInterval={requestedInterval}
      />
      <Dialog open={cardSecret !== null} onOpenChange={(open) => !open && setCardSecret(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Update Payment Method</DialogTitle>
            <DialogDescription>The new card is used for your next invoices.</DialogDescription>
          </DialogHeader>
          {publishableKey && cardSecret && (
            <LazyPaymentForm
              publishableKey={publishableKey}
              clientSecret={cardSecret}
              mode="setup"
              onDone={cardSaved}
            />
          )}
        </DialogContent>
      </Dialog>
      <ConfirmDialog
        title="Cancel your subscription?"
        description={`Your organization keeps the ${details.name} plan until the end of the current billing period, then moves to the free tier (3 agents, 100 executions a month).`}
        open={cancelOpen}
        onOpenChange={setCancelOpen}
        pending={cancel.isPending}
        onConfirm={confirmCancel}
        confirmLabel="Cancel Subscription"
        pendingLabel="Cancelling..."
        variant="destructive"
      />
    </PageContainer>
  );
}

function SubscribeSkeleton() {
  return (
    <PageContainer className="max-w-4xl space-y-6">
      <Skeleton className="h-9 w-64" />
      <Skeleton className="h-72 w-full" />
    </PageContainer>
  );
}

/** /subscribe?plan=…: start a trial, or manage the organization's subscription. */
export function SubscribePage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const plan = parsePlanParam(searchParams.get('plan'));
  const interval = parseIntervalParam(searchParams.get('interval'));
  const requested = searchParams.get('plan')?.trim().toLowerCase();
  // The choice lives in the URL, so a link (the landing's ?plan=enterprise) or a reload keeps it.
  const choose = (next: { plan?: PlanId; interval?: BillingInterval }) =>
    setSearchParams(
      (params) => {
        if (next.plan) params.set('plan', next.plan);
        if (next.interval) params.set('interval', next.interval);
        return params;
      },
      { replace: true },
    );
  const subscription = useSubscription();
  const config = useBillingConfig();
  const publishableKey = stripePublishableKey(config.data);
  // Kept here: creating the subscription turns this page into the management view underneath.
  const [payment, setPayment] = useState<SubscribePayment | null>(null);
  const isNew = subscription.data?.status === 'no_subscription';
  useDocumentTitle(
    payment
      ? `Subscribe to ${planName(payment.plan)}`
      : isNew
        ? `Subscribe to ${planName(plan)}`
        : 'Billing Management',
  );

  if (payment) return <PaymentStepView payment={payment} onFinished={() => setPayment(null)} />;
  if (subscription.isPending) return <SubscribeSkeleton />;
  if (subscription.isError || !subscription.data) {
    return (
      <PageContainer className="max-w-3xl">
        <Alert variant="destructive">
          <XCircle aria-hidden="true" />
          <AlertDescription>
            {getErrorMessage(subscription.error, 'The subscription could not be loaded.')}
            <Button variant="outline" size="sm" onClick={() => void subscription.refetch()}>
              Try again
            </Button>
          </AlertDescription>
        </Alert>
      </PageContainer>
    );
  }
  if (isNew) {
    return (
      <SubscribeView
        plan={plan}
        interval={interval}
        onPlanChange={(next) => choose({ plan: next })}
        onIntervalChange={(next) => choose({ interval: next })}
        publishableKey={publishableKey}
        configPending={config.isPending}
        trialUsed={subscription.data.trialUsed}
        onPaymentRequired={setPayment}
      />
    );
  }
  return (
    <ManageView
      subscription={subscription.data}
      publishableKey={publishableKey}
      requestedPlan={isPlanId(requested) ? requested : null}
      requestedInterval={searchParams.has('interval') ? interval : null}
    />
  );
}
