import { describe, expect, it } from 'vitest';

import {
  CUT_OFF_ERROR,
  chatReducer,
  conversationFor,
  initialChatState,
  isSendKey,
  isStreaming,
  requestErrorMessage,
  usageLabel,
  type AssistantTurn,
  type ChatAction,
  type ChatState,
} from './playground-conversation';

const run = (actions: ChatAction[], state: ChatState = initialChatState) =>
  actions.reduce(chatReducer, state);
const lastReply = (state: ChatState) => state.turns.at(-1) as AssistantTurn;
const usage = { promptTokens: 12, completionTokens: 5, totalTokens: 17 };
const toolCall = {
  type: 'tool_call' as const,
  name: 'notes_1234',
  args: { path: 'a.txt' },
  result: 'saved',
  truncated: false,
  isError: false,
  durationMs: 3,
};

describe('chatReducer', () => {
  it('adds the message and a streaming reply that the deltas fill in, then done', () => {
    let state = run([{ type: 'send', text: 'Hi' }]);
    expect(state.turns.map((t) => t.role)).toEqual(['user', 'assistant']);
    expect(isStreaming(state)).toBe(true);
    state = run(
      [
        { type: 'line', line: { type: 'delta', text: 'Hello ' } },
        { type: 'line', line: toolCall },
        { type: 'line', line: { type: 'delta', text: 'there.' } },
      ],
      state,
    );
    expect(lastReply(state)).toMatchObject({
      content: 'Hello there.',
      toolCalls: [toolCall],
      status: 'streaming',
    });
    state = chatReducer(state, {
      type: 'line',
      line: { type: 'done', response: 'Hello there.', usage, durationMs: 1200, model: 'gpt-4o' },
    });
    expect(lastReply(state)).toMatchObject({ status: 'done', usage, durationMs: 1200, model: 'gpt-4o' });
    expect(isStreaming(state)).toBe(false);
  });

  it('ends a reply with its error line, and the user can go on', () => {
    let state = run([
      { type: 'send', text: 'Hi' },
      { type: 'line', line: { type: 'error', error: 'OpenAI answered 401: Incorrect API key' } },
    ]);
    expect(lastReply(state)).toMatchObject({
      status: 'error',
      error: 'OpenAI answered 401: Incorrect API key',
    });
    state = chatReducer(state, { type: 'send', text: 'Again' });
    expect(state.turns).toHaveLength(4);
    expect(isStreaming(state)).toBe(true);
  });

  it('marks a failed request, and a stream that ended without its last line, as errors', () => {
    expect(
      lastReply(
        run([
          { type: 'send', text: 'Hi' },
          { type: 'failed', error: 'Agent not found' },
        ]),
      ),
    ).toMatchObject({ status: 'error', error: 'Agent not found' });
    expect(lastReply(run([{ type: 'send', text: 'Hi' }, { type: 'ended' }]))).toMatchObject({
      status: 'error',
      error: CUT_OFF_ERROR,
    });
    // After a done line, the end of the stream changes nothing.
    const done = run([
      { type: 'send', text: 'Hi' },
      { type: 'line', line: { type: 'done', response: 'Yes', usage, durationMs: 1, model: 'm' } },
    ]);
    expect(chatReducer(done, { type: 'ended' })).toBe(done);
  });

  it('keeps what a stopped reply said and ignores lines that arrive after Stop', () => {
    const state = run([
      { type: 'send', text: 'Count' },
      { type: 'line', line: { type: 'delta', text: 'one two ' } },
      { type: 'stopped' },
      { type: 'line', line: { type: 'delta', text: 'three' } },
      { type: 'failed', error: 'aborted' },
    ]);
    expect(lastReply(state)).toMatchObject({ status: 'stopped', content: 'one two ' });
  });

  it('sends nothing new while a reply streams, and New chat empties the conversation', () => {
    const streaming = run([{ type: 'send', text: 'Hi' }]);
    expect(chatReducer(streaming, { type: 'send', text: 'More' })).toBe(streaming);
    const reset = chatReducer(streaming, { type: 'reset' });
    expect(reset.turns).toEqual([]);
    // Ids keep counting, so React never reuses a key of the old conversation.
    expect(reset.nextId).toBe(streaming.nextId);
  });
});

describe('conversationFor', () => {
  it('sends every earlier message with the new one, oldest first', () => {
    const state = run([
      { type: 'send', text: 'Hello' },
      { type: 'line', line: { type: 'done', response: 'Hi, I am Scout.', usage, durationMs: 1, model: 'm' } },
    ]);
    expect(conversationFor(state.turns, 'Prices?')).toEqual([
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Hi, I am Scout.' },
      { role: 'user', content: 'Prices?' },
    ]);
  });

  it('leaves out failed and empty replies, keeps the text of a stopped one', () => {
    const state = run([
      { type: 'send', text: 'One' },
      { type: 'line', line: { type: 'error', error: 'Rate limited' } },
      { type: 'send', text: 'Two' },
      { type: 'line', line: { type: 'delta', text: 'Partial' } },
      { type: 'stopped' },
      { type: 'send', text: 'Three' },
      { type: 'stopped' },
    ]);
    expect(conversationFor(state.turns, 'Four')).toEqual([
      { role: 'user', content: 'One' },
      { role: 'user', content: 'Two' },
      { role: 'assistant', content: 'Partial' },
      { role: 'user', content: 'Three' },
      { role: 'user', content: 'Four' },
    ]);
  });

  it('sends the latest 50 messages of a long conversation', () => {
    let state = initialChatState;
    for (let i = 0; i < 30; i++) {
      state = run(
        [
          { type: 'send', text: `q${i}` },
          { type: 'line', line: { type: 'done', response: `a${i}`, usage, durationMs: 1, model: 'm' } },
        ],
        state,
      );
    }
    const messages = conversationFor(state.turns, 'last');
    expect(messages).toHaveLength(50);
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'last' });
    expect(messages[0]).toEqual({ role: 'assistant', content: 'a5' });
  });
});

describe('playground labels and keys', () => {
  it('sends on Enter, not on Shift+Enter or while composing', () => {
    expect(isSendKey({ key: 'Enter', shiftKey: false })).toBe(true);
    expect(isSendKey({ key: 'Enter', shiftKey: true })).toBe(false);
    expect(isSendKey({ key: 'Enter', shiftKey: false, isComposing: true })).toBe(false);
    expect(isSendKey({ key: 'a', shiftKey: false })).toBe(false);
  });

  it('says tokens readably', () => {
    expect(usageLabel({ promptTokens: 1200, completionTokens: 45, totalTokens: 1245 })).toBe(
      '1,200 prompt · 45 completion tokens',
    );
  });

  it("turns a failed request into the server's message or a plain reason", () => {
    expect(requestErrorMessage(new Error('404: {"message":"Agent not found"}'))).toBe('Agent not found');
    expect(requestErrorMessage(new Error('502: <html>Bad gateway</html>'))).toBe(
      'The server answered 502. Try again.',
    );
    expect(requestErrorMessage(new TypeError('Failed to fetch'))).toMatch(/could not be reached/);
  });
});
