// A client's websocket (/ws) that tells when runs end, shared by the benches that time a run from a
// request to its end event (execution-throughput, approvals).
import WebSocket from 'ws';

export type Outcome = { at: number; ok: boolean; error?: string };

/**
 * A websocket subscribed to the account's organization, which resolves runs as their end events
 * arrive; a run not ended within `timeoutMs` of being asked for resolves as a timeout.
 *
 * Every socket of an organization hears the end of every run of it. A client sharing its organization
 * with others says when it sends the request that starts a run (`starting`): ends nobody waits for are
 * then kept only while such a request is in flight (its run can end before its answer is read), and
 * dropped once it is answered, as they were the other clients' runs. Without `starting`, every end
 * nobody waits for is kept until asked for (a client that starts all of its organization's runs).
 */
export async function openRunSocket(
  base: string,
  account: { token: string; organizationId: string },
  timeoutMs: number,
) {
  const socket = new WebSocket(
    `${base.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(account.token)}`,
  );
  const ended = new Map<string, Outcome>();
  const waiting = new Map<string, (outcome: Outcome) => void>();
  let closed: string | undefined;
  /** Requests that start a run in flight, once `starting` has been used (undefined before). */
  let inFlight: number | undefined;
  let subscribed: (() => void) | undefined;
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as {
      type: string;
      executionId?: string;
      error?: string;
      message?: string;
    };
    const at = performance.now();
    let outcome: Outcome | undefined;
    if (message.type === 'workflow_execution_completed') outcome = { at, ok: true };
    else if (message.type === 'workflow_execution_failed') outcome = { at, ok: false, error: message.error };
    else if (message.type === 'workflow_execution_cancelled') outcome = { at, ok: false, error: 'cancelled' };
    else if (message.type === 'subscribed') subscribed?.();
    else if (message.type === 'error') console.error('websocket error message:', message.message);
    if (!outcome || !message.executionId) return;
    const waiter = waiting.get(message.executionId);
    // The end event can arrive before the POST's answer has been read.
    if (waiter) waiter(outcome);
    else if (inFlight === undefined || inFlight > 0) ended.set(message.executionId, outcome);
  });
  // Without a listener an 'error' would throw; the 'close' that follows it ends the waiting runs.
  socket.on('error', () => {});
  socket.on('close', (code, reason) => {
    closed = `closed ${code} ${reason.toString()}`;
    for (const waiter of waiting.values())
      waiter({ at: performance.now(), ok: false, error: `socket ${closed}` });
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no "subscribed" answer within 10 s')), 10_000);
    subscribed = () => (clearTimeout(timer), resolve());
    socket.send(JSON.stringify({ type: 'subscribe', organizationId: account.organizationId }));
  });
  /** The run's end as seen on this socket, or a timeout. */
  function end(executionId: string): Promise<Outcome> {
    const seen = ended.get(executionId);
    if (seen) {
      ended.delete(executionId);
      return Promise.resolve(seen);
    }
    if (closed) return Promise.resolve({ at: performance.now(), ok: false, error: `socket ${closed}` });
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        waiting.delete(executionId);
        resolve({ at: performance.now(), ok: false, error: 'timeout' });
      }, timeoutMs);
      waiting.set(executionId, (outcome) => {
        clearTimeout(timer);
        waiting.delete(executionId);
        resolve(outcome);
      });
    });
  }
  return {
    get closed() {
      return closed;
    },
    end,
    /**
     * Before sending a request that starts a run on a socket the organization's other clients' runs
     * also end on: `answered` with the run's id when it was accepted (its end, as `end` gives it),
     * `refused` when not.
     */
    starting() {
      inFlight = (inFlight ?? 0) + 1;
      let settled = false;
      const settle = () => {
        if (settled) return;
        settled = true;
        inFlight!--;
      };
      /** Ends kept for a request in flight that no request still in flight can claim. */
      const dropUnclaimed = () => {
        if (inFlight === 0) ended.clear();
      };
      return {
        answered(executionId: string): Promise<Outcome> {
          settle();
          const outcome = end(executionId);
          dropUnclaimed();
          return outcome;
        },
        refused() {
          settle();
          dropUnclaimed();
        },
      };
    },
    /** Ends heard and kept for a later `end` (what a shared socket must not let grow). */
    get unclaimed() {
      return ended.size;
    },
    close() {
      socket.terminate();
    },
  };
}

export type RunSocket = Awaited<ReturnType<typeof openRunSocket>>;
