// The sign-in popup of the server's OAuth flows (Microsoft 365, MCP servers): the server answers the
// provider's address and binds the sign-in to this browser with a cookie, the popup signs in, and the
// server's callback page posts `{ type, success, message? }` back to this window (same origin only).

/** A popup being waited for; `stop` ends the wait (its listeners) without an answer. */
export type OAuthPopup = { stop: () => void };

/**
 * Opens `authUrl` in a popup named `name` and waits for the callback page's message: one from this
 * origin that `accepts` (its flow's type). `onEnd` runs once, when the wait ends: after the answer
 * (before `onAnswer`), when the popup was closed without one, or on `stop`. Undefined when the
 * browser blocked the popup.
 */
export function openOAuthPopup<Message>(
  authUrl: string,
  name: string,
  accepts: (data: unknown) => data is Message,
  handlers: { onAnswer(message: Message): void; onEnd(): void },
): OAuthPopup | undefined {
  const popup = window.open(authUrl, name, 'width=600,height=700');
  if (!popup) return undefined;
  function onMessage(event: MessageEvent) {
    if (event.origin !== window.location.origin || !accepts(event.data)) return;
    stop();
    handlers.onAnswer(event.data);
  }
  // Closed without an answer (the user gave up): stop listening.
  const timer = window.setInterval(() => {
    if (popup.closed) stop();
  }, 1000);
  let ended = false;
  function stop() {
    if (ended) return;
    ended = true;
    window.removeEventListener('message', onMessage);
    window.clearInterval(timer);
    handlers.onEnd();
  }
  window.addEventListener('message', onMessage);
  return { stop };
}
