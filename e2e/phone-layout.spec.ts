import type { APIRequestContext, Locator, Page } from '@playwright/test';

import { createAccount, expect, signInAs, snap, test, uniqueName, type Account } from './fixtures';
import { AGENT, setUpOneAgentWorkflow } from './one-agent-workflow';
import { fakeLlmPort } from './playwright.config';

// Every main page on a phone (390 px, and 360 px for a few): nothing is wider than the screen, in
// light and dark, with enough seeded data that cards, tables and dialogs have content. Then the
// phone-only promises: the menu's Sign Out on a short screen, the builder's canvas in view, and a toast
// that leaves the header's controls uncovered.

const PHONE = { width: 390, height: 844 };
const NARROW = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 900 };

/** A long unbroken word, as a pasted address or identifier: it must wrap or truncate, never widen. */
const LONG_WORD = 'competitor-price-digest-for-the-european-market-weekly-summary';

type Seeded = {
  account: Account;
  agentId: string;
  workflowId: string;
  workflowName: string;
  executionId: string;
  knowledgeBaseId: string;
  knowledgeBaseName: string;
};

/** An organization with an agent, an active workflow with one completed run and a knowledge base. */
async function seed(request: APIRequestContext): Promise<Seeded> {
  const { account, headers, workflow } = await setUpOneAgentWorkflow(
    request,
    `http://127.0.0.1:${fakeLlmPort}/v1`,
    'active',
  );
  const renamed = `${workflow.name} ${LONG_WORD}`;
  const update = await request.put(`/api/workflows/${workflow.id}`, { headers, data: { name: renamed } });
  expect(update.ok()).toBe(true);

  // Long names everywhere a name shows: another agent, and the organization.
  const second = await request.post('/api/agents', {
    headers,
    data: {
      name: `Analyst ${LONG_WORD}`,
      role: `Reads ${LONG_WORD}`,
      goal: 'Summarize competitor prices',
      description: `Watches ${LONG_WORD} and reports`,
      llmProvider: 'openai',
      llmModel: 'gpt-4o-mini-with-a-long-model-name-2026-01-01',
    },
  });
  expect(second.status()).toBe(201);
  const organization = await request.put(`/api/organizations/${account.organizationId}`, {
    headers,
    data: { name: `Acme ${LONG_WORD}` },
  });
  expect(organization.ok()).toBe(true);

  const agents = await (await request.get('/api/agents', { headers })).json();
  const agentId = (agents as { id: string; name: string }[]).find((a) => a.name === AGENT.name)!.id;

  const started = await request.post(`/api/workflows/${workflow.id}/execute`, {
    headers,
    data: { input: { topic: LONG_WORD }, dynamicInstructions: '', parameters: {} },
  });
  expect(started.status()).toBe(202);
  const executionId = (await started.json()).id as string;
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/executions/${executionId}`, { headers });
        return (await res.json()).status;
      },
      { timeout: 20_000 },
    )
    .toBe('completed');

  const knowledgeBaseName = uniqueName(`Support answers ${LONG_WORD} `);
  const kb = await request.post('/api/knowledge-bases', {
    headers,
    data: { name: knowledgeBaseName, description: `Refunds, shipping and ${LONG_WORD}` },
  });
  expect(kb.status()).toBe(201);
  const knowledgeBaseId = (await kb.json()).id as string;
  const doc = await request.post(`/api/knowledge-bases/${knowledgeBaseId}/documents`, {
    headers,
    data: {
      name: `${LONG_WORD}.md`,
      mediaType: 'text/markdown',
      content: '# Refunds\n\nRefunds are paid back within five business days.',
    },
  });
  expect(doc.status()).toBe(201);
  // Given to the agent: its Tools tab shows the base in Knowledge and as a connected tool.
  const picked = await request.put(`/api/agents/${agentId}/knowledge-bases`, {
    headers,
    data: { knowledgeBaseIds: [knowledgeBaseId] },
  });
  expect(picked.status()).toBe(200);

  return {
    account,
    agentId,
    workflowId: workflow.id,
    workflowName: renamed,
    executionId,
    knowledgeBaseId,
    knowledgeBaseName,
  };
}

/** What sticks out past the right edge, for the failure message: the outermost offenders. */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const wide: string[] = [];
    for (const element of Array.from(document.body.querySelectorAll('*'))) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.right <= width + 1) continue;
      // Inside a scrolling box the overflow is the box's own business.
      let parent = element.parentElement;
      let clipped = false;
      while (parent && parent !== document.body) {
        const style = getComputedStyle(parent);
        if (
          /(auto|scroll|hidden|clip)/.test(style.overflowX) &&
          parent.getBoundingClientRect().right <= width + 1
        ) {
          clipped = true;
          break;
        }
        parent = parent.parentElement;
      }
      if (clipped) continue;
      if (element.parentElement && wide.includes(describe(element.parentElement))) continue;
      wide.push(describe(element));
      if (wide.length >= 6) break;
    }
    function describe(element: Element) {
      const testId = element.getAttribute('data-testid');
      const cls = typeof element.className === 'string' ? element.className.slice(0, 90) : '';
      return `${element.tagName.toLowerCase()}${testId ? `[${testId}]` : ''} .${cls} (right ${Math.round(element.getBoundingClientRect().right)})`;
    }
    return {
      width,
      documentWidth: document.documentElement.scrollWidth,
      bodyWidth: document.body.scrollWidth,
      wide,
    };
  });
}

/** The page fits the screen: neither the document nor the body scrolls sideways. */
async function expectFits(page: Page, label: string) {
  const result = await overflow(page);
  const message = `${label} at ${result.width} px: document ${result.documentWidth}, body ${result.bodyWidth}; ${result.wide.join(' | ')}`;
  expect.soft(result.documentWidth, message).toBeLessThanOrEqual(result.width);
  expect.soft(result.bodyWidth, message).toBeLessThanOrEqual(result.width);
}

type Visit = {
  name: string;
  path: string;
  ready: (page: Page) => Locator;
  after?: (page: Page) => Promise<void>;
};

function signedInPages(s: Seeded): Visit[] {
  return [
    {
      name: 'dashboard',
      path: '/dashboard',
      ready: (page) => page.getByText(AGENT.name).first(),
      after: async (page) => {
        await page.getByRole('tab', { name: 'Recent Executions' }).click();
        await expect(page.getByRole('link', { name: new RegExp(s.workflowName) })).toBeVisible();
      },
    },
    { name: 'agents', path: '/agents', ready: (page) => page.getByTestId('agent-card').first() },
    {
      name: 'agent',
      path: `/agents/edit/${s.agentId}`,
      ready: (page) => page.getByRole('heading', { level: 1 }),
      // The Tools tab: the Knowledge section lists the seeded base, whose description is long.
      after: async (page) => {
        await page.getByRole('tab', { name: 'Tools' }).click();
        await expect(page.getByText(s.knowledgeBaseName).first()).toBeVisible();
      },
    },
    { name: 'workflows', path: '/workflows', ready: (page) => page.getByTestId('workflow-card').first() },
    {
      name: 'builder',
      path: `/workflows/edit/${s.workflowId}`,
      ready: (page) => page.locator('.react-flow__node').first(),
    },
    {
      name: 'executions',
      path: '/workflows?tab=executions',
      ready: (page) => page.getByTestId('execution-card').first(),
    },
    {
      name: 'execution-details',
      path: `/workflows?tab=executions&run=${s.executionId}`,
      ready: (page) => page.getByRole('dialog', { name: 'Execution Details' }),
    },
    { name: 'knowledge', path: '/knowledge', ready: (page) => page.getByText(s.knowledgeBaseName).first() },
    {
      name: 'knowledge-base',
      path: `/knowledge/${s.knowledgeBaseId}`,
      ready: (page) => page.getByTestId('knowledge-document').first(),
    },
    { name: 'tools', path: '/tools', ready: (page) => page.getByRole('heading', { level: 1 }) },
    { name: 'templates', path: '/templates', ready: (page) => page.getByRole('heading', { level: 1 }) },
    { name: 'analytics', path: '/analytics', ready: (page) => page.getByRole('heading', { level: 1 }) },
    ...['profile', 'billing', 'organization', 'tools', 'costs', 'api-keys', 'audit'].map((tab) => ({
      name: `settings-${tab}`,
      path: `/settings/profile?tab=${tab}`,
      ready: (page: Page) => page.getByRole('tabpanel'),
    })),
    { name: 'subscribe', path: '/subscribe', ready: (page) => page.getByRole('heading').first() },
    { name: 'docs', path: '/docs', ready: (page) => page.getByRole('heading', { level: 1 }) },
  ];
}

const signedOutPages: Visit[] = [
  { name: 'landing', path: '/', ready: (page) => page.getByRole('heading', { level: 1 }) },
  {
    name: 'login',
    path: '/login',
    ready: (page) => page.getByRole('button', { name: 'Sign In', exact: true }),
  },
  { name: 'signup', path: '/signup', ready: (page) => page.getByRole('button', { name: 'Create Account' }) },
  { name: 'docs-signed-out', path: '/docs', ready: (page) => page.getByRole('heading', { level: 1 }) },
];

async function tour(page: Page, visits: Visit[], scheme: 'light' | 'dark', viewport = PHONE) {
  await page.emulateMedia({ colorScheme: scheme });
  await page.setViewportSize(viewport);
  for (const visit of visits) {
    await page.goto(visit.path);
    await expect(visit.ready(page), visit.name).toBeVisible({ timeout: 15_000 });
    // Late content (counts, charts) settles before the measure.
    await page.waitForTimeout(300);
    await expectFits(page, visit.name);
    await snap(page, `full4-${visit.name}-${scheme}-${viewport.width}`);
    if (visit.after) {
      await visit.after(page);
      await expectFits(page, `${visit.name} (after)`);
      await snap(page, `full4-${visit.name}-after-${scheme}-${viewport.width}`);
    }
  }
}

for (const scheme of ['light', 'dark'] as const) {
  test(`every signed-in page fits a phone (${scheme})`, async ({ page, request }) => {
    test.setTimeout(240_000);
    const seeded = await seed(request);
    await signInAs(page, seeded.account);
    const visits = signedInPages(seeded);
    await tour(page, visits, scheme);
    // The narrowest phones, on the busiest pages; and the desktop, for the screenshots.
    const busiest = visits.filter((v) =>
      ['dashboard', 'workflows', 'builder', 'execution-details'].includes(v.name),
    );
    await tour(page, busiest, scheme, NARROW);
    const reviewed = ['dashboard', 'workflows', 'builder', 'agent', 'execution-details'];
    await tour(
      page,
      visits.filter((v) => reviewed.includes(v.name)),
      scheme,
      DESKTOP,
    );
  });

  test(`the signed-out pages fit a phone (${scheme})`, async ({ page }) => {
    test.setTimeout(60_000);
    await tour(page, signedOutPages, scheme);
    await tour(page, signedOutPages.slice(0, 2), scheme, NARROW);
  });
}

test('on a short phone the menu scrolls to Sign Out', async ({ page, request }) => {
  const account = await createAccount(request);
  await signInAs(page, account);
  await page.setViewportSize({ width: 360, height: 560 });
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Open menu' }).click();
  const signOut = page.getByRole('button', { name: 'Sign Out' });
  await signOut.scrollIntoViewIfNeeded();
  await expect(signOut).toBeInViewport({ ratio: 1 });
  await signOut.click();
  await expect(page).toHaveURL(/\/login(\?|$)/);
});

test('the builder on a phone opens with the canvas in view, and a toast leaves the header uncovered', async ({
  page,
  request,
}) => {
  const { account, workflow } = await setUpOneAgentWorkflow(
    request,
    `http://127.0.0.1:${fakeLlmPort}/v1`,
    'draft',
  );
  await signInAs(page, account);
  await page.setViewportSize(PHONE);
  await page.goto(`/workflows/edit/${workflow.id}`);
  // The canvas is the first thing below the header, and fitted: Start, the agent and End all show.
  const canvas = page.locator('.react-flow');
  await expect(canvas).toBeInViewport({ ratio: 0.6 });
  for (const node of await page.locator('.react-flow__node').all()) await expect(node).toBeInViewport();
  const header = page.locator('main header').first();
  const headerBox = (await header.boundingBox())!;
  const canvasBox = (await canvas.boundingBox())!;
  expect(canvasBox.y).toBeGreaterThanOrEqual(headerBox.y + headerBox.height - 1);
  await expectFits(page, 'builder');

  await page.getByRole('button', { name: 'Validate' }).click();
  const toast = page.locator('[data-slot="toast"]').first();
  await expect(toast).toBeVisible();
  const toastBox = (await toast.boundingBox())!;
  // Below the header, never over its controls.
  expect(toastBox.y).toBeGreaterThanOrEqual(headerBox.y + headerBox.height);
  await snap(page, 'full4-builder-toast-phone');
});
