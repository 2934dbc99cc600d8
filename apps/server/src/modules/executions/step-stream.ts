/**
 * A running step's answer as it is produced, for the people watching the run: the pieces the model
 * sends are gathered and published at most once per `intervalMs` (a model sends tens of pieces a
 * second, a watcher needs ten updates), each update carrying the text since the last one and where it
 * starts (`offset`, in UTF-16 code units of the answer so far), so a client can tell a missed update.
 *
 * Nothing here is stored: the step's answer is stored once, with the step. What is still gathered when
 * the call ends is dropped, as the step's own event (completed or failed) follows at once.
 */
export type StepStreamUpdate = { offset: number; text: string };

/**
 * Longest text in one update. A realtime event travels in a Postgres NOTIFY (under 8000 bytes): 1,000
 * characters stay under it even when every one of them is escaped in JSON as `\u00XX`.
 */
export const MAX_UPDATE_CHARS = 1000;

export function createStepStream(options: {
  intervalMs: number;
  publish(update: StepStreamUpdate): Promise<void>;
  setTimer?: (fn: () => void, ms: number) => NodeJS.Timeout;
}) {
  const setTimer = options.setTimer ?? setTimeout;
  let pending = '';
  let sent = 0;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  /** Updates go out one after the other, in order; `close` waits for the last. */
  let publishing: Promise<void> = Promise.resolve();

  function flush() {
    timer = undefined;
    if (closed || !pending) return;
    const text = pending;
    pending = '';
    for (const piece of pieces(text)) {
      const update = { offset: sent, text: piece };
      sent += piece.length;
      publishing = publishing.then(() => options.publish(update)).catch(() => undefined);
    }
  }

  return {
    push(text: string) {
      if (closed || !text) return;
      pending += text;
      timer ??= setTimer(flush, options.intervalMs);
    },
    /** Stops: drops what is not sent yet, and resolves once the updates already sent are published. */
    async close() {
      closed = true;
      clearTimeout(timer);
      timer = undefined;
      pending = '';
      await publishing;
    },
  };
}

/** `text` cut into updates of at most MAX_UPDATE_CHARS, never between the two halves of a surrogate pair. */
function pieces(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + MAX_UPDATE_CHARS);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    out.push(text.slice(start, end));
    start = end;
  }
  return out;
}
