import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Interrupted } from './run-errors';
import { holdLease } from './run-lease';

describe("an attempt's lease", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function held(renew: () => Promise<boolean>, leaseMs = 3000) {
    const renewLease = vi.fn(renew);
    const warn = vi.fn();
    const abort = new AbortController();
    const lease = holdLease({
      repository: { renewLease },
      executionId: 'run-1',
      attempt: 2,
      leaseMs,
      abort,
      logger: { warn } as never,
    });
    return { renewLease, warn, abort, lease };
  }

  it('is renewed every third of its length, with the attempt number', async () => {
    const { renewLease, abort, lease } = held(async () => true);
    await vi.advanceTimersByTimeAsync(999);
    expect(renewLease).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(renewLease).toHaveBeenCalledWith('run-1', 2, 3000);
    await vi.advanceTimersByTimeAsync(2000);
    expect(renewLease).toHaveBeenCalledTimes(3);
    expect(abort.signal.aborted).toBe(false);
    await lease.release();
  });

  it('is renewed at least every 200 ms however short', async () => {
    const { renewLease, lease } = held(async () => true, 300);
    await vi.advanceTimersByTimeAsync(199);
    expect(renewLease).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(renewLease).toHaveBeenCalledTimes(1);
    await lease.release();
  });

  it('lost to another worker, aborts the attempt as superseded', async () => {
    const { abort, lease } = held(async () => false);
    await vi.advanceTimersByTimeAsync(1000);
    expect(abort.signal.aborted).toBe(true);
    expect(abort.signal.reason).toBeInstanceOf(Interrupted);
    expect((abort.signal.reason as Interrupted).reason).toBe('superseded');
    await lease.release();
  });

  it('keeps an attempt already stopped for another reason (a cancel) as it is', async () => {
    const { abort, lease } = held(async () => false);
    abort.abort(new Interrupted('cancelled'));
    await vi.advanceTimersByTimeAsync(1000);
    expect((abort.signal.reason as Interrupted).reason).toBe('cancelled');
    await lease.release();
  });

  it('a failed renewal (the database away) is logged and changes nothing', async () => {
    const { abort, warn, lease } = held(() => Promise.reject(new Error('connection refused')));
    await vi.advanceTimersByTimeAsync(1000);
    expect(abort.signal.aborted).toBe(false);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ executionId: 'run-1' }),
      'lease renewal failed',
    );
    await lease.release();
  });

  it('released, is no longer renewed', async () => {
    const { renewLease, lease } = held(async () => true);
    lease.release();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(renewLease).not.toHaveBeenCalled();
  });

  it('released, resolves only once a renewal already sent has landed (a hand-back comes after it)', async () => {
    let land!: () => void;
    const { renewLease, lease } = held(() => new Promise<boolean>((resolve) => (land = () => resolve(true))));
    await vi.advanceTimersByTimeAsync(1000);
    expect(renewLease).toHaveBeenCalledTimes(1);
    let released = false;
    const releasing = lease.release().then(() => (released = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(released).toBe(false);
    land();
    await releasing;
    expect(released).toBe(true);
  });
});
