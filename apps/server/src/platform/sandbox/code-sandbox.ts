import { Worker } from 'node:worker_threads';
import {
  CODE_LOG_LINE_MAX,
  CODE_LOG_LINES_MAX,
  CODE_MEMORY_MB,
  CODE_RESULT_MAX_BYTES,
  codeMessages,
} from '@crewline/contracts';
import { MAX_JSON_DEPTH } from '../input-guard';
import type { ThreadAnswer, ThreadMessage, ThreadRequest } from './sandbox-thread';

/**
 * A Code step that failed in a way its author can act on: `message` is one of `codeMessages`.
 * `logs` are the `console` lines it wrote before it failed (empty when the thread was stopped).
 */
export class CodeStepError extends Error {
  override name = 'CodeStepError';
  constructor(
    message: string,
    readonly logs: string[] = [],
  ) {
    super(message);
  }
}

export type CodeRequest = {
  source: string;
  globals: { input: unknown; nodes: unknown; vars: unknown };
  timeoutMs: number;
  memoryMb: number;
};

export type CodeSandbox = {
  /** The code's result (copied as JSON) and its `console` lines; fails with a CodeStepError. */
  run(request: CodeRequest, signal?: AbortSignal): Promise<{ value: unknown; logs: string[] }>;
  /** Terminates the threads (server shutdown, tests); calls still waiting or running fail. */
  close(): Promise<void>;
};

const THREAD = new URL('./sandbox-thread.ts', import.meta.url);
/** The thread loads its TypeScript through tsx, as extract-in-worker.ts explains. */
const TSX = import.meta.resolve('tsx');
/**
 * The thread's interrupt handler stops the code at `timeoutMs`; this thread waits that long and this
 * much more for the answer before it terminates the thread (stuck in one long native operation).
 */
const GRACE_MS = 1_000;
/**
 * The thread's own JavaScript heap (the VM's memory is WebAssembly memory, bounded per call by
 * QuickJS): the globals' JSON (at most the largest memory limit), the result and the logs pass
 * through it. Its stack is 8 MiB so that QuickJS's own stack limit always trips first (see the thread).
 */
const THREAD_LIMITS = { maxOldGenerationSizeMb: CODE_MEMORY_MB.max + 64, stackSizeMb: 8 };

type Call = {
  id: number;
  request: ThreadRequest;
  memoryMb: number;
  timeoutMs: number;
  signal?: AbortSignal;
  onAbort: () => void;
  resolve(answer: { value: unknown; logs: string[] }): void;
  reject(error: Error): void;
  timer?: NodeJS.Timeout;
};

type Slot = { thread: Worker; ready: boolean; call: Call | null };

/** The logs as the step keeps them: one line more says how many were not kept. */
function keptLogs(answer: ThreadAnswer) {
  const more = answer.dropped;
  return more > 0 ? [...answer.logs, `… ${more} more line${more === 1 ? '' : 's'} not kept`] : answer.logs;
}

function settleWith(call: Call, answer: ThreadAnswer) {
  const logs = keptLogs(answer);
  if ('json' in answer) {
    let value: unknown;
    try {
      // Parsed here, from text: a `__proto__` key is an own property, nothing of the VM's reaches us.
      value = JSON.parse(answer.json);
    } catch (error) {
      return call.reject(new Error(`the code sandbox answered something other than JSON: ${String(error)}`));
    }
    call.resolve({ value, logs });
  } else if ('bug' in answer) {
    call.reject(new Error(`the code sandbox failed: ${answer.bug}`));
  } else {
    const message = {
      threw: () => codeMessages.threw(answer.detail),
      timedOut: () => codeMessages.timedOut(call.timeoutMs),
      outOfMemory: () => codeMessages.outOfMemory(call.memoryMb),
      tooLarge: () => codeMessages.tooLarge,
      notJson: () => codeMessages.notJson(answer.detail),
      neverSettled: () => codeMessages.neverSettled,
    }[answer.failure]();
    call.reject(new CodeStepError(message, logs));
  }
}

/**
 * The Code step's sandbox (docs/decisions/0046): QuickJS compiled to WebAssembly, on a small pool of
 * worker threads started when calls need them and kept warm. Each call gets a fresh QuickJS runtime
 * (no state between calls) with its memory limit, a stack limit and an interrupt handler at its
 * time limit; this thread also terminates a thread that does not answer within the time limit and a
 * grace, or whose call was aborted, and replaces a thread whose call hit the memory limit or whose
 * WebAssembly memory grew large. Calls beyond the pool's size wait their turn.
 */
