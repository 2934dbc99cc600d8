import { createAccount, expect, expectToast, snapScreens, test } from './fixtures';

// What billing says is so: a trial without a card ends on Free, yearly prices are 20 % off, ?plan=
// selects any plan (Enterprise included), and subscribing says 'Subscription Created'.

test('a trial without a payment method says it ends on Free; Settings → Organization shows the same plan', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const owner = await createAccount(request);
  await page.addInitScript((value) => localStorage.setItem('authToken', value), owner.token);

  await page.goto('/settings/profile?tab=billing');
  await expect(page.getByTestId('billing-plan')).toHaveText('Professional');
  const trialText = page.getByTestId('billing-summary-text');
  await expect(trialText).toHaveText(
    /^Trial ends .+\. Without a payment method, the organization moves to the Free plan then\.$/,
  );
  await expect(page.getByText(/Next billing|Renews/i)).toHaveCount(0);
  await snapScreens(page, trialText, 'honest-billing-tab', { waitForToasts: false, fullPage: true });

  // Settings → Organization: the plan Billing shows.
  await page.getByRole('tab', { name: 'Organization' }).click();
  await expect(page.getByTestId('organization-plan')).toHaveText('Professional (trial)');
  await snapScreens(page, page.getByTestId('organization-plan'), 'honest-organization-owner', {
    waitForToasts: false,
  });

  // Billing Management: the same sentence, no 'Next Billing'; ?plan=enterprise opens Change Plan on it.
  await page.goto('/subscribe?plan=enterprise');
  const picker = page.getByRole('dialog', { name: 'Change Plan' });
  await expect(picker.getByRole('radio', { name: /^Enterprise/ })).toHaveAttribute('aria-checked', 'true');
  // No payment provider in these tests: invoices are the contact path, through Talk to Sales.
  await expect(
    picker.getByText('To pay Enterprise by invoice, contact sales', { exact: false }),
  ).toBeVisible();
  await expect(picker.getByRole('button', { name: 'Talk to Sales' })).toBeVisible();
  await picker.getByRole('radio', { name: /^Yearly/ }).click();
  await expect(
    picker.getByRole('radio', { name: 'Enterprise $119.20 per month, $1,430.40 per year' }),
  ).toBeVisible();
  await expect(picker.getByText('$1,430.40 billed yearly')).toBeVisible();
  await snapScreens(page, picker, 'honest-change-plan-yearly', { waitForToasts: false });
  await picker.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('trial-end-text')).toHaveText(
    /^Trial ends .+\. Without a payment method, the organization moves to the Free plan then\.$/,
  );
  await expect(page.getByText('Next Billing')).toHaveCount(0);
  await snapScreens(page, page.getByTestId('trial-end-text'), 'honest-subscribe-manage', {
    waitForToasts: false,
    fullPage: true,
  });
});

test('from Free: ?plan=enterprise selects Enterprise, Yearly prices, and Subscription Created', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const owner = await createAccount(request);
  // An organization on Free that never had a trial (one from before plans) is stood in here; the
  // subscription itself is the server's.
  let free = true;
  await page.route('**/api/subscription-status', async (route) => {
    const live = await route.fetch();
    // A request the page dropped meanwhile (it navigated on) has no answer left to read.
    const body = (await live.json().catch(() => null)) as Record<string, unknown> | null;
    if (!body) return route.abort().catch(() => undefined);
    await route.fulfill({
      json: free
        ? {
            ...body,
            status: 'no_subscription',
            plan: null,
            trialEnd: null,
            currentPeriodEnd: null,
            trialUsed: false,
            atTrialEnd: null,
          }
        : body,
    });
  });
  await page.addInitScript((value) => localStorage.setItem('authToken', value), owner.token);

  await page.goto('/subscribe?plan=enterprise');
  await expect(page.getByRole('heading', { name: 'Subscribe to Enterprise' })).toBeVisible();
  const plans = page.getByRole('radiogroup', { name: 'Plans' });
  await expect(plans.getByRole('radio', { name: 'Enterprise' })).toHaveAttribute('aria-checked', 'true');
  const price = page.getByTestId('plan-price');
  await expect(price).toHaveText('$149/month');
  await snapScreens(page, price, 'honest-subscribe-monthly', { waitForToasts: false, fullPage: true });

  // Yearly: 12 × $149 less 20 % = $1,430.40 a year, $119.20 a month.
  await page.getByRole('radio', { name: /^Yearly/ }).click();
  await expect(page).toHaveURL(/interval=year/);
  await expect(price).toHaveText('$119.20/month$1,430.40 billed yearly');
  await snapScreens(page, price, 'honest-subscribe-yearly', { waitForToasts: false, fullPage: true });

  // Every plan is selectable; the URL keeps the choice.
  await plans.getByRole('radio', { name: 'Starter' }).click();
  await expect(page).toHaveURL(/plan=starter/);
  await expect(price).toHaveText('$15.20/month$182.40 billed yearly');
  await plans.getByRole('radio', { name: 'Professional' }).click();
  await expect(price).toHaveText('$39.20/month$470.40 billed yearly');

  const sent = page.waitForRequest('**/api/create-subscription');
  await page.getByRole('button', { name: 'Start 14-Day Trial' }).click();
  expect((await sent).postDataJSON()).toEqual({ planId: 'professional', interval: 'year', amount: 47_040 });
  await expectToast(page, 'Subscription Created');
  await expectToast(page, 'Your 14-day trial has started!');
  free = false;

  // The server stored the yearly interval.
  const status = await request.get('/api/subscription-status', {
    headers: { Authorization: `Bearer ${owner.token}` },
  });
  expect(await status.json()).toMatchObject({ plan: 'professional', interval: 'year', paymentMethod: null });
});
