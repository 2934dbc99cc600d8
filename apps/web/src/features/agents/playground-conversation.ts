// The agent playground's conversation (docs/product-rules.md, Agent playground): a reducer over the
// lines POST /api/agents/:id/chat streams, and what is sent with each new message. No React.
import {
  AGENT_CHAT_MAX_MESSAGES,
  type AgentChatLine,
  type AgentChatMessage,
  type TokenUsage,
} from '@crewline/contracts';

import { parseApiError } from '@/lib/api';
import { formatNumber } from '@/lib/format';

export type ToolCallLine = Extract<AgentChatLine, { type: 'tool_call' }>;

interface UserTurn {
  id: number;
  role: 'user';
  content: string;
}

export interface AssistantTurn {
  id: number;
  role: 'assistant';
  /** The text so far; the whole answer once done. */
  content: string;
  toolCalls: ToolCallLine[];
  status: 'streaming' | 'done' | 'error' | 'stopped';
  /** Why the answer failed (status 'error'), readably. */
  error?: string;
  usage?: TokenUsage;
  durationMs?: number;
  model?: string;
}

export type Turn = UserTurn | AssistantTurn;

export interface ChatState {
  turns: Turn[];
  nextId: number;
}

export type ChatAction =
  /** The user's message, and the reply that starts streaming. */
  | { type: 'send'; text: string }
  | { type: 'line'; line: AgentChatLine }
  /** The request failed before or while answering (no answer, a 4xx, the connection dropped). */
  | { type: 'failed'; error: string }
  /** The answer's stream ended: a reply still streaming had no last line. */
  | { type: 'ended' }
  | { type: 'stopped' }
  | { type: 'reset' };

export const initialChatState: ChatState = { turns: [], nextId: 1 };

export const CUT_OFF_ERROR = 'The answer was cut off before it ended. Try again.';

/** The reply being streamed, if any: always the last turn. */
function streamingTurn(state: ChatState): AssistantTurn | undefined {
  const last = state.turns.at(-1);
  return last?.role === 'assistant' && last.status === 'streaming' ? last : undefined;
}

export const isStreaming = (state: ChatState) => streamingTurn(state) !== undefined;

/** The state with the streaming reply changed by `change`; unchanged when no reply streams (late lines after Stop). */
function updateStreaming(state: ChatState, change: (turn: AssistantTurn) => AssistantTurn): ChatState {
  const turn = streamingTurn(state);
  if (!turn) return state;
  return { ...state, turns: [...state.turns.slice(0, -1), change(turn)] };
}

function applyLine(turn: AssistantTurn, line: AgentChatLine): AssistantTurn {
  switch (line.type) {
    case 'delta':
      return { ...turn, content: turn.content + line.text };
    case 'tool_call':
      return { ...turn, toolCalls: [...turn.toolCalls, line] };
    case 'done':
      return {
        ...turn,
        // The whole answer as the server has it (the same text as the pieces, said once more).
        content: line.response,
        status: 'done',
        usage: line.usage,
        durationMs: line.durationMs,
        model: line.model,
      };
    case 'error':
      return { ...turn, status: 'error', error: line.error };
  }
}

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'send': {
      if (isStreaming(state)) return state;
      const user: UserTurn = { id: state.nextId, role: 'user', content: action.text };
      const reply: AssistantTurn = {
        id: state.nextId + 1,
        role: 'assistant',
        content: '',
        toolCalls: [],
        status: 'streaming',
      };
      return { turns: [...state.turns, user, reply], nextId: state.nextId + 2 };
    }
    case 'line':
      return updateStreaming(state, (turn) => applyLine(turn, action.line));
    case 'failed':
      return updateStreaming(state, (turn) => ({ ...turn, status: 'error', error: action.error }));
    case 'ended':
      return updateStreaming(state, (turn) => ({ ...turn, status: 'error', error: CUT_OFF_ERROR }));
    case 'stopped':
      return updateStreaming(state, (turn) => ({ ...turn, status: 'stopped' }));
    case 'reset':
      return { turns: [], nextId: state.nextId };
  }
}

/**
 * What is sent for a new message `text`: the conversation so far and then `text`. Replies that failed
 * or were stopped before any text are left out (the model never said them); a stopped reply's text
 * is kept as far as it came. Only the latest messages the server takes are sent.
 */
export function conversationFor(turns: readonly Turn[], text: string): AgentChatMessage[] {
  const messages: AgentChatMessage[] = [];
  for (const turn of turns) {
    if (turn.role === 'user') messages.push({ role: 'user', content: turn.content });
    else if (turn.status !== 'streaming' && turn.content.trim()) {
      messages.push({ role: 'assistant', content: turn.content });
    }
  }
  messages.push({ role: 'user', content: text });
  return messages.slice(-AGENT_CHAT_MAX_MESSAGES);
}

/** Enter sends; Shift+Enter (and Enter while composing with an input method) is a newline. */
export function isSendKey(event: { key: string; shiftKey: boolean; isComposing?: boolean }): boolean {
  return event.key === 'Enter' && !event.shiftKey && !event.isComposing;
}

/** '120 prompt · 45 completion tokens'. */
export function usageLabel(usage: TokenUsage): string {
  return `${formatNumber(usage.promptTokens)} prompt · ${formatNumber(usage.completionTokens)} completion tokens`;
}

/** A request that failed without an answer, as the conversation says it. */
export function requestErrorMessage(error: unknown): string {
  const { status, message } = parseApiError(error);
  if (message) return message;
  if (status !== null) return `The server answered ${status}. Try again.`;
  return 'The server could not be reached. Check your connection and try again.';
}
