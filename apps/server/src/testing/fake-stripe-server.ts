import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake Stripe API on a real HTTP server on 127.0.0.1, speaking Stripe's wire format for what the
 * billing module uses: form-encoded bodies with nested keys (`items[0][price]`), a bearer secret key
 * (`sk_test_…`) checked, `expand[]` honoured for `pending_setup_intent` and
 * `latest_invoice.confirmation_secret`, and objects shaped as the SDK reads them. Every subscription
 * gets its first invoice, numbered per customer as Stripe numbers them (`<prefix>-0001`);
 * `GET /v1/invoices?customer=…` lists a customer's invoices newest first, and `addInvoice` adds one
 * (a renewal, say) for a test. A subscription without `trial_end` (or with `now`) has no trial: it is
 * `incomplete` until its open first invoice is paid; a `trial_end` that is not a future Unix time is
 * refused as Stripe refuses it. A price is recurring with an `interval` (day, week, month or year; a
 * price without one is refused), a subscription's items must name prices it knows that share one
 * interval, and their period lasts that interval. `collection_method: 'send_invoice'` needs
 * `days_until_due`, as Stripe requires: such a subscription is active at once with an open invoice
 * Stripe emails (nothing to confirm). `signedEvent` builds a webhook delivery signed as Stripe signs it. Tests
 * never reach Stripe.
 */

type Obj = Record<string, unknown>;
export type FakeStripeServer = Awaited<ReturnType<typeof startFakeStripeServer>>;

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** `a[b][0][c]=v` pairs into nested objects; numeric-keyed objects and `[]` become arrays. */
export function parseStripeForm(text: string): Obj {
  const root: Obj = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const parts = rawKey.replace(/\]/g, '').split('[');
    let node: Obj = root;
    parts.forEach((part, i) => {
      const key = part === '' ? String(Object.keys(node).length) : part;
      if (i === parts.length - 1) node[key] = value;
      else node = (node[key] ??= {}) as Obj;
    });
  }
  const arrays = (value: unknown): unknown => {
    if (!value || typeof value !== 'object') return value;
    const entries = Object.entries(value as Obj).map(([k, v]) => [k, arrays(v)] as const);
    if (entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k))) return entries.map(([, v]) => v);
    return Object.fromEntries(entries);
  };
  return arrays(root) as Obj;
}