export function createCodeSandbox(
  options: {
    threads?: number;
    /** The threads' script: sandbox-thread.ts (a test gives one that never answers, for the hard stop). */
    script?: URL;
  } = {},
): CodeSandbox {
  const size = Math.max(1, options.threads ?? 2);
  const slots = new Set<Slot>();
  const waiting: Call[] = [];
  let nextId = 0;
  let closed = false;

  function startThread() {
    const thread = new Worker(options.script ?? THREAD, {
      execArgv: ['--import', TSX],
      resourceLimits: THREAD_LIMITS,
    });
    const slot: Slot = { thread, ready: false, call: null };
    slots.add(slot);
    thread.on('message', (message: ThreadMessage) => {
      if (message.type === 'ready') {
        slot.ready = true;
        pump();
        // An idle thread does not keep the process alive; a starting or busy one does (see `send`).
        if (!slot.call) thread.unref();
        return;
      }
      const call = slot.call;
      if (!call || call.id !== message.id) return;
      slot.call = null;
      thread.unref();
      if (message.recycle) retire(slot);
      finish(call, () => settleWith(call, message));
      pump();
    });
    thread.on('error', (error: Error & { code?: string }) => {
      const { call, ready } = slot;
      retire(slot);
      if (call)
        finish(call, () =>
          call.reject(
            error.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? new CodeStepError(codeMessages.outOfMemory(call.memoryMb))
              : error,
          ),
        );
      // A thread that cannot even start: the waiting calls fail rather than start threads forever.
      if (!ready) for (const waiter of waiting.splice(0)) finish(waiter, () => waiter.reject(error));
      pump();
    });
    thread.on('exit', (code) => {
      const call = slot.call;
      retire(slot);
      if (call)
        finish(call, () =>
          call.reject(new Error(`the code sandbox's thread exited (${code}) without answering`)),
        );
      pump();
    });
  }

  /** Terminates a thread and forgets it; `pump` starts another when calls wait. */
  function retire(slot: Slot) {
    if (!slots.delete(slot)) return;
    slot.call = null;
    void slot.thread.terminate();
  }

  function finish(call: Call, settle: () => void) {
    clearTimeout(call.timer);
    call.signal?.removeEventListener('abort', call.onAbort);
    settle();
  }

  function send(slot: Slot, call: Call) {
    slot.call = call;
    slot.thread.ref();
    call.timer = setTimeout(() => {
      retire(slot);
      finish(call, () => call.reject(new CodeStepError(codeMessages.timedOut(call.timeoutMs))));
      pump();
    }, call.timeoutMs + GRACE_MS);
    slot.thread.postMessage(call.request);
  }

  /** Gives waiting calls to idle threads, and starts threads (up to the pool's size) for the rest. */
  function pump() {
    if (closed) return;
    while (waiting.length > 0) {
      const idle = [...slots].find((slot) => slot.ready && !slot.call);
      if (idle) {
        send(idle, waiting.shift()!);
        continue;
      }
      const starting = [...slots].filter((slot) => !slot.ready).length;
      if (slots.size >= size || starting >= waiting.length) return;
      try {
        startThread();
      } catch (error) {
        for (const waiter of waiting.splice(0)) finish(waiter, () => waiter.reject(error as Error));
      }
    }
  }

  return {
    run(request, signal) {
      return new Promise((resolve, reject) => {
        if (closed) return reject(new Error('the code sandbox is closed'));
        if (signal?.aborted) return reject(signal.reason as Error);
        const globalsJson = JSON.stringify(request.globals);
        // More JSON than the memory limit cannot fit in it once parsed: no need to send it over.
        if (globalsJson.length > request.memoryMb * 1024 * 1024)
          return reject(new CodeStepError(codeMessages.outOfMemory(request.memoryMb)));
        const id = ++nextId;
        const call: Call = {
          id,
          request: {
            id,
            source: request.source,
            globalsJson,
            timeoutMs: request.timeoutMs,
            memoryMb: request.memoryMb,
            logLinesMax: CODE_LOG_LINES_MAX,
            logLineMax: CODE_LOG_LINE_MAX,
            resultMaxBytes: CODE_RESULT_MAX_BYTES,
            resultMaxDepth: MAX_JSON_DEPTH,
          },
          memoryMb: request.memoryMb,
          timeoutMs: request.timeoutMs,
          signal,
          resolve,
          reject,
          onAbort: () => {
            // A cancelled run: the call ends now, and a thread still running it is replaced.
            const index = waiting.indexOf(call);
            if (index >= 0) waiting.splice(index, 1);
            const slot = [...slots].find((candidate) => candidate.call === call);
            if (slot) retire(slot);
            finish(call, () => reject(signal!.reason as Error));
            pump();
          },
        };
        signal?.addEventListener('abort', call.onAbort, { once: true });
        waiting.push(call);
        pump();
      });
    },
    async close() {
      closed = true;
      const error = new Error('the code sandbox is closed');
      for (const call of waiting.splice(0)) finish(call, () => call.reject(error));
      const threads = [...slots];
      slots.clear();
      for (const slot of threads) {
        const call = slot.call;
        slot.call = null;
        if (call) finish(call, () => call.reject(error));
      }
      await Promise.all(threads.map((slot) => slot.thread.terminate()));
    },
  };
}
