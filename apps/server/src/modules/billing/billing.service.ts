import {
  API_ACCESS_PLANS,
  INVOICE_PLANS,
  billingMessages,
  planPriceCents,
  planDisplayNames,
  type CreateSubscriptionInput,
  type InvoicesResponse,
  type PlanId,
  type SubscriptionStatusResponse,
  type SubscriptionStatusValue,
} from '@crewline/contracts';
import { BadRequestError, ConflictError, NotFoundError, PlanLimitError } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import {
  subscriptionFromJson,
  subscriptionWithExecutionsJson,
  subscriptionWithExecutionsParameters,
  type BillingRepository,
  type LimitReader,
} from './billing.repository';
import type { PlanUsagePresenter } from './plan-usage.presenter';
import type { PaymentProvider, SubscribeChange } from './payment-provider';
import {
  shapeProblem,
  stripeEventEnvelopeSchema,
  stripeInvoiceSchema,
  stripeSubscriptionSchema,
} from './stripe-event';
import { planOfLookupKey } from './stripe-provider';
import { systemActor, type RequestActor } from '../../platform/request-actor';
import { billingAuditEvents } from './billing-audit';
import {
  asPlanId,
  atTrialEnd,
  effectiveSubscription,
  isUpgrade,
  toStored,
  trialOn,
  type EffectiveSubscription,
  type StoredSubscription,
} from './subscription-state';

/** What a plan-limit check counts with (the db or the caller's transaction); other modules pass theirs. */
export type { LimitReader } from './billing.repository';
/** A subscription as its row stores it (auth writes a new organization's trial). */
export type { StoredSubscription } from './subscription-state';

/** The plan new organizations try when the visitor came without one. */
const DEFAULT_TRIAL_PLAN: PlanId = 'professional';

/** executionAllowance's columns: `allowance`, the subscription with the month's runs. */
const allowanceColumns = { allowance: subscriptionWithExecutionsJson };

const seconds = (date: Date | null) => (date ? Math.floor(date.getTime() / 1000) : null);

/**
 * Plans, trials and plan limits (docs/product-rules.md, Billing and plans). Every read computes the
 * organization's effective state from the stored times and the clock, so an ended trial or a due
 * cancel or downgrade counts without a job; a change stores the effective state it started from.
 */
