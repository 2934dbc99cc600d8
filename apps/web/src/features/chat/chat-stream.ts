// The reply of POST /api/chat/:slug/threads/:threadId/messages as Server-Sent Events: each `data:`
// line (or run of lines, joined) is one chatStreamEventSchema event as JSON. Read here by hand,
// without zod (the chat page has none): an event of another shape is skipped.
import type { ChatStreamEvent } from '@crewline/contracts';

/** Calls `onData` with each event's data, in order, until the stream ends. */
export async function readEventStream(
  body: ReadableStream<Uint8Array>,
  onData: (data: string) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  const dispatch = () => {
    if (data.length > 0) onData(data.join('\n'));
    data = [];
  };
  const line = (text: string) => {
    if (text === '') dispatch();
    else if (text.startsWith('data:')) data.push(text.slice(text.startsWith('data: ') ? 6 : 5));
    // Comments (`:`), `event:`, `id:` and `retry:` say nothing the page uses.
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    const lines = buffer.split(/\r\n|\r|\n/);
    // The last piece may be a line cut in two: it waits for the rest. (A lone '\r' at a chunk's end
    // splits as a line end; the '\n' that may follow it then reads as an empty line, which a
    // well-formed stream's next event boundary makes harmless.)
    buffer = lines.pop() ?? '';
    for (const text of lines) line(text);
  }
  buffer += decoder.decode();
  if (buffer) line(buffer);
  dispatch();
}

const isString = (value: unknown): value is string => typeof value === 'string';

/** One event's data as the event, or null when it is not JSON of a known shape. */
export function parseChatEvent(data: string): ChatStreamEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const event = value as Record<string, unknown>;
  switch (event.type) {
    case 'run':
      return isString(event.runId) ? { type: 'run', runId: event.runId } : null;
    case 'delta':
      return isString(event.text) ? { type: 'delta', text: event.text } : null;
    case 'done':
      return isString(event.runId) && isString(event.reply)
        ? { type: 'done', runId: event.runId, reply: event.reply }
        : null;
    case 'error':
      return isString(event.message)
        ? { type: 'error', message: event.message, ...(isString(event.runId) && { runId: event.runId }) }
        : null;
    default:
      return null;
  }
}
