import { describe, expect, it } from 'vitest';
import { coalescing } from './coalescing';

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

/** `compute(label)` makes a computation that is ended by hand; `started` lists those begun, in order. */
function manual() {
  const started: string[] = [];
  const finish: ((value: string) => void)[] = [];
  const fail: ((error: Error) => void)[] = [];
  const compute = (label: string) => () =>
    new Promise<string>((resolve, reject) => {
      started.push(label);
      finish.push(resolve);
      fail.push(reject);
    });
  return { started, finish, fail, compute };
}

describe('coalescing', () => {
  it('gives the callers who arrived during a computation one fresh computation, never the one under way', async () => {
    const shared = coalescing<string>();
    const { started, finish, compute } = manual();
    const first = shared('org-a', compute('1'));
    await flush();
    expect(started).toEqual(['1']);

    // Three callers arrive while the first computation runs: none of them gets its result.
    const waiting = [
      shared('org-a', compute('2')),
      shared('org-a', compute('3')),
      shared('org-a', compute('4')),
    ];
    await flush();
    expect(started).toEqual(['1']);
    finish[0]('first');
    expect(await first).toBe('first');
    await flush();
    // One computation serves all three, started after they arrived.
    expect(started).toEqual(['1', '2']);
    finish[1]('second');
    expect(await Promise.all(waiting)).toEqual(['second', 'second', 'second']);

    // Idle again: the next caller starts its own at once.
    const later = shared('org-a', compute('5'));
    await flush();
    expect(started).toEqual(['1', '2', '5']);
    finish[2]('third');
    expect(await later).toBe('third');
  });

  it('shares nothing between keys', async () => {
    const shared = coalescing<string>();
    const { started, finish, compute } = manual();
    const results = [shared('org-a 7 UTC', compute('a')), shared('org-b 7 UTC', compute('b'))];
    await flush();
    expect(started).toEqual(['a', 'b']);
    finish[0]('for a');
    finish[1]('for b');
    expect(await Promise.all(results)).toEqual(['for a', 'for b']);
  });

  it('fails only the callers of the failed computation, and the next caller computes again', async () => {
    const shared = coalescing<string>();
    const { started, finish, fail, compute } = manual();
    const first = shared('org-a', compute('1')).catch((e: Error) => e.message);
    await flush();
    const second = shared('org-a', compute('2'));
    fail[0](new Error('database unavailable'));
    expect(await first).toBe('database unavailable');
    await flush();
    expect(started).toEqual(['1', '2']);
    finish[1]('recovered');
    expect(await second).toBe('recovered');
  });
});