export function createBillingService(deps: {
  repository: BillingRepository;
  /** What plan limits count (agents, members, invitations). */
  usage: PlanUsagePresenter;
  provider: PaymentProvider;
  events: EventBus;
  /** The time (tests move it). */
  clock?: () => Date;
  /** Bytes of the organization's knowledge storage in use (modules/knowledge), for the usage figures. */
  knowledgeStorageUsed?: (organizationId: string) => Promise<number>;
}) {
  const { repository, usage, provider, events } = deps;
  const now = deps.clock ?? (() => new Date());

  async function load(organizationId: string) {
    const stored = await repository.find(organizationId);
    if (!stored) throw new NotFoundError('Organization not found');
    return { stored, effective: effectiveSubscription(stored, now()) };
  }

  async function current(organizationId: string): Promise<EffectiveSubscription> {
    return (await load(organizationId)).effective;
  }

  /**
   * The state a count-limited insert is checked against. Inside the inserting transaction (`tx`) it
   * is read with the organization's row locked (lockSubscription), so concurrent checks of the same
   * organization wait for each other's inserts and count them: a limit holds under concurrency.
   */
  async function limitState(organizationId: string, tx?: LimitReader): Promise<EffectiveSubscription> {
    if (!tx) return current(organizationId);
    const stored = await repository.lockSubscription(tx, organizationId);
    if (!stored) throw new NotFoundError('Organization not found');
    return effectiveSubscription(stored, now());
  }

  function refuse(state: EffectiveSubscription, limit: 'agents' | 'executions' | 'members', max: number) {
    const plan = state.plan ?? 'free';
    const name = planDisplayNames[plan];
    const message =
      limit === 'agents'
        ? billingMessages.agentLimit(name, max)
        : limit === 'executions'
          ? billingMessages.executionLimit(name, max)
          : billingMessages.memberLimit(name, max);
    return new PlanLimitError(message, limit, plan);
  }

  /** Stores the change from `before` with its audit events (who: the owner, or the provider's webhook). */
  async function save(
    organizationId: string,
    next: StoredSubscription,
    trialStartedAt: Date | undefined,
    change: { before: StoredSubscription; actor: RequestActor },
  ) {
    await repository.save(organizationId, next, trialStartedAt, {
      actor: change.actor,
      events: billingAuditEvents(change.before, next),
    });
    await events.publish({ type: 'subscription_updated', organizationId });
  }

  const fromSeconds = (value: number | null | undefined) =>
    value === null || value === undefined ? null : new Date(value * 1000);

  /** Applies a verified event whose object has the shape it needs; else says why it was not used. */
  async function applyStripeObject(type: string, object: unknown): Promise<string | undefined> {
    const parsed =
      type === 'invoice.paid' || type === 'invoice.payment_failed'
        ? { invoice: stripeInvoiceSchema.safeParse(object) }
        : { subscription: stripeSubscriptionSchema.safeParse(object) };
    const result = parsed.invoice ?? parsed.subscription;
    if (!result.success) return shapeProblem(result.error);
    const organizationId = await repository.findByStripeCustomer(result.data.customer);
    if (!organizationId) return undefined;
    const { stored, effective } = await load(organizationId);
    if (parsed.invoice?.success) {
      const invoice = parsed.invoice.data;
      if (type === 'invoice.paid' && invoice.amount_paid <= 0) return undefined;
      // A first payment that failed (a subscription without trial days, after the organization's
      // trial) leaves Free as it is: past_due keeps a plan only for what was trialled or paid before.
      if (type === 'invoice.payment_failed' && !effective.plan) return undefined;
      const periodEnd = fromSeconds(invoice.lines?.data?.[0]?.period?.end);
      // An invoice for a later period than the stored one is the renewal's: a downgrade waiting for
      // it applies now (customer.subscription.updated may arrive before or after it).
      const renewed = Boolean(periodEnd && stored.currentPeriodEnd && periodEnd > stored.currentPeriodEnd);
      const fromWebhook = { before: stored, actor: systemActor };
      await save(
        organizationId,
        {
          ...stored,
          plan: renewed && stored.pendingPlan ? stored.pendingPlan : stored.plan,
          pendingPlan: renewed ? null : stored.pendingPlan,
          subscriptionStatus: type === 'invoice.paid' ? 'active' : 'past_due',
          trialEndsAt: type === 'invoice.paid' ? null : stored.trialEndsAt,
          currentPeriodEnd: periodEnd ?? stored.currentPeriodEnd,
        },
        undefined,
        fromWebhook,
      );
      return undefined;
    }
    if (!parsed.subscription?.success) return undefined;
    const subscription = parsed.subscription.data;
    // Another subscription of the customer (an earlier trial's, say) does not speak for the current one.
    const subscriptionId = await repository.stripeSubscriptionId(organizationId);
    if (subscriptionId && subscription.id !== subscriptionId) return undefined;
    const item = subscription.items.data[0];
    const pricePlan = planOfLookupKey(item?.price?.lookup_key) ?? asPlanId(stored.plan);
    const priceInterval = item?.price?.recurring?.interval;
    // Invoices, or the payment method the Payment Element saved on the subscription ('on_subscription');
    // without one a method saved before stays known (Update Payment Method saves it on the customer).
    const paymentMethod =
      subscription.collection_method === 'send_invoice'
        ? 'invoice'
        : subscription.default_payment_method
          ? 'saved'
          : stored.paymentMethod === 'invoice'
            ? null
            : stored.paymentMethod;
    const periodEnd = fromSeconds(item?.current_period_end) ?? fromSeconds(subscription.current_period_end);
    const statusOf: Record<string, SubscriptionStatusValue | undefined> = {
      trialing: 'trialing',
      active: 'active',
      past_due: 'past_due',
      unpaid: 'past_due',
      canceled: 'canceled',
      incomplete_expired: 'canceled',
      paused: 'canceled',
    };
    const status =
      type === 'customer.subscription.deleted'
        ? 'canceled'
        : (statusOf[subscription.status] ?? stored.subscriptionStatus);
    // A downgrade is billed from the next period: until the period renews, the paid plan stays.
    const renewed = !stored.currentPeriodEnd || (periodEnd && periodEnd > stored.currentPeriodEnd);
    const keepPlan = stored.pendingPlan !== null && pricePlan === stored.pendingPlan && !renewed;
    const next: StoredSubscription = {
      plan: keepPlan || !pricePlan ? stored.plan : pricePlan,
      subscriptionStatus: status,
      trialEndsAt: status === 'trialing' ? fromSeconds(subscription.trial_end) : null,
      currentPeriodEnd: status === 'trialing' ? null : periodEnd,
      cancelAtPeriodEnd: subscription.cancel_at_period_end,
      pendingPlan: keepPlan ? stored.pendingPlan : null,
      billingInterval:
        priceInterval === 'year' || priceInterval === 'month' ? priceInterval : stored.billingInterval,
      paymentMethod,
    };
    await save(organizationId, next, undefined, { before: stored, actor: systemActor });
    return undefined;
  }

  async function status(organizationId: string): Promise<SubscriptionStatusResponse> {
    const { stored, effective: state } = await load(organizationId);
    const [agents, executionsThisMonth, members, knowledgeStorageBytes] = await Promise.all([
      usage.countAgents(organizationId),
      repository.countMonthExecutions(organizationId, now()),
      usage.countMembers(organizationId),
      deps.knowledgeStorageUsed?.(organizationId) ?? 0,
    ]);
    return {
      status: state.status,
      plan: state.plan,
      trialEnd: seconds(state.trialEnd),
      currentPeriodEnd: seconds(state.currentPeriodEnd),
      cancelAtPeriodEnd: state.cancelAtPeriodEnd,
      pendingPlan: state.pendingPlan,
      trialUsed: stored.trialUsedAt !== null,
      interval: state.interval,
      paymentMethod: state.paymentMethod,
      atTrialEnd: atTrialEnd(state),
      usage: { agents, executionsThisMonth, members, knowledgeStorageBytes },
      limits: state.limits,
    };
  }

  return {
    now,
    status,

    /**
     * The subscription columns of an organization created now: a trial on `plan`, no card, and the
     * organization's one trial recorded as used (`trialUsedAt`, stored with the row).
     */
    signupSubscription(plan: PlanId = DEFAULT_TRIAL_PLAN): StoredSubscription & { trialUsedAt: Date } {
      const at = now();
      return { ...trialOn(plan, at), trialUsedAt: at };
    },

    /** The effective state (Free after an ended trial), for other modules. */
    current,

    /** Before an API key is made or used: only some plans (and every trial) include API access. */
    async checkApiAccess(organizationId: string): Promise<void> {
      const state = await current(organizationId);
      if (state.status === 'trialing' || (state.plan && API_ACCESS_PLANS.includes(state.plan))) return;
      const plan = state.plan ?? 'free';
      throw new PlanLimitError(billingMessages.apiAccess(planDisplayNames[plan]), 'api_access', plan);
    },

    /**
     * Before agents are created (one, or the ones a workflow template needs): 402 when they would
     * take the organization past its plan's number. With `tx`, the transaction that then inserts
     * them, the check holds the organization's lock (limitState) until it commits.
     */
    async checkAgentLimit(organizationId: string, adding = 1, tx?: LimitReader): Promise<void> {
      const state = await limitState(organizationId, tx);
      const max = state.limits.agents;
      if (max !== null && (await usage.countAgents(organizationId, tx)) + adding > max) {
        throw refuse(state, 'agents', max);
      }
    },

    /**
     * Before any run starts (startRun): every run of this UTC calendar month counts. `columns` read
     * the plan and the month's count as a column of the read of the run's workflow (one statement on
     * every run's path), with `parameters`; `check` then throws the plan-limit refusal when the month
     * is used up, and otherwise answers the limit (null: unlimited) for the run's insert, which
     * counts the run only while the month is still under it, on the locked counter (concurrent
     * starts); `refusal` is the error when that insert found it used up. `columns` is the same object
     * on every call, so that read is built once.
     */
    executionAllowance(organizationId: string) {
      const at = now();
      let checked: { state: EffectiveSubscription; max: number } | undefined;
      return {
        columns: allowanceColumns,
        parameters: subscriptionWithExecutionsParameters(organizationId, at),
        /**
         * The month's run limit (null: unlimited), refused when reached, the longest list the run's
         * maps may take and its organization's runs in progress at once, all the plan's now.
         */
        check(value: unknown): { runLimit: number | null; mapItems: number; concurrencyLimit: number } {
          const found = subscriptionFromJson(value);
          if (!found) throw new NotFoundError('Organization not found');
          const state = effectiveSubscription(found, at);
          const max = state.limits.executionsPerMonth;
          const { mapItems, concurrentRuns: concurrencyLimit } = state.limits;
          if (max === null) return { runLimit: null, mapItems, concurrencyLimit };
          if (found.executions >= max) throw refuse(state, 'executions', max);
          checked = { state, max };
          return { runLimit: max, mapItems, concurrencyLimit };
        },
        refusal(): PlanLimitError {
          if (!checked) throw new Error('refusal() before a limited check()');
          return refuse(checked.state, 'executions', checked.max);
        },
      };
    },

    /**
     * Before someone is invited (members and other pending invitations count: each may join) and
     * before an invitation is accepted (members only: the invitation itself was counted when made).
     * With `tx`, the transaction that then writes the invitation or the membership, the check holds
     * the organization's lock (limitState) until it commits.
     */
    async checkMemberLimit(organizationId: string, invitingEmail?: string, tx?: LimitReader): Promise<void> {
      const state = await limitState(organizationId, tx);
      const max = state.limits.members;
      if (max === null) return;
      const members = await usage.countMembers(organizationId, tx);
      const pending =
        invitingEmail === undefined
          ? 0
          : await usage.countPendingInvitations(organizationId, invitingEmail, tx);
      if (members + pending >= max) throw refuse(state, 'members', max);
    },

    /**
     * POST /api/create-subscription. From Free, the organization's one trial on the plan if it never
     * had one; after it, only a paid subscription: with a provider one without trial days, whose first
     * payment the answer's client secret confirms (the organization stays on Free until the provider
     * reports it paid); without a provider nothing can be paid, 409. During a trial the plan changes at
     * once; an active subscription upgrades at once and downgrades at the end of its period. Choosing
     * a plan also withdraws a pending cancel.
     */
    async createSubscription(
      organizationId: string,
      input: CreateSubscriptionInput,
      actor: RequestActor,
    ): Promise<{ clientSecret: string | null; status: SubscriptionStatusValue }> {
      const interval = input.interval ?? 'month';
      const payByInvoice = input.payByInvoice ?? false;
      const price = planPriceCents(input.planId, interval);
      if (input.amount !== price) {
        throw new BadRequestError(
          billingMessages.wrongAmount(planDisplayNames[input.planId], price, interval),
        );
      }
      if (payByInvoice && !INVOICE_PLANS.includes(input.planId)) {
        throw new BadRequestError(billingMessages.invoiceEnterpriseOnly);
      }
      if (payByInvoice && !provider.collectsPayment)
        throw new ConflictError(billingMessages.invoiceNeedsProvider);
      const { stored, effective } = await load(organizationId);
      let next: StoredSubscription;
      let kind: SubscribeChange['kind'];
      let trialStartedAt: Date | undefined;
      if (!effective.plan && stored.trialUsedAt) {
        if (!provider.collectsPayment) throw new ConflictError(billingMessages.trialUsed);
        next = toStored(effective, stored.plan);
        kind = 'create';
      } else if (!effective.plan) {
        trialStartedAt = now();
        next = trialOn(input.planId, trialStartedAt, interval, effective.paymentMethod);
        kind = 'create';
      } else if (effective.status === 'trialing') {
        next = { ...toStored(effective, stored.plan), plan: input.planId, cancelAtPeriodEnd: false };
        kind = 'now';
      } else if (
        input.planId === effective.plan ||
        isUpgrade(effective.plan, input.planId) ||
        // Another interval starts a new billing period today (Stripe prorates it): not a period-end change.
        interval !== effective.interval
      ) {
        next = {
          ...toStored(effective, stored.plan),
          plan: input.planId,
          pendingPlan: null,
          cancelAtPeriodEnd: false,
        };
        kind = 'now';
      } else {
        next = { ...toStored(effective, stored.plan), pendingPlan: input.planId, cancelAtPeriodEnd: false };
        kind = 'at_period_end';
      }
      // The trial a provider's new subscription runs in: the current one's rest, or the one just
      // started; none otherwise (the first period is paid at once).
      const trialEnd =
        effective.status === 'trialing' ? effective.trialEnd : trialStartedAt && next.trialEndsAt;
      next = {
        ...next,
        billingInterval: interval,
        // Invoices are asked for or given up with each choice; a saved payment method stays.
        paymentMethod: payByInvoice
          ? 'invoice'
          : next.paymentMethod === 'invoice'
            ? null
            : next.paymentMethod,
      };
      const { clientSecret } = await provider.subscribe({
        organizationId,
        planId: input.planId,
        interval,
        payByInvoice,
        amountCents: price,
        change: { kind, trialEnd: trialEnd ?? null },
      });
      await save(organizationId, next, trialStartedAt, { before: stored, actor });
      return { clientSecret, status: effectiveSubscription(next, now()).status };
    },

    /** GET /api/billing/config: the web app loads Stripe.js with the key given here at run time. */
    config() {
      return { provider: provider.name, publishableKey: provider.publishableKey };
    },

    /** POST /api/billing/setup-intent: a new payment method (Stripe only). */
    async createSetupIntent(organizationId: string): Promise<{ clientSecret: string }> {
      await load(organizationId);
      const intent = await provider.createSetupIntent(organizationId);
      if (!intent) throw new ConflictError(billingMessages.noPaymentProvider);
      return intent;
    },

    /** GET /api/billing/invoices: the provider's invoices of the organization (none without one). */
    async invoices(organizationId: string): Promise<InvoicesResponse> {
      await load(organizationId);
      return { invoices: await provider.listInvoices(organizationId), provider: provider.name };
    },

    /**
     * A verified Stripe webhook event. Applied once per event id; the organization is found by its
     * Stripe customer. Subscription events carry status, plan (the price's lookup key), trial end,
     * period end and cancel-at-period-end; invoices move a paid subscription to active or past_due.
     * An event of a shape it cannot use changes nothing and answers why (`ignored`), for the log.
     */
    async applyStripeEvent(event: unknown): Promise<{ ignored?: string }> {
      const envelope = stripeEventEnvelopeSchema.safeParse(event);
      if (!envelope.success) return { ignored: shapeProblem(envelope.error) };
      const { id, type, data } = envelope.data;
      const handled = [
        'customer.subscription.created',
        'customer.subscription.updated',
        'customer.subscription.deleted',
        'invoice.paid',
        'invoice.payment_failed',
      ];
      if (!handled.includes(type)) return {};
      if (!(await repository.recordStripeEvent(id, type))) return {};
      try {
        const ignored = await applyStripeObject(type, data.object);
        return ignored ? { ignored } : {};
      } catch (error) {
        await repository.forgetStripeEvent(id);
        throw error;
      }
    },
    /** POST /api/cancel-subscription: ends at the period end (a trial's end during a trial). */
    async cancelSubscription(
      organizationId: string,
      actor: RequestActor,
    ): Promise<SubscriptionStatusResponse> {
      const { stored, effective } = await load(organizationId);
      if (!effective.plan) throw new ConflictError(billingMessages.noSubscription);
      if (effective.cancelAtPeriodEnd) throw new ConflictError(billingMessages.alreadyCanceled);
      await provider.cancelAtPeriodEnd(organizationId);
      await save(
        organizationId,
        { ...toStored(effective, stored.plan), cancelAtPeriodEnd: true },
        undefined,
        { before: stored, actor },
      );
      return status(organizationId);
    },
  };
}
export type BillingService = ReturnType<typeof createBillingService>;
