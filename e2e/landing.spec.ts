// The landing page keeps its promises: the template chips filter the preview by the library's real
// categories and each card's trigger reads as it runs, every footer link leads to a page that answers,
// Talk to Sales sends its form, and Use Template carries the chosen template through sign-up.
import { createAccount, expect, snapScreens, snapSection, test, uniqueName, signUpAsAda } from './fixtures';

test('the category chips filter the preview by the library’s categories, and a schedule reads Scheduled', async ({
  page,
}) => {
  await page.goto('/');
  const section = page.locator('section#templates');
  await section.scrollIntoViewIfNeeded();
  const chips = section.getByRole('group', { name: 'Template categories' });
  const cards = section.getByTestId('landing-template-card');
  await expect(cards).toHaveCount(6);
  await expect(chips.getByRole('button')).toHaveText([
    'All',
    'Content Marketing',
    'Customer Service',
    'Email Marketing',
    'Business Intelligence',
  ]);

  await chips.getByRole('button', { name: 'Business Intelligence' }).click();
  await expect(chips.getByRole('button', { name: 'Business Intelligence' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  // Four agent pipelines and Lead Enrichment (a map over leads).
  await expect(cards).toHaveCount(5);
  for (const card of await cards.all()) await expect(card).toContainText('Business Intelligence');
  const digest = section.getByRole('article', { name: 'Weekly KPI Digest' });
  await expect(digest.getByTestId('landing-template-trigger')).toHaveText('Scheduled');
  await expect(section.getByText('Event-driven')).toHaveCount(0);
  await snapSection(page, section, 'full5-landing-templates-bi');

  await chips.getByRole('button', { name: 'Customer Service' }).click();
  // Four agent pipelines and Support Triage with Routing (a condition).
  await expect(cards).toHaveCount(5);
  for (const card of await cards.all()) await expect(card).toContainText('Customer Service');
  await expect(
    section.getByRole('article', { name: 'Support Ticket Triage' }).getByTestId('landing-template-trigger'),
  ).toHaveText('Event-driven');

  await chips.getByRole('button', { name: 'All' }).click();
  await expect(cards).toHaveCount(6);
});

test('every footer link goes to a page that answers 200', async ({ page, request }) => {
  await page.goto('/');
  const footer = page.locator('footer');
  await footer.scrollIntoViewIfNeeded();
  const links = footer.getByRole('link');
  // The logo (home) and the 8 of the Product and Resources columns.
  await expect(links).toHaveCount(9);
  for (const link of await links.all()) {
    const href = await link.getAttribute('href');
    // A path of this site, with a named section at most: never a bare `#`.
    expect(href, await link.innerText()).toMatch(/^\/[^#]*(#[a-z]+)?$/);
    const res = await request.get(href!);
    expect(res.status(), href!).toBe(200);
  }
  // A section link lands on its section of this page.
  for (const id of ['features', 'templates', 'integrations', 'pricing']) {
    await expect(page.locator(`section#${id}`)).toHaveCount(1);
  }
  await footer.getByRole('link', { name: 'Pricing' }).click();
  await expect(page).toHaveURL(/\/#pricing$/);
  await expect(page.getByRole('heading', { name: 'Simple pricing for every team' })).toBeInViewport();
  await footer.getByRole('link', { name: 'API Reference' }).click();
  await expect(page).toHaveURL(/\/docs\/api\/?$/);
  await page.goBack();
  await snapSection(page, page.locator('footer'), 'full5-landing-footer');
});

test('Talk to Sales sends the form and says what happens next', async ({ page }) => {
  const requests: string[] = [];
  page.on('request', (req) => requests.push(req.url()));
  await page.goto('/');
  const cta = page.getByRole('button', { name: 'Talk to Sales' });
  await cta.scrollIntoViewIfNeeded();
  // The form is not part of the page until it is asked for.
  expect(requests.some((url) => url.includes('sales-contact-dialog'))).toBe(false);
  await cta.click();

  const dialog = page.getByRole('dialog', { name: 'Talk to Sales' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Send message' }).click();
  await expect(dialog.getByText('Name is required')).toBeVisible();
  await expect(dialog.getByText('Enter a valid work email')).toBeVisible();
  await expect(dialog.getByText('Company is required')).toBeVisible();
  await expect(dialog.getByText('Message is required')).toBeVisible();

  const email = `${uniqueName('buyer')}@example.com`;
  await dialog.getByLabel('Name').fill('Grace Hopper');
  await dialog.getByLabel('Company').fill('Navy Labs');
  await dialog.getByLabel('Work email').fill(email);
  await dialog.getByLabel('Message').fill('We want Enterprise for 40 people. Can we talk next week?');
  await snapScreens(page, dialog, 'full5-sales-form');
  await dialog.getByRole('button', { name: 'Send message' }).click();

  await expect(dialog.getByRole('status')).toHaveText(
    `Thanks — we will reply to ${email} within one business day.`,
  );
  await snapScreens(page, dialog, 'full5-sales-sent');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toHaveCount(0);

  // The footer's Contact sales opens the same form, empty.
  await page.locator('footer').getByRole('button', { name: 'Contact sales' }).click();
  await expect(page.getByRole('dialog', { name: 'Talk to Sales' }).getByLabel('Name')).toHaveValue('');
});

test('Use Template → sign up → the chosen template opens in the app', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('/');
  const section = page.locator('section#templates');
  await section.scrollIntoViewIfNeeded();
  const card = section.getByRole('article', { name: 'Blog Post Pipeline' });
  await card.getByRole('link', { name: 'Use Template' }).click();
  await expect(page).toHaveURL(/\/signup\?template=[0-9a-f-]{36}$/);

  const username = uniqueName('tpl');
  await signUpAsAda(page, username);

  await expect(page).toHaveURL(/\/templates\?template=[0-9a-f-]{36}$/);
  const preview = page.getByRole('dialog', { name: 'Blog Post Pipeline' });
  await expect(preview).toBeVisible();
  await preview.getByRole('button', { name: 'Use Template' }).click();
  await expect(page).toHaveURL(/\/workflows$/);
  await expect(page.getByText('Blog Post Pipeline (Copy)').first()).toBeVisible();
});

test('Browse All Templates signed out → sign in → the templates page', async ({ page, request }) => {
  const account = await createAccount(request);
  await page.goto('/');
  await page.locator('section#templates').getByRole('link', { name: 'Browse All Templates' }).click();
  await expect(page).toHaveURL(/\/login\?next=%2Ftemplates$/);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/templates$/);
  await expect(page.getByRole('heading', { name: 'Template Marketplace' })).toBeVisible();
});
