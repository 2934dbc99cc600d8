// The agent playground's conversation with the server: POST /api/agents/:id/chat, its NDJSON lines
// fed to the reducer as they arrive. The conversation lives here while the panel is open; the
// server keeps none of it (docs/product-rules.md, Agent playground).
import { AGENT_TEST_GREETING, type AgentChatLine, type AgentChatMessage } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useCallback, useEffect, useReducer, useRef } from 'react';

import { toast } from '@/components/ui/use-toast';
import { endpointUrl } from '@/lib/api-call';
import { postNdjson } from '@/lib/ndjson-stream';

import { TEST_ERROR_TOAST, testResultToast } from '../agent-display';
import {
  chatReducer,
  conversationFor,
  initialChatState,
  isStreaming,
  requestErrorMessage,
} from '../playground-conversation';

/** The toast the card's Test gave before the playground, for the first reply (the greeting's). */
function testToast(last: AgentChatLine | undefined) {
  if (last?.type === 'done') return testResultToast({ success: true, response: last.response });
  if (last?.type === 'error') return testResultToast({ success: false, error: last.error });
  return TEST_ERROR_TOAST;
}

export function useAgentChat(agentId: string) {
  const [state, dispatch] = useReducer(chatReducer, initialChatState);
  const request = useRef<AbortController | null>(null);

  const abort = useCallback(() => {
    request.current?.abort();
    request.current = null;
  }, []);

  // A card that goes away (another page) takes its reply with it.
  useEffect(() => abort, [abort]);

  const ask = useCallback(
    async (messages: AgentChatMessage[], { first }: { first: boolean }) => {
      const controller = new AbortController();
      request.current = controller;
      let last: AgentChatLine | undefined;
      try {
        const lines = postNdjson<AgentChatLine>(
          endpointUrl(endpoints.agents.chat.path, { id: agentId }),
          { messages },
          { signal: controller.signal },
        );
        for await (const line of lines) {
          dispatch({ type: 'line', line });
          if (line.type === 'done' || line.type === 'error') last = line;
        }
        dispatch({ type: 'ended' });
        if (first) toast(testToast(last));
      } catch (error) {
        // Stop, New chat or closing the panel: the reply just ends, without a toast.
        if (controller.signal.aborted) return;
        dispatch({ type: 'failed', error: requestErrorMessage(error) });
        if (first) toast(TEST_ERROR_TOAST);
      } finally {
        if (request.current === controller) request.current = null;
      }
    },
    [agentId],
  );

  return {
    state,
    streaming: isStreaming(state),
    /** A new conversation that opens with the test's greeting; its reply ends with the test's toast. */
    start() {
      abort();
      dispatch({ type: 'reset' });
      dispatch({ type: 'send', text: AGENT_TEST_GREETING });
      void ask([{ role: 'user', content: AGENT_TEST_GREETING }], { first: true });
    },
    /** The user's message, sent with the conversation so far. False while a reply streams. */
    send(text: string): boolean {
      if (isStreaming(state) || !text.trim()) return false;
      const messages = conversationFor(state.turns, text);
      dispatch({ type: 'send', text });
      void ask(messages, { first: false });
      return true;
    },
    /** Ends the reply being streamed; the server stops the model call when the request closes. */
    stop() {
      abort();
      dispatch({ type: 'stopped' });
    },
    newChat() {
      abort();
      dispatch({ type: 'reset' });
    },
  };
}
export type AgentChat = ReturnType<typeof useAgentChat>;
