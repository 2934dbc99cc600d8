import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStepStream, MAX_UPDATE_CHARS, type StepStreamUpdate } from './step-stream';

describe('step stream', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function stream() {
    const updates: StepStreamUpdate[] = [];
    const s = createStepStream({
      intervalMs: 100,
      publish: async (update) => {
        updates.push(update);
      },
    });
    return { s, updates };
  }

  it('gathers pieces and publishes at most one update per interval, with contiguous offsets', async () => {
    const { s, updates } = stream();
    for (let i = 0; i < 50; i++) {
      s.push(`w${i} `);
      await vi.advanceTimersByTimeAsync(10);
    }
    await vi.advanceTimersByTimeAsync(100);
    // 500 ms of pieces every 10 ms: five updates, not fifty.
    expect(updates.length).toBeGreaterThanOrEqual(5);
    expect(updates.length).toBeLessThanOrEqual(6);
    const text = updates.map((u) => u.text).join('');
    expect(text).toBe(Array.from({ length: 50 }, (_, i) => `w${i} `).join(''));
    let offset = 0;
    for (const update of updates) {
      expect(update.offset).toBe(offset);
      offset += update.text.length;
    }
  });

  it('publishes nothing for an answer that ends within the first interval', async () => {
    const { s, updates } = stream();
    s.push('Instant answer.');
    await s.close();
    await vi.advanceTimersByTimeAsync(500);
    expect(updates).toEqual([]);
  });

  it('close waits for the update being published and drops the rest', async () => {
    let release!: () => void;
    const published: StepStreamUpdate[] = [];
    const s = createStepStream({
      intervalMs: 100,
      publish: (update) =>
        new Promise<void>((resolve) => {
          release = () => {
            published.push(update);
            resolve();
          };
        }),
    });
    s.push('first ');
    await vi.advanceTimersByTimeAsync(100);
    s.push('dropped');
    let closed = false;
    const closing = s.close().then(() => (closed = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(closed).toBe(false);
    release();
    await closing;
    await vi.advanceTimersByTimeAsync(500);
    expect(published).toEqual([{ offset: 0, text: 'first ' }]);
  });

  it('cuts a long burst into updates small enough for one notification, keeping emoji whole', async () => {
    const { s, updates } = stream();
    const long = 'a'.repeat(MAX_UPDATE_CHARS - 1) + '😀' + 'b'.repeat(1500);
    s.push(long);
    await vi.advanceTimersByTimeAsync(100);
    expect(updates.map((u) => u.text).join('')).toBe(long);
    for (const update of updates) expect(update.text.length).toBeLessThanOrEqual(MAX_UPDATE_CHARS);
    expect(updates[0].text.endsWith('a')).toBe(true);
    expect(updates[1]).toMatchObject({ offset: MAX_UPDATE_CHARS - 1 });
    expect(updates[1].text.startsWith('😀')).toBe(true);
  });
});
