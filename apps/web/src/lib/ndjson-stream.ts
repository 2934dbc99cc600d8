// A POST whose answer streams as NDJSON (one JSON object a line, e.g. the agent playground's chat),
// with the request rules of apiRequest (lib/api.ts): the stored token as a Bearer header, cookies
// included, and a non-OK answer thrown as `Error("<status>: <body>")`.
import { getAuthToken, throwIfResNotOk } from './api';

/**
 * Whole lines out of text that arrives in pieces: a line split across pieces is joined, and the
 * last line counts even without its newline. Blank lines are skipped; `\r\n` endings are accepted.
 */
export async function* ndjsonLines<T = unknown>(pieces: AsyncIterable<string>): AsyncGenerator<T> {
  let pending = '';
  for await (const piece of pieces) {
    pending += piece;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) yield JSON.parse(line) as T;
  }
  if (pending.trim()) yield JSON.parse(pending) as T;
}

/** The body's bytes as text, decoded across piece boundaries (a character may be split). */
async function* textOf(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield decoder.decode(value, { stream: true });
    }
    const rest = decoder.decode();
    if (rest) yield rest;
  } finally {
    reader.releaseLock();
  }
}

/**
 * POSTs `body` as JSON and yields each line of the answer, parsed, as it arrives. Aborting `signal`
 * ends the request (the server stops its work when the connection closes).
 */
export async function* postNdjson<T = unknown>(
  path: string,
  body: unknown,
  init: { signal?: AbortSignal } = {},
): AsyncGenerator<T> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/x-ndjson',
  };
  const token = getAuthToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    credentials: 'include',
    signal: init.signal,
  });
  await throwIfResNotOk(res);
  if (!res.body) return;
  yield* ndjsonLines<T>(textOf(res.body));
}
