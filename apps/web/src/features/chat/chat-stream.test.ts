import { describe, expect, it } from 'vitest';

import { parseChatEvent, readEventStream } from './chat-stream';

/** A body that arrives in these pieces, as a network hands them over. */
function bodyOf(pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
}

async function dataOf(pieces: string[]): Promise<string[]> {
  const seen: string[] = [];
  await readEventStream(bodyOf(pieces), (data) => seen.push(data));
  return seen;
}

describe('readEventStream', () => {
  it('hands over each event once whole, however the network cuts the lines', async () => {
    expect(
      await dataOf([
        'data: {"type":"run","ru',
        'nId":"r1"}\n',
        '\ndata: {"type":"delta","text":"Hel',
        'lo"}\n\n',
      ]),
    ).toEqual(['{"type":"run","runId":"r1"}', '{"type":"delta","text":"Hello"}']);
  });

  it('reads CRLF line ends, joins an event of several data lines, skips comments and other fields', async () => {
    expect(
      await dataOf([
        ': keep-alive\r\n\r\nevent: message\r\nid: 3\r\ndata: one\r\ndata: two\r\n\r\n',
        'data:three',
      ]),
    ).toEqual(['one\ntwo', 'three']);
  });

  it('decodes characters cut between two pieces', async () => {
    const bytes = new TextEncoder().encode('data: {"type":"delta","text":"café ☕"}\n\n');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 32));
        controller.enqueue(bytes.slice(32));
        controller.close();
      },
    });
    const seen: string[] = [];
    await readEventStream(body, (data) => seen.push(data));
    expect(seen.map((data) => parseChatEvent(data))).toEqual([{ type: 'delta', text: 'café ☕' }]);
  });
});

describe('parseChatEvent', () => {
  it('reads the four events of the contract', () => {
    expect(parseChatEvent('{"type":"done","runId":"r1","reply":"Hi"}')).toEqual({
      type: 'done',
      runId: 'r1',
      reply: 'Hi',
    });
    expect(parseChatEvent('{"type":"error","message":"Still running","runId":"r1"}')).toEqual({
      type: 'error',
      message: 'Still running',
      runId: 'r1',
    });
    expect(parseChatEvent('{"type":"error","message":"Failed"}')).toEqual({
      type: 'error',
      message: 'Failed',
    });
  });

  it('skips what is not an event of a known shape', () => {
    expect(parseChatEvent('[DONE]')).toBeNull();
    expect(parseChatEvent('{"type":"delta","text":3}')).toBeNull();
    expect(parseChatEvent('{"type":"usage","tokens":3}')).toBeNull();
    expect(parseChatEvent('null')).toBeNull();
  });
});
