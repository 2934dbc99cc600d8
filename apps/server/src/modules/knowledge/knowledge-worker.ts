import type { Logger } from 'pino';
import type { EventBus } from '../../platform/events';
import { channels } from '../../platform/notifications/channels';
import { startClaimLoops } from '../../platform/notifications/claim-loops';
import type { Ingestion } from './ingest-document';

export type KnowledgeWorkerOptions = {
  ingestion: Ingestion;
  /** Its notifications wake the loops when a document is queued; without one they only poll. */
  bus?: Pick<EventBus, 'listen'>;
  logger?: Logger;
  /** Documents this process ingests at once (one claim loop each). */
  concurrency?: number;
  /** How often an idle loop looks when nothing woke it (documents whose worker died, missed wake-ups). */
  pollMs?: number;
};

const POLL_MS = 5000;

/**
 * The workers' side of knowledge: claim loops (platform/notifications/claim-loops.ts) that claim
 * queued documents and ingest them, woken by the NOTIFY that queuing a document sends
 * (channels.knowledge) and, idle, looking once per `pollMs`. On stop, documents in progress go back
 * to the queue for another worker (their ingestion sees the loops' signal abort).
 */
export function startKnowledgeWorker(options: KnowledgeWorkerOptions) {
  const { ingestion, logger } = options;
  return startClaimLoops({
    channel: options.bus && { bus: options.bus, channel: channels.knowledge },
    claimNext: (signal) => ingestion.ingestNext(signal),
    concurrency: options.concurrency ?? 2,
    pollMs: options.pollMs ?? POLL_MS,
    // The document keeps its state; once its lease lapses, the next claim takes it again.
    onError: (err) => logger?.warn({ err }, 'document ingestion ended with an error'),
  });
}
