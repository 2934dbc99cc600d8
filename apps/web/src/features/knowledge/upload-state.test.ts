import { KNOWLEDGE_MAX_DOCUMENT_BYTES } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import { FILE_MESSAGES } from './knowledge-files';
import {
  plannedUploads,
  runWithConcurrency,
  summarizeUploads,
  uploadsReducer,
  uploadStatusText,
  type UploadItem,
} from './upload-state';

function ids() {
  let n = 0;
  return () => `u${++n}`;
}

const picked = [
  { name: 'faq.md', size: 120, type: '' },
  {
    name: 'slides.pptx',
    size: 5000,
    type: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  },
  { name: 'empty.txt', size: 0, type: 'text/plain' },
  { name: 'huge.csv', size: KNOWLEDGE_MAX_DOCUMENT_BYTES + 1, type: 'text/csv' },
];

describe('plannedUploads', () => {
  it('queues the good files and refuses the others with a reason each', () => {
    const items = plannedUploads(picked, ids());
    expect(items.map((item) => [item.name, item.phase, item.error])).toEqual([
      ['faq.md', 'waiting', null],
      ['slides.pptx', 'rejected', FILE_MESSAGES.unsupported],
      ['empty.txt', 'rejected', FILE_MESSAGES.empty],
      ['huge.csv', 'rejected', FILE_MESSAGES.tooLarge],
    ]);
    expect(items[0].mediaType).toBe('text/markdown');
    expect(new Set(items.map((item) => item.id)).size).toBe(4);
  });
});

describe('uploadsReducer', () => {
  const start = () => uploadsReducer([], { type: 'added', items: plannedUploads(picked.slice(0, 2), ids()) });

  it('walks a file from waiting through reading and sending to done', () => {
    let items = start();
    items = uploadsReducer(items, { type: 'reading', id: 'u1' });
    expect(items[0].phase).toBe('reading');
    items = uploadsReducer(items, { type: 'uploading', id: 'u1' });
    items = uploadsReducer(items, { type: 'progress', id: 'u1', loaded: 50, total: 200 });
    expect(items[0]).toMatchObject({ phase: 'uploading', progress: 0.25 });
    expect(uploadStatusText(items[0])).toBe('Uploading 25%');
    items = uploadsReducer(items, { type: 'succeeded', id: 'u1' });
    expect(items[0]).toMatchObject({ phase: 'done', progress: 1 });
    expect(uploadStatusText(items[0])).toBe('Uploaded');
  });

  it('holds the bar under 100% until the server answers, and never moves it back', () => {
    let items = uploadsReducer(start(), { type: 'uploading', id: 'u1' });
    items = uploadsReducer(items, { type: 'progress', id: 'u1', loaded: 200, total: 200 });
    expect(items[0].progress).toBe(0.99);
    items = uploadsReducer(items, { type: 'progress', id: 'u1', loaded: 10, total: 200 });
    expect(items[0].progress).toBe(0.99);
  });

  it('ignores progress for a row that is not sending and events for unknown rows', () => {
    const items = start();
    expect(uploadsReducer(items, { type: 'progress', id: 'u1', loaded: 1, total: 2 })).toBe(items);
    expect(uploadsReducer(items, { type: 'succeeded', id: 'nope' })).toBe(items);
    // A refused row stays refused.
    expect(uploadsReducer(items, { type: 'reading', id: 'u2' })[1].phase).toBe('rejected');
  });

  it("keeps the server's reason for a failed upload", () => {
    let items = uploadsReducer(start(), { type: 'uploading', id: 'u1' });
    items = uploadsReducer(items, { type: 'failed', id: 'u1', error: 'The document is empty' });
    expect(items[0]).toMatchObject({ phase: 'failed', error: 'The document is empty' });
    expect(uploadStatusText(items[0])).toBe('The document is empty');
  });

  it('puts the newest picks on top, dismisses one row and clears the finished ones', () => {
    let items = start();
    const more = plannedUploads([{ name: 'notes.txt', size: 3 }], () => 'u9');
    items = uploadsReducer(items, { type: 'added', items: more });
    expect(items.map((item) => item.name)).toEqual(['notes.txt', 'faq.md', 'slides.pptx']);
    items = uploadsReducer(items, { type: 'succeeded', id: 'u9' });
    expect(summarizeUploads(items)).toEqual({ active: 1, done: 1, failed: 1 });
    expect(uploadsReducer(items, { type: 'dismissed', id: 'u2' }).map((item) => item.id)).toEqual([
      'u9',
      'u1',
    ]);
    expect(uploadsReducer(items, { type: 'clearedFinished' }).map((item) => item.id)).toEqual(['u1']);
  });
});

describe('runWithConcurrency', () => {
  it('runs every item, never more than the limit at once, past failures', async () => {
    let running = 0;
    let peak = 0;
    const seen: number[] = [];
    await runWithConcurrency([1, 2, 3, 4, 5], 2, async (n) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      seen.push(n);
      running -= 1;
      if (n === 2) throw new Error('boom');
    });
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5]);
    expect(peak).toBe(2);
  });

  it('does nothing for no items', async () => {
    const items: UploadItem[] = [];
    await expect(runWithConcurrency(items, 3, async () => {})).resolves.toBeUndefined();
  });
});
