import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { KnowledgeInputError } from './knowledge-input-error';
import { TEXT_TOO_LARGE } from './text-budget';
import type * as ExtractInWorker from './extract-in-worker';

const threads = vi.hoisted(() => ({ started: 0 }));
vi.mock('./extract-in-worker', async (original) => {
  const actual = await original<typeof ExtractInWorker>();
  return {
    ...actual,
    extractInWorker: (...args: Parameters<typeof actual.extractInWorker>) => {
      threads.started += 1;
      return actual.extractInWorker(...args);
    },
  };
});
// Server test files share their worker's modules (vitest.config.ts): read-document-text may already be
// loaded with the real extract-in-worker, so it is loaded again here, with the mock; and afterwards the
// files that follow get the real one back.
vi.resetModules();
const { readDocumentText } = await import('./read-document-text');
afterAll(() => {
  vi.doUnmock('./extract-in-worker');
  vi.resetModules();
});

const limits = { pdfMaxPages: 10, timeoutMs: 60_000, memoryMb: 256 };
const text = (mediaType: 'text/plain' | 'text/markdown' | 'text/html', content: string) => ({
  mediaType,
  content,
  file: null,
});

describe('readDocumentText', () => {
  beforeEach(() => {
    threads.started = 0;
  });

  it('reads plain text and Markdown as written, cleaned, without starting a thread', async () => {
    expect(await readDocumentText(text('text/plain', '\uFEFFRoom Atlas\r\nfloor 2\u0000\n'), limits)).toBe(
      'Room Atlas\nfloor 2',
    );
    expect(await readDocumentText(text('text/markdown', '# Rooms\r\n\r\n- Atlas'), limits)).toBe(
      '# Rooms\n\n- Atlas',
    );
    expect(threads.started).toBe(0);
  });

  it('refuses plain text with nothing readable or over the text limit, as the thread would', async () => {
    await expect(readDocumentText(text('text/plain', ' \r\n\u0000 '), limits)).rejects.toEqual(
      new KnowledgeInputError('The document has no text'),
    );
    await expect(
      readDocumentText(text('text/markdown', 'x'.repeat(2_000)), { ...limits, maxTextBytes: 1_000 }),
    ).rejects.toEqual(new KnowledgeInputError(TEXT_TOO_LARGE));
  });

  it('reads HTML on its bounded thread', async () => {
    expect(await readDocumentText(text('text/html', '<p>Room <b>Atlas</b></p>'), limits)).toBe('Room Atlas');
    expect(threads.started).toBe(1);
  });
});
