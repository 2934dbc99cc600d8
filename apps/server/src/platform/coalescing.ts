/**
 * Request coalescing: callers asking for the same key while its computation runs share the next one.
 *
 * A caller never receives a result that began before it called: one arriving while a computation of
 * its key runs waits for it to end and then shares a fresh computation with everyone else who arrived
 * meanwhile. Ten dashboards of one organization refreshing at once cost two computations, not ten, and
 * each still shows the figures as of a moment after it asked. A failure reaches only those who shared
 * that computation.
 */
export function coalescing<T>() {
  type Entry = { queued: Promise<T> | null; tail: Promise<unknown> };
  const entries = new Map<string, Entry>();
  return (key: string, compute: () => Promise<T>): Promise<T> => {
    const existing = entries.get(key);
    // Queued and not started yet: it will start after this caller arrived, so its result can be shared.
    if (existing?.queued) return existing.queued;
    const entry: Entry = existing ?? { queued: null, tail: Promise.resolve() };
    const result = entry.tail.then(() => {
      entry.queued = null;
      return compute();
    });
    entry.queued = result;
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    entry.tail = tail;
    void tail.then(() => {
      // Nobody arrived since: the key's entry goes, so the map holds only keys being computed.
      if (entry.tail === tail) entries.delete(key);
    });
    entries.set(key, entry);
    return result;
  };
}
