import { describe, expect, it } from 'vitest';
import { createWakeUps } from './wake-ups';

const settled = async (promise: Promise<void>) => {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('createWakeUps', () => {
  it('resumes a sleeping loop, else keeps the wake-up as a hint, at most one per loop', async () => {
    const wakeUps = createWakeUps(2);
    const sleeping = wakeUps.idle();
    expect(await settled(sleeping)).toBe(false);
    wakeUps.wakeOne();
    expect(await settled(sleeping)).toBe(true);

    // Nobody sleeps: five wake-ups leave two hints, used up one idle() each.
    for (let i = 0; i < 5; i++) wakeUps.wakeOne();
    expect(await settled(wakeUps.idle())).toBe(true);
    expect(await settled(wakeUps.idle())).toBe(true);
    expect(await settled(wakeUps.idle())).toBe(false);
  });

  it('wakes only a sleeping loop for wakeIdle, leaving no hint', async () => {
    const wakeUps = createWakeUps(2);
    wakeUps.wakeIdle();
    expect(await settled(wakeUps.idle())).toBe(false);
  });

  it('resumes every sleeping loop on stop, and never sleeps again', async () => {
    const wakeUps = createWakeUps(3);
    const sleeping = [wakeUps.idle(), wakeUps.idle()];
    wakeUps.stop();
    expect(await Promise.all(sleeping.map(settled))).toEqual([true, true]);
    expect(await settled(wakeUps.idle())).toBe(true);
  });
});
