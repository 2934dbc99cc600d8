import { Worker } from 'node:worker_threads';

/** How one HNSW index is made (fixed for its life: a file made with others is rebuilt). */
export type AnnThreadSettings = {
  dimensions: number;
  /** Quantisation of the stored vectors: f16 halves float32's memory and keeps recall (ADR 0056). */
  quantization: 'f32' | 'f16' | 'i8';
  /** HNSW's M: links per node and layer. */
  connectivity: number;
  /** ef_construction: candidates weighed when a vector is linked in. */
  expansionAdd: number;
  /** ef_search: candidates weighed per search (at least the k asked for). */
  expansionSearch: number;
  /** Threads an add may use (usearch's own; 0 is every core). */
  threads: number;
};

export type AnnRequest =
  | { op: 'add'; keys: BigUint64Array; vectors: Float32Array }
  | { op: 'remove'; keys: BigUint64Array }
  | { op: 'search'; query: Float32Array; k: number }
  | { op: 'save'; path: string }
  | { op: 'load'; path: string; bytes: number; crc: number };

export type AnnAnswer =
  { size: number } | { keys: BigUint64Array; distances: Float32Array } | { bytes: number; crc: number };

type Answer<R extends AnnRequest> = R extends { op: 'search' }
  ? { keys: BigUint64Array; distances: Float32Array }
  : R extends { op: 'save' }
    ? { bytes: number; crc: number }
    : { size: number };

const THREAD = new URL('./ann-worker.ts', import.meta.url);
// As extract-in-worker.ts: the thread's TypeScript through tsx, whatever started the process.
const TSX = import.meta.resolve('tsx');

/**
 * One HNSW index on a thread of its own (ann-worker.ts): requests are answered in order; a request
 * made after `close` or after the thread died fails. The thread does not keep the process alive.
 */
export function startAnnThread(settings: AnnThreadSettings) {
  const thread = new Worker(THREAD, { workerData: settings, execArgv: ['--import', TSX] });
  thread.unref();
  const pending = new Map<number, { resolve: (answer: AnnAnswer) => void; reject: (error: Error) => void }>();
  let next = 0;
  let ended: Error | null = null;
  const end = (error: Error) => {
    ended ??= error;
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  thread.on('message', (message: { id: number; answer?: AnnAnswer; error?: string }) => {
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (message.error !== undefined) waiting.reject(new Error(message.error));
    else waiting.resolve(message.answer!);
  });
  thread.on('error', (error) => end(error));
  thread.on('exit', (code) => end(new Error(`The vector index thread stopped (exit code ${code})`)));

  return {
    request<R extends AnnRequest>(request: R): Promise<Answer<R>> {
      if (ended) return Promise.reject(ended);
      const id = next++;
      return new Promise<AnnAnswer>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        // The vectors are moved to the thread, not copied (the caller does not use them again).
        const transfer =
          request.op === 'add'
            ? [request.vectors.buffer as ArrayBuffer, request.keys.buffer as ArrayBuffer]
            : request.op === 'search'
              ? [request.query.buffer as ArrayBuffer]
              : [];
        thread.postMessage({ id, request }, transfer);
      }) as Promise<Answer<R>>;
    },
    /** Stops the thread; its index's memory is released with it. */
    async close() {
      end(new Error('The vector index was closed'));
      await thread.terminate();
    },
  };
}
export type AnnThread = ReturnType<typeof startAnnThread>;
