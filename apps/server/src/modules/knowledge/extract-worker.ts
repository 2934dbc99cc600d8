import { parentPort, workerData } from 'node:worker_threads';
import type { ExtractionAnswer, ExtractionRequest } from './extract-in-worker';
import { KnowledgeInputError } from './knowledge-input-error';

/*
 * The thread that reads one document's text (started by extract-in-worker.ts, which bounds its time
 * and heap): it reads, answers once, and is terminated. pdf.js and the parsers are loaded here only.
 */
const request = workerData as ExtractionRequest;

async function read(): Promise<string> {
  if (request.mediaType === 'application/pdf') {
    const { extractPdfText } = await import('./extract-pdf-text');
    return extractPdfText(request.file ?? new Uint8Array(), {
      maxPages: request.maxPages,
      maxTextBytes: request.maxTextBytes,
    });
  }
  const { extractText } = await import('./extract-text');
  return extractText(request.mediaType, request.content, request.maxTextBytes);
}

let answer: ExtractionAnswer;
try {
  answer = { text: await read() };
} catch (error) {
  answer =
    error instanceof KnowledgeInputError
      ? { reason: error.message }
      : { failure: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
}
parentPort!.postMessage(answer);
