import { describe, expect, it, vi } from 'vitest';
import { createEventBus } from '../events';
import { channels } from './channels';
import { startClaimLoops } from './claim-loops';

/** A queue of items whose work ends when the test says so; counts claims and items at work. */
function queue() {
  const state = { waiting: 0, claims: 0, atWork: 0, mostAtWork: 0, done: 0 };
  const finishers: (() => void)[] = [];
  async function claimNext(signal: AbortSignal) {
    state.claims++;
    if (state.waiting === 0) return undefined;
    state.waiting--;
    state.atWork++;
    state.mostAtWork = Math.max(state.mostAtWork, state.atWork);
    await new Promise<void>((resolve) => {
      finishers.push(resolve);
      signal.addEventListener('abort', () => resolve());
    });
    state.atWork--;
    state.done++;
    return { more: state.waiting > 0 };
  }
  const finishAll = () => finishers.splice(0).forEach((finish) => finish());
  return { state, claimNext, finishAll };
}

/** Lets every pending promise callback run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('startClaimLoops', () => {
  it('claims up to its concurrency at once, and works through a backlog with every loop', async () => {
    const q = queue();
    q.state.waiting = 5;
    const loops = startClaimLoops({ claimNext: q.claimNext, concurrency: 2, pollMs: 60_000 });
    await vi.waitFor(() => expect(q.state.atWork).toBe(2));
    while (q.state.done < 5) {
      q.finishAll();
      await settle();
    }
    expect(q.state.mostAtWork).toBe(2);
    await loops.stop();
  });

  it('on a busy process takes no more than its steady number at once; with time to spare, more', async () => {
    const q = queue();
    q.state.waiting = 6;
    let busy = true;
    const loops = startClaimLoops({
      claimNext: q.claimNext,
      concurrency: 5,
      pollMs: 60_000,
      load: { busy: () => busy, steady: 2 },
    });
    await vi.waitFor(() => expect(q.state.atWork).toBe(2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(q.state.atWork).toBe(2);
    expect(q.state.claims).toBe(2);
    // The process has time again: the other loops claim.
    busy = false;
    await vi.waitFor(() => expect(q.state.atWork).toBe(5));
    while (q.state.done < 6) {
      q.finishAll();
      await settle();
    }
    await loops.stop();
  });

  it('sleeps when nothing waits, and a notification on its channel wakes one loop', async () => {
    const q = queue();
    const bus = createEventBus();
    const loops = startClaimLoops({
      channel: { bus, channel: channels.runs, wakes: (control) => control.type !== 'cancelled' },
      claimNext: q.claimNext,
      concurrency: 3,
      pollMs: 60_000,
    });
    await vi.waitFor(() => expect(q.state.claims).toBe(3));
    await settle();
    expect(q.state.claims).toBe(3); // all asleep: no empty claims

    // A cancel is not work for the loops.
    bus.send(channels.runs, { type: 'cancelled', executionId: 'r0' });
    await settle();
    expect(q.state.claims).toBe(3);

    q.state.waiting = 1;
    bus.send(channels.runs, { type: 'queued', executionId: 'r1' });
    await vi.waitFor(() => expect(q.state.atWork).toBe(1));
    expect(q.state.claims).toBe(4);
    q.finishAll();
    await vi.waitFor(() => expect(q.state.done).toBe(1));
    await loops.stop();
  });

  it('every loop looks after a reconnect (notifications may have been missed)', async () => {
    const q = queue();
    const bus = createEventBus();
    const loops = startClaimLoops({
      channel: { bus, channel: channels.knowledge },
      claimNext: q.claimNext,
      concurrency: 2,
      pollMs: 60_000,
    });
    await vi.waitFor(() => expect(q.state.claims).toBe(2));
    q.state.waiting = 2;
    bus.missed();
    await vi.waitFor(() => expect(q.state.atWork).toBe(2));
    q.finishAll();
    await loops.stop();
  });

  it('polls while idle, for work nobody woke it for', async () => {
    const q = queue();
    const loops = startClaimLoops({ claimNext: q.claimNext, concurrency: 1, pollMs: 20 });
    await vi.waitFor(() => expect(q.state.claims).toBe(1));
    q.state.waiting = 1;
    await vi.waitFor(() => expect(q.state.atWork).toBe(1));
    q.finishAll();
    await loops.stop();
  });

  it('survives a failing claim, reporting it', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const loops = startClaimLoops({
      claimNext: async () => {
        if (++calls === 1) throw new Error('database down');
        return undefined;
      },
      concurrency: 1,
      pollMs: 20,
      onError: (err) => errors.push(err),
    });
    await vi.waitFor(() => expect(calls).toBeGreaterThan(1));
    expect(errors).toEqual([new Error('database down')]);
    await loops.stop();
  });

  it('on stop, claims nothing more, aborts work in progress and waits for drain and every loop', async () => {
    const q = queue();
    q.state.waiting = 3;
    const order: string[] = [];
    const loops = startClaimLoops({
      claimNext: q.claimNext,
      concurrency: 2,
      pollMs: 60_000,
      drain: async () => {
        order.push('drain');
      },
    });
    await vi.waitFor(() => expect(q.state.atWork).toBe(2));
    await loops.stop();
    order.push(`stopped with ${q.state.atWork} at work`);
    expect(order).toEqual(['drain', 'stopped with 0 at work']);
    expect(q.state.claims).toBe(2);
    expect(q.state.waiting).toBe(1);
  });

  describe('work handed to a reserved loop (a run claimed as it starts)', () => {
    /** Work whose run ends when the test says so; records what happened to it. */
    function work(log: string[], name: string) {
      let finish!: () => void;
      const ended = new Promise<void>((resolve) => (finish = resolve));
      return {
        work: {
          async run() {
            log.push(`${name} ran`);
            await ended;
          },
          async abandon() {
            log.push(`${name} abandoned`);
          },
        },
        finish,
      };
    }

    it('is taken by a sleeping loop before any claim, and only while a loop sleeps', async () => {
      const q = queue();
      const log: string[] = [];
      const loops = startClaimLoops({ claimNext: q.claimNext, concurrency: 1, pollMs: 60_000 });
      await vi.waitFor(() => expect(q.state.claims).toBe(1));
      await settle();

      const loop = loops.reserve();
      expect(loop).toBeDefined();
      // The one loop is kept: nothing else can be reserved meanwhile.
      expect(loops.reserve()).toBeUndefined();
      const first = work(log, 'first');
      loop!.hand(first.work);
      await vi.waitFor(() => expect(log).toEqual(['first ran']));
      expect(q.state.claims).toBe(1); // handed work needs no claim
      expect(loops.reserve()).toBeUndefined(); // the loop is at work

      first.finish();
      await vi.waitFor(() => expect(loops.reserve()).toBeDefined());
      await loops.stop();
    });

    it('gives the loop back when released unused', async () => {
      const q = queue();
      const loops = startClaimLoops({ claimNext: q.claimNext, concurrency: 1, pollMs: 60_000 });
      await vi.waitFor(() => expect(q.state.claims).toBe(1));
      await settle();
      const loop = loops.reserve();
      loop!.release();
      loop!.release(); // twice changes nothing
      expect(loops.reserve()).toBeDefined();
      await loops.stop();
    });

    it('is lent past its steady number of items at work on a busy process too, while a loop sleeps', async () => {
      const q = queue();
      q.state.waiting = 1;
      const loops = startClaimLoops({
        claimNext: q.claimNext,
        concurrency: 4,
        pollMs: 60_000,
        load: { busy: () => true, steady: 2 },
      });
      // One at work, three asleep: all three can be lent, though the process is busy and at its
      // steady number with the first; a fourth cannot (no loop sleeps).
      await vi.waitFor(() => expect(q.state.claims).toBe(4));
      await settle();
      const lent = [loops.reserve(), loops.reserve(), loops.reserve()];
      expect(lent.every(Boolean)).toBe(true);
      expect(loops.reserve()).toBeUndefined();
      for (const loop of lent) loop!.release();
      expect(loops.reserve()).toBeDefined();
      q.finishAll();
      await loops.stop();
    });

    it('handed over but not begun when the loops stop, it is abandoned (handed back to the queue)', async () => {
      const log: string[] = [];
      let release!: () => void;
      const blocked = new Promise<void>((resolve) => (release = resolve));
      const loops = startClaimLoops({
        claimNext: async () => undefined,
        concurrency: 1,
        pollMs: 60_000,
        drain: async () => release(),
      });
      await settle();
      const loop = loops.reserve()!;
      const stopped = loops.stop();
      loop.hand(work(log, 'late').work);
      await blocked;
      await stopped;
      expect(log).toEqual(['late abandoned']);
    });
  });
});
