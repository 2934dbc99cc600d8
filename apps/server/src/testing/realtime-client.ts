import WebSocket from 'ws';

export type ReceivedMessage = { type: string; [field: string]: unknown };

/**
 * A websocket client for tests: records every message, waits for one that matches, and reports how
 * the socket closed. `ws`, the server's own websocket library, rather than Node's global WebSocket:
 * the tests send a cookie and an Origin of their choosing, which the WHATWG API cannot.
 */
export function connectRealtime(url: string, options: { cookie?: string; origin?: string } = {}) {
  const headers: Record<string, string> = {};
  if (options.cookie) headers.cookie = options.cookie;
  const socket = new WebSocket(url, { headers, ...(options.origin ? { origin: options.origin } : {}) });
  const messages: ReceivedMessage[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data) => {
    messages.push(JSON.parse(String(data)) as ReceivedMessage);
    for (const wake of waiters) wake();
  });
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  opened.catch(() => undefined);
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
  });

  /** Resolves with the first message (already received or coming) that matches, or fails after `ms`. */
  function waitFor(match: (m: ReceivedMessage) => boolean, ms = 5000): Promise<ReceivedMessage> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = messages.find(match);
        if (!found) return;
        cleanup();
        resolve(found);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no matching message within ${ms} ms; received ${JSON.stringify(messages)}`));
      }, ms);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  }

  function send(message: unknown) {
    socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  return {
    socket,
    messages,
    opened,
    closed,
    waitFor,
    send,
    /** Subscribes and waits for the answer to it (subscribed or error). */
    async subscribe(organizationId: string) {
      await opened;
      const before = messages.length;
      send({ type: 'subscribe', organizationId });
      return waitFor((m) => messages.indexOf(m) >= before && (m.type === 'subscribed' || m.type === 'error'));
    },
    close() {
      socket.terminate();
    },
  };
}
export type RealtimeClient = ReturnType<typeof connectRealtime>;
