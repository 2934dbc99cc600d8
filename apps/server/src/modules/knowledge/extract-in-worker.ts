import { Worker } from 'node:worker_threads';
import type { KnowledgeMediaType } from '@crewline/contracts';
import { formatNumber } from '@crewline/contracts/format-number';
import type { KnowledgeExtractionLimits } from '../../platform/env';
import { KnowledgeInputError } from './knowledge-input-error';

/** What the reading thread is given (its workerData). */
export type ExtractionRequest = {
  mediaType: KnowledgeMediaType;
  /** A text type's content; empty for a PDF. */
  content: string;
  /** A PDF's bytes. */
  file: Uint8Array | null;
  maxPages: number;
  maxTextBytes?: number;
};

/** What it answers: the text, a reason the user can act on, or a failure that is ours (a bug). */
export type ExtractionAnswer = { text: string } | { reason: string } | { failure: string };

export type ExtractionLimits = KnowledgeExtractionLimits & {
  /** UTF-8 bytes of text a document may yield: 20 MiB unless a test says otherwise. */
  maxTextBytes?: number;
};

export const extractionTimedOut = (timeoutMs: number) =>
  `Reading the document took longer than ${formatNumber(timeoutMs / 1000)} seconds; split it into smaller documents.`;
export const extractionOutOfMemory = (memoryMb: number) =>
  `Reading the document needed more than ${formatNumber(memoryMb)} MiB of memory; split it into smaller documents.`;

const THREAD = new URL('./extract-worker.ts', import.meta.url);
/**
 * The thread loads its TypeScript through tsx, as the server does (`--import tsx`), given as the
 * resolved file so it works the same whatever started the process: `npm start`, the dev server, the
 * tests (whose runner compiles TypeScript itself and passes no such flag).
 */
const TSX = import.meta.resolve('tsx');

/**
 * A document's text, read on a thread of its own (extract-worker.ts), so that pdf.js and the HTML and
 * CSV parsers never hold the event loop that serves requests and renews leases (in ROLE=all that loop
 * is the API's too), and a hostile document is bounded three ways: its text by the 20 MiB budget in the
 * thread, its heap by `resourceLimits` (past it the thread dies, the process does not), and its time
 * by terminating the thread once `timeoutMs` has passed. Each ends as a KnowledgeInputError that names
 * the limit. `signal` (the worker stopping, the document deleted) terminates the thread at once.
 */
export function extractInWorker(
  document: Pick<ExtractionRequest, 'mediaType' | 'content' | 'file'>,
  limits: ExtractionLimits,
  signal?: AbortSignal,
): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const request: ExtractionRequest = {
      ...document,
      maxPages: limits.pdfMaxPages,
      maxTextBytes: limits.maxTextBytes,
    };
    const thread = new Worker(THREAD, {
      workerData: request,
      execArgv: ['--import', TSX],
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb },
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void thread.terminate();
      outcome();
    };
    const timer = setTimeout(
      () => settle(() => reject(new KnowledgeInputError(extractionTimedOut(limits.timeoutMs)))),
      limits.timeoutMs,
    );
    const onAbort = () => settle(() => reject(signal!.reason as Error));
    signal?.addEventListener('abort', onAbort, { once: true });
    thread.on('message', (answer: ExtractionAnswer) =>
      settle(() => {
        if ('text' in answer) resolve(answer.text);
        else if ('reason' in answer) reject(new KnowledgeInputError(answer.reason));
        else reject(new Error(`reading the document failed: ${answer.failure}`));
      }),
    );
    thread.on('error', (error: Error & { code?: string }) =>
      settle(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new KnowledgeInputError(extractionOutOfMemory(limits.memoryMb))
            : error,
        ),
      ),
    );
    thread.on('exit', (code) =>
      settle(() => reject(new Error(`the thread reading the document exited (${code}) without answering`))),
    );
  });
}
