import type { Page } from '@playwright/test';
import { pdfWithText, pdfWithoutText } from '../apps/server/src/testing/hand-made-pdf';
import { expect, expectToast, snapScreens, uniqueName } from './fixtures';
import { signedInOnFakeModel, test } from './fake-model';

const FAQ = [
  '# Refund policy',
  '',
  'Refunds are paid back to the original card within five business days after the returned item arrives.',
  '',
  '## Shipping',
  '',
  'Orders ship from our Lisbon warehouse every weekday.',
].join('\n');

const PRICES = ['product,price,currency', 'Widget,12.50,EUR', 'Gadget,30.00,EUR', 'Gizmo,7.25,EUR'].join(
  '\n',
);

// A two-page PDF written by hand (the server suites use the same maker): its text is read on the server.
const HANDBOOK_PDF = pdfWithText([
  ['Employee handbook', 'Laptops are replaced every three years by the IT desk.'],
  ['Badges are collected from reception on the first day.'],
]);

function documentRow(page: Page, name: string) {
  return page.getByTestId('knowledge-document').filter({ hasText: name });
}

async function createKnowledgeBase(page: Page, name: string) {
  await page.goto('/knowledge');
  await expect(page.getByRole('heading', { name: 'Knowledge', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Create Knowledge Base' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create Knowledge Base' });
  await expect(dialog.getByLabel('Embedding model')).toHaveValue('text-embedding-3-small');
  await expect(dialog.getByRole('combobox', { name: 'Embedding connection' })).toHaveText('OpenAI');
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Description').fill('What support answers customers');
  await snapScreens(page, dialog, 'knowledge-create-dialog');
  await dialog.getByRole('button', { name: 'Create Knowledge Base' }).click();
  await expectToast(page, 'Knowledge Base Created');
  // Straight to the new knowledge base.
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
}

test('create a knowledge base, upload Markdown, CSV and PDF, search them, delete one', async ({
  page,
  request,
  fake,
}) => {
  test.setTimeout(90_000);
  await signedInOnFakeModel(page, request, fake);

  // No knowledge base yet: the empty state and the nav entry.
  await page.goto('/knowledge');
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Knowledge' }),
  ).toHaveAttribute('aria-current', 'page');
  await expect(page.getByText('No knowledge bases yet')).toBeVisible();

  const name = uniqueName('Support FAQ ');
  await createKnowledgeBase(page, name);
  await expect(page.getByText('No documents yet')).toBeVisible();

  // The drop zone names every type it takes.
  await expect(page.getByText('.txt, .md, .markdown, .html, .htm, .csv, .pdf')).toBeVisible();
  // Three files at once, read in the browser and sent with a progress bar each (the PDF as its bytes).
  await page.getByLabel('Upload files').setInputFiles([
    { name: 'faq.md', mimeType: 'text/markdown', buffer: Buffer.from(FAQ) },
    { name: 'prices.csv', mimeType: 'text/csv', buffer: Buffer.from(PRICES) },
    { name: 'handbook.pdf', mimeType: 'application/pdf', buffer: HANDBOOK_PDF },
  ]);
  const uploads = page.getByRole('region', { name: 'Uploads' });
  await expect(uploads.getByTestId('upload-row')).toHaveCount(3);
  await expect(uploads.locator('[data-phase="done"]')).toHaveCount(3);
  await expect(uploads.getByText('3 uploaded')).toBeVisible();

  // The workers ingest them: queued, processing, then ready with their chunks.
  for (const file of ['faq.md', 'prices.csv', 'handbook.pdf']) {
    await expect(documentRow(page, file).getByText('ready', { exact: true })).toBeVisible({
      timeout: 30_000,
    });
  }
  await expect(documentRow(page, 'faq.md')).toContainText('Markdown');
  await expect(documentRow(page, 'prices.csv')).toContainText('CSV');
  await expect(documentRow(page, 'handbook.pdf')).toContainText('PDF');
  const figures = page.getByRole('region', { name: 'Knowledge base figures' });
  await expect(figures.getByText('Documents')).toBeVisible();
  await expect(figures.getByTestId('stat-value').first()).toHaveText('3');

  // Search: the refund policy comes first, with its score and text.
  await page
    .getByRole('searchbox', { name: 'Search this knowledge base' })
    .fill('when are refunds paid back');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const hits = page.getByRole('list', { name: 'Search results' }).getByTestId('search-hit');
  await expect(hits.first()).toBeVisible();
  await expect(hits.first().getByTestId('search-hit-document')).toHaveText('faq.md');
  await expect(hits.first()).toContainText(/\d+%/);
  await expect(hits.first()).toContainText('Refunds are paid back');

  // The PDF's text, read from its pages on the server, is found too.
  await page.getByRole('searchbox', { name: 'Search this knowledge base' }).fill('when are laptops replaced');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(hits.first().getByTestId('search-hit-document')).toHaveText('handbook.pdf');
  await expect(hits.first()).toContainText('Laptops are replaced every three years');
  await snapScreens(page, page.getByRole('heading', { name, level: 1 }), 'knowledge-detail', {
    fullPage: true,
  });

  // Delete the CSV, after confirming.
  await documentRow(page, 'prices.csv').getByRole('button', { name: 'Delete prices.csv' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete document?' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, 'Document Deleted');
  await expect(documentRow(page, 'prices.csv')).toHaveCount(0);
  await expect(documentRow(page, 'faq.md')).toHaveCount(1);

  // The list shows the knowledge base with its counts and the organization's storage.
  await page.getByRole('link', { name: 'Back to Knowledge' }).click();
  const card = page.getByRole('article', { name });
  await expect(card).toContainText('2 documents');
  await expect(card).toContainText('text-embedding-3-small');
  await expect(page.getByRole('region', { name: 'Organization storage' })).toContainText('Storage Used');
  await snapScreens(page, card, 'knowledge-list');
});

test('files the browser refuses, pasted text, rename and delete', async ({ page, request, fake }) => {
  test.setTimeout(60_000);
  await signedInOnFakeModel(page, request, fake);
  const name = uniqueName('Handbook ');
  await createKnowledgeBase(page, name);

  // Refused before sending, each with its reason.
  const posted: string[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && req.url().endsWith('/documents')) posted.push(req.url());
  });
  await page.getByLabel('Upload files').setInputFiles([
    { name: 'slides.pptx', mimeType: 'application/octet-stream', buffer: Buffer.from('PK\u0003\u0004') },
    { name: 'renamed.pdf', mimeType: 'application/pdf', buffer: Buffer.from('PK\u0003\u0004 a zip') },
    { name: 'empty.txt', mimeType: 'text/plain', buffer: Buffer.alloc(0) },
    { name: 'blank.md', mimeType: 'text/markdown', buffer: Buffer.from('  \n\n ') },
  ]);
  const uploads = page.getByRole('region', { name: 'Uploads' });
  await expect(uploads.getByTestId('upload-row').filter({ hasText: 'slides.pptx' })).toContainText(
    'Unsupported file type',
  );
  await expect(uploads.getByTestId('upload-row').filter({ hasText: 'renamed.pdf' })).toContainText(
    'The file is not a PDF',
  );
  await expect(uploads.getByTestId('upload-row').filter({ hasText: 'empty.txt' })).toContainText(
    'The file is empty',
  );
  await expect(uploads.getByTestId('upload-row').filter({ hasText: 'blank.md' })).toContainText(
    'The file is empty',
  );
  await expect(uploads.getByText('0 uploaded · 4 failed')).toBeVisible();
  expect(posted).toEqual([]);
  await snapScreens(page, uploads, 'knowledge-upload-refused', { fullPage: true });
  await uploads.getByRole('button', { name: 'Clear finished' }).click();
  await expect(uploads).toHaveCount(0);

  // Paste text: one text document.
  await page.getByRole('button', { name: 'Paste Text' }).click();
  const paste = page.getByRole('dialog', { name: 'Paste Text' });
  await paste.getByLabel('Name').fill('Holiday policy');
  await paste.getByLabel('Text').fill('Employees take 25 days of paid holiday every year.');
  await paste.getByRole('button', { name: 'Add Text' }).click();
  await expectToast(page, 'Text Added');
  await expect(documentRow(page, 'Holiday policy')).toContainText('Text');
  await expect(documentRow(page, 'Holiday policy').getByText('ready', { exact: true })).toBeVisible({
    timeout: 30_000,
  });

  // A scanned PDF (a page without text): sent, then failed by the worker with what it needs.
  await page
    .getByLabel('Upload files')
    .setInputFiles([{ name: 'scan.pdf', mimeType: 'application/pdf', buffer: pdfWithoutText() }]);
  const scan = documentRow(page, 'scan.pdf');
  await expect(scan.getByText('failed', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(scan).toContainText(
    'The PDF has no text to index (a scanned document needs text recognition first).',
  );
  await snapScreens(page, scan, 'knowledge-scanned-pdf', { fullPage: true });

  // An embedding model that answers another vector length: the document fails, saying why.
  fake.embeddingDimensionsOverride(8);
  await page.getByRole('button', { name: 'Paste Text' }).click();
  await paste.getByLabel('Name').fill('Parental leave');
  await paste.getByLabel('Text').fill('Parents take 20 weeks of paid leave.');
  await paste.getByRole('button', { name: 'Add Text' }).click();
  const failed = documentRow(page, 'Parental leave');
  await expect(failed.getByText('failed', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(failed).toContainText('answered vectors of 8 dimensions');
  await snapScreens(page, failed, 'knowledge-failed-document', { fullPage: true });

  // Rename from the page.
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Knowledge Base' });
  const renamed = `${name} v2`;
  await edit.getByLabel('Name').fill(renamed);
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expectToast(page, 'Knowledge Base Updated');
  await expect(page.getByRole('heading', { name: renamed, level: 1 })).toBeVisible();

  // Delete it from the list, after confirming.
  await page.getByRole('link', { name: 'Back to Knowledge' }).click();
  const card = page.getByRole('article', { name: renamed });
  await card.getByRole('button', { name: `Actions for ${renamed}` }).click();
  await page.getByRole('menuitem', { name: 'Delete Knowledge Base' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete knowledge base?' });
  await expect(confirm).toContainText('3 documents');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, 'Knowledge Base Deleted');
  await expect(page.getByText('No knowledge bases yet')).toBeVisible();
});
