import { createAccount, expect, expectToast, test, uniqueName, snapScreens } from './fixtures';

test('a Starter trial from the pricing page: usage, the agent limit, change plan and cancel', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1280, height: 900 });

  // Sign up from the Starter pricing button on the landing page.
  await page.goto('/');
  await page.getByRole('link', { name: 'Choose Starter' }).click();
  await expect(page).toHaveURL(/\/signup\?plan=starter$/);
  await expect(page.getByText('14-day free trial of Starter')).toBeVisible();
  const username = uniqueName('bill');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(`${username}@example.com`);
  await page.getByLabel('Password', { exact: true }).fill('billing-pass1');
  await page.getByLabel('Confirm Password').fill('billing-pass1');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const token = await page.evaluate(() => localStorage.getItem('authToken'));
  expect(token).toBeTruthy();
  const headers = { Authorization: `Bearer ${token}` };

  // The API answers the contract: trialing on Starter with its limits.
  const statusRes = await request.get('/api/subscription-status', { headers });
  expect(statusRes.status()).toBe(200);
  const status = await statusRes.json();
  expect(status).toMatchObject({ status: 'trialing', plan: 'starter', limits: { agents: 5, members: 3 } });

  // Settings → Billing: Trial on Starter with the usage meters.
  await page.goto('/settings/profile?tab=billing');
  await expect(page.getByTestId('billing-plan')).toHaveText('Starter');
  await expect(page.getByText('Trial', { exact: true }).first()).toBeVisible();
  // No card yet: the trial's end moves the organization to Free, and no billing date is promised.
  await expect(
    page.getByText(
      /^Trial ends .+\. Without a payment method, the organization moves to the Free plan then\.$/,
    ),
  ).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Agents: 0 of 5' })).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Runs this month: 0 of 1,000' })).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Members: 1 of 3' })).toBeVisible();
  // In the units of the docs' plan table and of the limit's message.
  await expect(page.getByRole('progressbar', { name: 'Knowledge storage: 0 B of 1 GiB' })).toBeVisible();
  // View History: no payment provider in these tests, so no invoices.
  await page.getByRole('button', { name: 'View History' }).click();
  const history = page.getByRole('dialog', { name: 'Billing history' });
  await expect(history.getByText('No invoices yet')).toBeVisible();
  await expect(
    history.getByText('No payment provider is configured on this server, so there are no invoices.'),
  ).toBeVisible();
  await history.getByRole('button', { name: 'Close' }).click();
  await expect(history).toBeHidden();

  // Agents up to the limit through the API.
  for (let i = 1; i <= 5; i += 1) {
    const res = await request.post('/api/agents', {
      headers,
      data: { name: `Agent ${i}`, role: 'Helper', goal: 'Help the team' },
    });
    expect(res.status()).toBe(201);
  }
  await page.reload();
  await expect(page.getByRole('progressbar', { name: 'Agents: 5 of 5' })).toBeVisible();
  await expect(page.getByText('Plan limit reached')).toBeVisible();
  await snapScreens(page, page.getByTestId('billing-plan'), 'billing-tab-limit', {
    waitForToasts: false,
    fullPage: true,
  });

  // The 6th agent in the UI: the server's message with Upgrade.
  await page.goto('/agents');
  await page.getByRole('button', { name: 'Create Agent' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Agent 6');
  await dialog.getByLabel('Role').fill('Helper');
  await dialog.getByLabel('Goal').fill('Help the team');
  await dialog.getByRole('button', { name: 'Create Agent' }).click();
  const limitAlert = dialog.getByRole('alert').filter({ hasText: 'Plan limit reached' });
  await expect(limitAlert).toContainText('Your Starter plan allows 5 agents. Upgrade your plan to add more.');
  await expect(page.getByText('Failed to create agent')).toHaveCount(0);
  await snapScreens(page, limitAlert, 'limit-prompt');
  await limitAlert.getByRole('link', { name: 'Upgrade' }).click();
  await expect(page).toHaveURL(/\/subscribe\?plan=professional$/);

  // Billing Management: the trial on Starter, Change Plan open on the plan the link named.
  const suggested = page.getByRole('dialog', { name: 'Change Plan' });
  await expect(suggested.getByRole('radio', { name: /^Professional/ })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  await suggested.getByRole('button', { name: 'Cancel' }).click();
  await expect(suggested).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Billing Management' })).toBeVisible();
  await expect(page.getByText('Next Billing')).toHaveCount(0);
  await expect(page.getByTestId('current-plan')).toHaveText('Starter');
  await expect(page.getByText('Trial Ends', { exact: true })).toBeVisible();
  await snapScreens(page, page.getByTestId('current-plan'), 'subscribe-manage', {
    waitForToasts: false,
    fullPage: true,
  });
  await page.getByRole('button', { name: 'Update Payment Method' }).click();
  await expectToast(page, 'No payment provider');

  // Change to Professional: at once during the trial.
  await page.getByRole('button', { name: 'Change Plan' }).click();
  const picker = page.getByRole('dialog', { name: 'Change Plan' });
  await expect(picker.getByText('During a trial, any change applies at once.')).toBeVisible();
  await picker.getByRole('radio', { name: /Professional \$49/ }).click();
  await snapScreens(page, picker, 'change-plan-dialog');
  await picker.getByRole('button', { name: 'Change to Professional' }).click();
  await expectToast(page, 'Plan Changed');
  await expect(page.getByTestId('current-plan')).toHaveText('Professional');

  // Cancel with the confirmation.
  await page.getByRole('button', { name: 'Cancel Subscription' }).click();
  const confirm = page.getByRole('alertdialog');
  await confirm.getByRole('button', { name: 'Cancel Subscription' }).click();
  await expectToast(page, 'Subscription Cancelled');
  await expectToast(page, 'Your subscription will end at the current billing period.');
  await expect(page.getByText(/Your subscription is cancelled and ends on/)).toBeVisible();
  await snapScreens(page, page.getByTestId('current-plan'), 'subscribe-cancelled', {
    waitForToasts: false,
    fullPage: true,
  });

  // The Billing tab follows.
  await page.goto('/settings/profile?tab=billing');
  await expect(page.getByTestId('billing-plan')).toHaveText('Professional');
  await expect(page.getByRole('progressbar', { name: 'Agents: 5 of Unlimited' })).toBeVisible();
});

test('the subscribe view of an organization without a subscription', async ({ page, request }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const { token } = await createAccount(request);
  // A new organization is always trialing: the free tier of an organization from before plans (never
  // on a trial, nothing bought) is stood in here.
  await page.route('**/api/subscription-status', (route) =>
    route.fulfill({
      json: {
        status: 'no_subscription',
        plan: null,
        trialEnd: null,
        currentPeriodEnd: null,
        cancelAtPeriodEnd: false,
        pendingPlan: null,
        trialUsed: false,
        interval: 'month',
        paymentMethod: null,
        atTrialEnd: null,
        usage: { agents: 3, executionsThisMonth: 80, members: 1, knowledgeStorageBytes: 0 },
        limits: { agents: 3, executionsPerMonth: 100, members: 1, knowledgeStorageBytes: 50 * 1024 * 1024 },
      },
    }),
  );
  await page.addInitScript((value) => localStorage.setItem('authToken', value), token as string);

  await page.goto('/subscribe?plan=enterprise');
  await expect(page.getByRole('heading', { name: 'Subscribe to Enterprise' })).toBeVisible();
  await expect(page.getByText('On-premise option')).toBeVisible();
  await expect(page.getByText('No card needed for the trial', { exact: false })).toBeVisible();
  for (const point of ['No Hidden Fees', '14-Day Trial', 'Cancel Anytime']) {
    await expect(page.getByText(point, { exact: true })).toBeVisible();
  }

  await page.goto('/subscribe');
  await expect(page.getByRole('heading', { name: 'Subscribe to Professional' })).toBeVisible();
  await expect(page.getByText('Most Popular')).toBeVisible();
  await snapScreens(page, page.getByRole('button', { name: 'Start 14-Day Trial' }), 'subscribe-new', {
    waitForToasts: false,
    fullPage: true,
  });

  // The free tier's meters: full and warning.
  await page.goto('/settings/profile?tab=billing');
  await expect(page.getByTestId('billing-plan')).toHaveText('Free');
  await expect(page.getByRole('progressbar', { name: 'Agents: 3 of 3' })).toBeVisible();
  await expect(page.getByText('Plan limit reached')).toBeVisible();
  await snapScreens(page, page.getByTestId('billing-plan'), 'billing-tab-free', {
    waitForToasts: false,
    fullPage: true,
  });

  // View History with a payment provider's invoices (stood in here: these tests run without Stripe).
  const created = Math.floor(Date.UTC(2026, 2, 1) / 1000);
  const invoice = (n: number, fields: Record<string, unknown>) => ({
    id: `in_e2e_${n}`,
    number: `E2E0C0DE-000${n}`,
    status: 'paid',
    amountDue: 4900,
    amountPaid: 4900,
    currency: 'usd',
    created: created - (3 - n) * 30 * 86_400,
    periodStart: null,
    periodEnd: null,
    hostedInvoiceUrl: `https://invoice.stripe.com/i/acct_e2e/test_${n}`,
    pdfUrl: `https://pay.stripe.com/invoice/acct_e2e/test_${n}/pdf`,
    ...fields,
  });
  await page.route('**/api/billing/invoices', (route) =>
    route.fulfill({
      json: {
        provider: 'stripe',
        invoices: [
          invoice(3, { status: 'open', amountPaid: 0 }),
          invoice(2, {}),
          invoice(1, { amountDue: 0, amountPaid: 0 }),
        ],
      },
    }),
  );
  await page.getByRole('button', { name: 'View History' }).click();
  const history = page.getByRole('dialog', { name: 'Billing history' });
  const rows = history.getByTestId('invoice-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.first()).toContainText('$49.00');
  await expect(rows.first()).toContainText('Due');
  await expect(rows.nth(1)).toContainText('Paid');
  const view = rows.first().getByRole('link', { name: 'View invoice E2E0C0DE-0003 (opens in a new tab)' });
  await expect(view).toHaveAttribute('href', 'https://invoice.stripe.com/i/acct_e2e/test_3');
  await expect(view).toHaveAttribute('target', '_blank');
  await snapScreens(page, rows.first(), 'billing-history', { waitForToasts: false });
});

test('after its trial, an organization is offered no second trial', async ({ page, request }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const { token } = await createAccount(request);
  // The trial was granted at sign-up; the server says so from the start.
  const real = await request.get('/api/subscription-status', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(await real.json()).toMatchObject({ status: 'trialing', trialUsed: true });
  // Its end (14 days on) is stood in here: Free, with the trial used.
  await page.route('**/api/subscription-status', async (route) => {
    const live = await route.fetch();
    const body = (await live.json()) as Record<string, unknown>;
    await route.fulfill({
      json: {
        ...body,
        status: 'no_subscription',
        plan: null,
        trialEnd: null,
        currentPeriodEnd: null,
        atTrialEnd: null,
        limits: { ...(body.limits as object), agents: 3, executionsPerMonth: 100, members: 1 },
      },
    });
  });
  await page.addInitScript((value) => localStorage.setItem('authToken', value), token as string);

  await page.goto('/settings/profile?tab=billing');
  await expect(page.getByTestId('billing-plan')).toHaveText('Free');
  await expect(
    page.getByText('Your organization has used its free trial. Subscribe to a plan to unlock more', {
      exact: false,
    }),
  ).toBeVisible();
  await expect(page.getByText('Try Professional free for 14 days')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Start Trial' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Choose a Plan' }).click();

  // /subscribe: no trial button; without a payment provider, why no plan can start.
  await expect(page).toHaveURL(/\/subscribe\?plan=professional$/);
  await expect(page.getByRole('heading', { name: 'Subscribe to Professional' })).toBeVisible();
  await expect(
    page.getByText(
      'Your organization has used its free trial, and no payment provider is configured on this server, so a paid plan cannot be started yet.',
    ),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start 14-Day Trial' })).toHaveCount(0);
  await expect(page.getByText('14-Day Trial', { exact: true })).toHaveCount(0);
  await snapScreens(
    page,
    page.getByRole('heading', { name: 'Subscribe to Professional' }),
    'subscribe-trial-used',
    {
      waitForToasts: false,
      fullPage: true,
    },
  );
});
