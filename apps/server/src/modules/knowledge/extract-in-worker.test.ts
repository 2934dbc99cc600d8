import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { expandingPdf, pdfWithText } from '../../testing/hand-made-pdf';
import { extractInWorker, extractionTimedOut } from './extract-in-worker';
import { pdfTooManyPages } from './extract-pdf-text';
import { KnowledgeInputError } from './knowledge-input-error';
import { TEXT_TOO_LARGE } from './text-budget';

const limits = { pdfMaxPages: 10, timeoutMs: 60_000, memoryMb: 256 };
const pdf = (lines: string[]) => ({
  mediaType: 'application/pdf' as const,
  content: '',
  file: pdfWithText([lines]),
});

describe('extractInWorker', () => {
  it('reads a PDF and each text type on a thread of its own', async () => {
    expect(await extractInWorker(pdf(['Read on a thread.']), limits)).toBe('Read on a thread.');
    expect(
      await extractInWorker({ mediaType: 'text/csv', content: 'room,floor\nAtlas,2', file: null }, limits),
    ).toBe('room: Atlas; floor: 2');
  });

  it('answers the reader’s reasons as they are: the page limit and the text limit', async () => {
    const pages = {
      mediaType: 'application/pdf' as const,
      content: '',
      file: pdfWithText([['1'], ['2'], ['3']]),
    };
    await expect(extractInWorker(pages, { ...limits, pdfMaxPages: 2 })).rejects.toEqual(
      new KnowledgeInputError(pdfTooManyPages(2)),
    );
    const bomb = { mediaType: 'application/pdf' as const, content: '', file: expandingPdf() };
    await expect(extractInWorker(bomb, { ...limits, maxTextBytes: 500_000 })).rejects.toEqual(
      new KnowledgeInputError(TEXT_TOO_LARGE),
    );
  });

  it('stops the thread once the time limit has passed, naming it', async () => {
    // A millisecond: the thread cannot even have started by then, so no timing decides the outcome.
    await expect(extractInWorker(pdf(['Too slow.']), { ...limits, timeoutMs: 1 })).rejects.toEqual(
      new KnowledgeInputError(extractionTimedOut(1)),
    );
    expect(extractionTimedOut(120_000)).toBe(
      'Reading the document took longer than 120 seconds; split it into smaller documents.',
    );
  });

  it('stops the thread when the caller gives up', async () => {
    const abort = new AbortController();
    const reading = extractInWorker(pdf(['Not needed.']), limits, abort.signal);
    abort.abort(new Error('the worker is stopping'));
    await expect(reading).rejects.toThrow('the worker is stopping');
  });

  it('loads the thread the same way in a process started as `npm start` and the dev server start it', async () => {
    const module = fileURLToPath(new URL('./extract-in-worker.ts', import.meta.url));
    const script = `
      const { extractInWorker } = await import(${JSON.stringify(module)});
      const text = await extractInWorker({ mediaType: 'text/html', content: '<p>From <b>main.ts</b></p>', file: null },
        { pdfMaxPages: 10, timeoutMs: 60000, memoryMb: 256 });
      console.log(text);`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '--eval', script],
      { cwd: fileURLToPath(new URL('../../../../..', import.meta.url)) },
    );
    expect(stdout.trim()).toBe('From main.ts');
  });
});
