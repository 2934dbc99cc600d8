import type { Logger } from 'pino';
import type { PgEventBus } from '../../platform/events';
import { createWakeUps } from '../../platform/wake-ups';
import type { Ingestion } from './ingest-document';
import { KNOWLEDGE_CHANNEL } from './knowledge-channel';

export type KnowledgeWorkerOptions = {
  ingestion: Ingestion;
  /** Its LISTEN connection wakes the loops when a document is queued; without one they only poll. */
  bus?: Pick<PgEventBus, 'onChannel'>;
  logger?: Logger;
  /** Documents this process ingests at once (one claim loop each). */
  concurrency?: number;
  /** How often an idle loop looks when nothing woke it (documents whose worker died, missed wake-ups). */
  pollMs?: number;
};

const POLL_MS = 5000;

/**
 * The workers' side of knowledge: loops that claim queued documents and ingest them, woken by the
 * NOTIFY that queuing a document sends (KNOWLEDGE_CHANNEL) and, idle, looking once per `pollMs`.
 * A loop that ingested a document looks again at once while others wait. Every claim is caught, so
 * a database outage never ends a loop. The same shape as the execution worker (execution-worker.ts).
 */
export function startKnowledgeWorker(options: KnowledgeWorkerOptions) {
  const { ingestion, logger } = options;
  const concurrency = Math.max(1, options.concurrency ?? 2);
  let stopping = false;
  const halt = new AbortController();
  const wakeUps = createWakeUps(concurrency);

  async function loop() {
    while (!stopping) {
      let done: { more: boolean } | undefined;
      try {
        done = await ingestion.ingestNext(halt.signal);
      } catch (err) {
        // The document keeps its state; once its lease lapses, the next claim takes it again.
        logger?.warn({ err }, 'document ingestion ended with an error');
      }
      if (done?.more) {
        wakeUps.wakeIdle();
        continue;
      }
      await wakeUps.idle();
    }
  }

  const loops = Array.from({ length: concurrency }, () => loop());
  const unsubscribe = options.bus?.onChannel(KNOWLEDGE_CHANNEL, {
    onNotify: wakeUps.wakeOne,
    onMissed: wakeUps.wakeAll,
  });
  const poll = setInterval(wakeUps.wakeIdle, options.pollMs ?? POLL_MS);

  return {
    /** Wakes every idle loop to look for documents now. */
    wake: wakeUps.wakeAll,
    /** No claim starts after this; documents in progress go back to the queue for another worker. */
    async stop() {
      stopping = true;
      halt.abort();
      clearInterval(poll);
      unsubscribe?.();
      wakeUps.stop();
      await Promise.all(loops);
    },
  };
}
export type KnowledgeWorker = ReturnType<typeof startKnowledgeWorker>;
