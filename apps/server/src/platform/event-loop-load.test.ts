import { describe, expect, it } from 'vitest';
import { watchEventLoopLoad } from './event-loop-load';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the event-loop load', () => {
  it('is busy after the loop worked through a sample, and not once it waits again', async () => {
    const load = watchEventLoopLoad();
    await wait(120);
    expect(load.busy()).toBe(false);
    // Work for several samples, yielding only to more work (as a process full of runs does).
    const until = performance.now() + 300;
    while (performance.now() < until) {
      const slice = performance.now() + 20;
      while (performance.now() < slice);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(load.busy()).toBe(true);
    await wait(150);
    expect(load.busy()).toBe(false);
    load.stop();
  });
});