export async function startFakeStripeServer(options: { secretKey?: string; port?: number } = {}) {
  const secretKey = options.secretKey ?? `sk_test_${randomBytes(12).toString('hex')}`;
  const customers = new Map<string, Obj>();
  const prices = new Map<string, Obj>();
  const subscriptions = new Map<string, Obj>();
  const setupIntents = new Map<string, Obj>();
  const invoices = new Map<string, Obj>();
  const requests: { method: string; path: string; body: Obj }[] = [];
  /** Invoices in the order they were made: the newest first among those created the same second. */
  let invoiceSequence = 0;

  /** What addInvoice may set; the rest is filled as Stripe fills a finalized invoice. */
  type InvoiceFields = {
    subscription?: string | null;
    status?: 'draft' | 'open' | 'paid' | 'uncollectible' | 'void';
    amount_due?: number;
    amount_paid?: number;
    currency?: string;
    created?: number;
    period_start?: number;
    period_end?: number;
    /** The period of the invoice's one line (a subscription invoice bills the next period). */
    line_period?: { start: number; end: number };
    confirmation_secret?: Obj | null;
  };

  function newInvoice(customer: string, fields: InvoiceFields = {}): Obj {
    const owner = customers.get(customer);
    if (!owner) throw new Error(`No such customer: '${customer}'`);
    const invoiceId = id('in');
    const count = (owner.next_invoice_sequence as number) ?? 1;
    owner.next_invoice_sequence = count + 1;
    const created = fields.created ?? nowSeconds();
    const status = fields.status ?? 'paid';
    const amountDue = fields.amount_due ?? 0;
    const currency = fields.currency ?? 'usd';
    const linePeriod = fields.line_period ?? {
      start: fields.period_start ?? created,
      end: fields.period_end ?? created,
    };
    const final = status !== 'draft';
    const invoice: Obj = {
      id: invoiceId,
      object: 'invoice',
      customer,
      subscription: fields.subscription ?? null,
      number: final ? `${owner.invoice_prefix as string}-${String(count).padStart(4, '0')}` : null,
      status,
      amount_due: amountDue,
      amount_paid: fields.amount_paid ?? (status === 'paid' ? amountDue : 0),
      amount_remaining: status === 'paid' ? 0 : amountDue,
      currency,
      created,
      period_start: fields.period_start ?? created,
      period_end: fields.period_end ?? created,
      hosted_invoice_url: final ? `https://invoice.stripe.com/i/acct_fake/test_${invoiceId}` : null,
      invoice_pdf: final ? `https://pay.stripe.com/invoice/acct_fake/test_${invoiceId}/pdf` : null,
      livemode: false,
      lines: {
        object: 'list',
        data: [
          {
            id: id('il'),
            object: 'line_item',
            amount: amountDue,
            currency,
            period: linePeriod,
          },
        ],
        has_more: false,
        url: `/v1/invoices/${invoiceId}/lines`,
      },
      confirmation_secret: fields.confirmation_secret ?? null,
      __sequence: ++invoiceSequence,
    };
    invoices.set(invoiceId, invoice);
    return invoice;
  }

  /** An invoice as the API answers it (without the fake's own bookkeeping). */
  function invoiceView(invoice: Obj): Obj {
    const { __sequence: _sequence, ...out } = invoice;
    return out;
  }

  function newSetupIntent(customer: string): Obj {
    const intentId = id('seti');
    const intent = {
      id: intentId,
      object: 'setup_intent',
      customer,
      status: 'requires_payment_method',
      client_secret: `${intentId}_secret_${randomBytes(8).toString('hex')}`,
      usage: 'off_session',
    };
    setupIntents.set(intentId, intent);
    return intent;
  }

  function view(subscription: Obj, expand: string[]): Obj {
    const out: Obj = { ...subscription };
    if (expand.includes('pending_setup_intent') && typeof out.pending_setup_intent === 'string') {
      out.pending_setup_intent = setupIntents.get(out.pending_setup_intent);
    }
    if (expand.some((e) => e.startsWith('latest_invoice')) && typeof out.latest_invoice === 'string') {
      const invoice = invoiceView(invoices.get(out.latest_invoice)!);
      if (!expand.includes('latest_invoice.confirmation_secret')) delete invoice.confirmation_secret;
      out.latest_invoice = invoice;
    }
    return out;
  }

  const DAYS_OF: Record<string, number> = { day: 1, week: 7, month: 30, year: 365 };
  const intervalOf = (price: Obj | undefined) => (price?.recurring as Obj | undefined)?.interval as string;

  /**
   * A price change keeps the item's billing period, as Stripe does for the same interval; another
   * interval starts a new period today (Stripe resets the billing cycle then).
   */
  function itemsFor(subscriptionId: string, requested: Obj[], previous?: Obj[]) {
    return {
      object: 'list',
      data: requested.map((item, i) => {
        const price = prices.get(item.price as string);
        const before = previous?.[i];
        const keep = before && intervalOf(before.price as Obj) === intervalOf(price);
        return {
          id: (item.id as string) ?? before?.id ?? id('si'),
          object: 'subscription_item',
          subscription: subscriptionId,
          price,
          quantity: 1,
          current_period_start: keep ? before.current_period_start : nowSeconds(),
          current_period_end: keep
            ? before.current_period_end
            : nowSeconds() + (DAYS_OF[intervalOf(price)] ?? 30) * 86_400,
        };
      }),
    };
  }

  const invalid = (param: string, message: string): [number, Obj] => [
    400,
    { error: { type: 'invalid_request_error', param, message } },
  ];

  /** As Stripe: prices it knows, recurring, one interval across the items; send_invoice with its due days. */
  function checkSubscriptionBody(body: Obj, items: Obj[]): [number, Obj] | undefined {
    const unknown = items.find((item) => !prices.has(item.price as string));
    if (unknown)
      return [
        404,
        { error: { type: 'invalid_request_error', message: `No such price: '${String(unknown.price)}'` } },
      ];
    const intervals = new Set(items.map((item) => intervalOf(prices.get(item.price as string))));
    if (intervals.has(undefined as unknown as string)) {
      return invalid(
        'items',
        'The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.',
      );
    }
    if (intervals.size > 1) {
      return invalid(
        'items',
        'Currency and interval fields must match across all plans on this subscription.',
      );
    }
    const method = body.collection_method as string | undefined;
    if (method !== undefined && method !== 'send_invoice' && method !== 'charge_automatically') {
      return invalid(
        'collection_method',
        `Invalid collection_method: must be one of charge_automatically or send_invoice`,
      );
    }
    if (method === 'send_invoice' && !(Number(body.days_until_due) > 0)) {
      return invalid('days_until_due', 'days_until_due is required when collection_method is send_invoice.');
    }
    return undefined;
  }

  function route(method: string, path: string, query: Obj, body: Obj): [number, Obj] {
    const missing = (what: string) =>
      [404, { error: { type: 'invalid_request_error', message: `No such ${what}` } }] as [number, Obj];
    if (method === 'POST' && path === '/v1/customers') {
      const customer = {
        id: id('cus'),
        object: 'customer',
        name: body.name ?? null,
        metadata: body.metadata ?? {},
        invoice_prefix: randomBytes(4).toString('hex').toUpperCase(),
        next_invoice_sequence: 1,
      };
      customers.set(customer.id, customer);
      return [200, customer];
    }
    if (method === 'GET' && path === '/v1/prices') {
      const keys = (query.lookup_keys as string[] | undefined) ?? [];
      const data = [...prices.values()].filter(
        (p) =>
          keys.includes(p.lookup_key as string) &&
          (query.active === undefined || String(p.active) === query.active),
      );
      return [200, { object: 'list', data, has_more: false, url: '/v1/prices' }];
    }
    if (method === 'POST' && path === '/v1/prices') {
      const recurring = body.recurring as Obj | undefined;
      if (!recurring || !['day', 'week', 'month', 'year'].includes(recurring.interval as string)) {
        return invalid(
          'recurring[interval]',
          'Invalid recurring[interval]: must be one of day, week, month, or year',
        );
      }
      const holder = [...prices.values()].find((p) => body.lookup_key && p.lookup_key === body.lookup_key);
      if (holder && body.transfer_lookup_key !== 'true') {
        return invalid('lookup_key', `A price (\`${String(holder.id)}\`) already uses that lookup key.`);
      }
      if (holder) holder.lookup_key = null;
      const price = {
        id: id('price'),
        object: 'price',
        active: true,
        currency: body.currency,
        unit_amount: Number(body.unit_amount),
        recurring: { interval: recurring.interval, interval_count: 1 },
        lookup_key: body.lookup_key ?? null,
        product: id('prod'),
        type: 'recurring',
      };
      prices.set(price.id, price);
      return [200, price];
    }
    if (method === 'POST' && path === '/v1/subscriptions') {
      const customer = body.customer as string;
      if (!customers.has(customer)) return missing(`customer: '${customer}'`);
      const items = (body.items as Obj[]) ?? [];
      const refused = checkSubscriptionBody(body, items);
      if (refused) return refused;
      const byInvoice = body.collection_method === 'send_invoice';
      // As Stripe: a trial ends at a whole Unix time in the future, or 'now' (no trial at all).
      if (body.trial_end !== undefined && body.trial_end !== 'now') {
        const end = Number(body.trial_end);
        if (!Number.isInteger(end) || end <= nowSeconds()) {
          return [
            400,
            {
              error: {
                type: 'invalid_request_error',
                param: 'trial_end',
                message: 'Invalid timestamp: must be an integer Unix timestamp in the future.',
              },
            },
          ];
        }
      }
      const subscriptionId = id('sub');
      const trialEnd = body.trial_end && body.trial_end !== 'now' ? Number(body.trial_end) : null;
      const intentId = id('pi');
      const subscriptionItems = itemsFor(subscriptionId, items);
      const first = subscriptionItems.data[0];
      // A trial's first invoice is $0 and paid; without one the first period is due at once.
      // Paid by invoice, the first one is open and emailed: nothing to confirm in the browser.
      const invoice = newInvoice(customer, {
        subscription: subscriptionId,
        status: trialEnd ? 'paid' : 'open',
        amount_due: trialEnd ? 0 : Number((first?.price as Obj | undefined)?.unit_amount ?? 0),
        currency: String((first?.price as Obj | undefined)?.currency ?? 'usd'),
        line_period: {
          start: nowSeconds(),
          end: trialEnd ?? (first?.current_period_end as number),
        },
        confirmation_secret:
          trialEnd || byInvoice ? null : { type: 'payment_intent', client_secret: `${intentId}_secret_x` },
      });
      const subscription: Obj = {
        id: subscriptionId,
        object: 'subscription',
        customer,
        status: trialEnd ? 'trialing' : byInvoice ? 'active' : 'incomplete',
        trial_end: trialEnd,
        cancel_at_period_end: false,
        collection_method: byInvoice ? 'send_invoice' : 'charge_automatically',
        days_until_due: byInvoice ? Number(body.days_until_due) : null,
        default_payment_method: null,
        metadata: body.metadata ?? {},
        payment_behavior: body.payment_behavior,
        items: subscriptionItems,
        latest_invoice: invoice.id,
        pending_setup_intent: trialEnd && !byInvoice ? newSetupIntent(customer).id : null,
      };
      subscriptions.set(subscriptionId, subscription);
      return [200, view(subscription, (body.expand as string[]) ?? [])];
    }
    const subscriptionPath = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (subscriptionPath) {
      const subscription = subscriptions.get(subscriptionPath[1]);
      if (!subscription) return missing(`subscription: '${subscriptionPath[1]}'`);
      if (method === 'GET') return [200, view(subscription, (query.expand as string[]) ?? [])];
      if (method === 'POST') {
        if (body.cancel_at_period_end !== undefined) {
          subscription.cancel_at_period_end = body.cancel_at_period_end === 'true';
        }
        const refused = checkSubscriptionBody(body, (body.items as Obj[] | undefined) ?? []);
        if (refused) return refused;
        if (body.collection_method !== undefined) {
          subscription.collection_method = body.collection_method;
          subscription.days_until_due =
            body.collection_method === 'send_invoice' ? Number(body.days_until_due) : null;
        }
        if (body.items) {
          const previous = (subscription.items as { data: Obj[] }).data;
          subscription.items = itemsFor(subscription.id as string, body.items as Obj[], previous);
        }
        if (body.proration_behavior) subscription.proration_behavior = body.proration_behavior;
        return [200, view(subscription, (body.expand as string[]) ?? [])];
      }
    }
    if (method === 'GET' && path === '/v1/invoices') {
      const customer = query.customer as string | undefined;
      const limit = Math.min(100, Math.max(1, Number(query.limit ?? 10) || 10));
      const matching = [...invoices.values()]
        .filter((invoice) => customer === undefined || invoice.customer === customer)
        .filter((invoice) => query.status === undefined || invoice.status === query.status)
        .sort(
          (a, b) =>
            (b.created as number) - (a.created as number) ||
            (b.__sequence as number) - (a.__sequence as number),
        );
      return [
        200,
        {
          object: 'list',
          data: matching.slice(0, limit).map(invoiceView),
          has_more: matching.length > limit,
          url: '/v1/invoices',
        },
      ];
    }
    if (method === 'POST' && path === '/v1/setup_intents') {
      const customer = body.customer as string;
      if (!customers.has(customer)) return missing(`customer: '${customer}'`);
      return [200, newSetupIntent(customer)];
    }
    return [
      404,
      { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path})` } },
    ];
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const send = (status: number, payload: Obj) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
        res.end(JSON.stringify(payload));
      };
      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
        return;
      }
      const url = new URL(req.url ?? '/', 'http://fake');
      const text = Buffer.concat(chunks).toString('utf8');
      if (text && !String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
        send(400, { error: { type: 'invalid_request_error', message: 'Body must be form-encoded' } });
        return;
      }
      const body = parseStripeForm(text);
      const query = parseStripeForm(url.search.slice(1));
      requests.push({ method: req.method ?? 'GET', path: url.pathname, body });
      const [status, payload] = route(req.method ?? 'GET', url.pathname, query, body);
      send(status, payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    secretKey,
    customers,
    prices,
    subscriptions,
    setupIntents,
    invoices,
    requests,
    /**
     * Adds an invoice of `customer` as Stripe would issue it (paid, numbered, with its pages): a
     * renewal's, say. Answers the invoice as the API shows it, for a webhook event's object.
     */
    addInvoice: (customer: string, fields: InvoiceFields = {}) => invoiceView(newInvoice(customer, fields)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A webhook delivery signed as Stripe signs it: `t=<seconds>,v1=HMAC-SHA256(secret, t + '.' + payload)`. */
export function signedEvent(
  secret: string,
  event: { id?: string; type: string; object: Obj },
  options: { timestamp?: number } = {},
): { payload: string; signature: string; id: string } {
  const eventId = event.id ?? id('evt');
  const payload = JSON.stringify({
    id: eventId,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: nowSeconds(),
    type: event.type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object: event.object },
  });
  const t = options.timestamp ?? nowSeconds();
  const v1 = createHmac('sha256', secret).update(`${t}.${payload}`, 'utf8').digest('hex');
  return { payload, signature: `t=${t},v1=${v1}`, id: eventId };
}
