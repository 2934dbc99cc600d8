import { extractInWorker, type ExtractionLimits, type ExtractionRequest } from './extract-in-worker';
import { cleanText, readableText } from './plain-text';

/**
 * A document's text for chunking. Plain text and Markdown are read as written, here: cleaning them is
 * linear string work on at most the upload's 20 MiB, with no parser a hostile file could lead astray,
 * so a thread of their own would bound nothing and cost its start (tsx and the reader's modules, about
 * 100 ms of CPU a document, twenty times the rest of its ingestion). PDF, HTML and CSV are read on a
 * bounded thread (extract-in-worker.ts).
 */
export async function readDocumentText(
  document: Pick<ExtractionRequest, 'mediaType' | 'content' | 'file'>,
  limits: ExtractionLimits,
  signal?: AbortSignal,
): Promise<string> {
  if (document.mediaType === 'text/plain' || document.mediaType === 'text/markdown') {
    return readableText(cleanText(document.content), limits.maxTextBytes);
  }
  return extractInWorker(document, limits, signal);
}
