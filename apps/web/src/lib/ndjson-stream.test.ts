import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { ndjsonLines, postNdjson } from './ndjson-stream';

async function* from(pieces: string[]) {
  for (const piece of pieces) yield piece;
}
async function collect<T>(lines: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

describe('ndjsonLines', () => {
  it('yields one object a line, as the lines complete', async () => {
    expect(await collect(ndjsonLines(from(['{"a":1}\n{"b":2}\n'])))).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('joins a line split across pieces, even mid-string', async () => {
    const pieces = ['{"type":"delta","te', 'xt":"Hel', 'lo"}\n{"type"', ':"done"}\n'];
    expect(await collect(ndjsonLines(from(pieces)))).toEqual([
      { type: 'delta', text: 'Hello' },
      { type: 'done' },
    ]);
  });

  it('keeps a final line that has no newline, and skips blank lines and \\r', async () => {
    expect(await collect(ndjsonLines(from(['{"a":1}\r\n\n', '{"b":', '2}'])))).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('yields nothing for an empty answer', async () => {
    expect(await collect(ndjsonLines(from(['', '\n'])))).toEqual([]);
  });

  it('hands over each line before the rest has arrived', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    async function* slow() {
      yield '{"n":1}\n';
      await gate;
      yield '{"n":2}\n';
    }
    const lines = ndjsonLines(slow());
    expect((await lines.next()).value).toEqual({ n: 1 });
    release();
    expect((await lines.next()).value).toEqual({ n: 2 });
  });
});

describe('postNdjson', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const data = new Map([['authToken', 'tok-123']]);
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => data.get(key) ?? null,
      setItem: (key: string, value: string) => void data.set(key, value),
      removeItem: (key: string) => void data.delete(key),
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  /** A body that arrives in the given byte pieces (a character may be cut). */
  function streamed(pieces: Uint8Array[], init: ResponseInit = {}) {
    return new Response(
      new ReadableStream({
        start(controller) {
          for (const piece of pieces) controller.enqueue(piece);
          controller.close();
        },
      }),
      init,
    );
  }

  it('POSTs JSON with the stored token and cookies, and yields the lines, a character split across pieces', async () => {
    const bytes = new TextEncoder().encode('{"text":"café"}\n{"type":"done"}');
    const cut = bytes.indexOf(0xc3) + 1; // between the two bytes of "é"
    fetchMock.mockResolvedValue(streamed([bytes.slice(0, cut), bytes.slice(cut)]));
    const lines = await collect(postNdjson('/api/agents/a1/chat', { messages: [] }));
    expect(lines).toEqual([{ text: 'café' }, { type: 'done' }]);
    const [url, init] = fetchMock.mock.calls[0] as [
      string,
      RequestInit & { headers: Record<string, string> },
    ];
    expect(url).toBe('/api/agents/a1/chat');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    expect(init.headers.Authorization).toBe('Bearer tok-123');
    expect(init.headers['Content-Type']).toBe('application/json');
    expect(init.body).toBe('{"messages":[]}');
  });

  it('throws "<status>: <body>" for a non-OK answer, as apiRequest does', async () => {
    fetchMock.mockResolvedValue(new Response('{"message":"Agent not found"}', { status: 404 }));
    await expect(collect(postNdjson('/api/agents/x/chat', {}))).rejects.toThrow(
      '404: {"message":"Agent not found"}',
    );
  });
});
