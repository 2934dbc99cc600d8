import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CODE_LOG_LINE_MAX, CODE_LOG_LINES_MAX, codeMessages } from '@crewline/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { CodeStepError, createCodeSandbox, type CodeRequest } from './code-sandbox';

const sandbox = createCodeSandbox();
afterAll(() => sandbox.close());

const globals = {
  input: { items: [{ price: 40 }, { price: 75 }] },
  nodes: { classify: { data: { category: 'billing' }, content: 'billing' } },
  vars: { threshold: 100 },
};
const call = (source: string, overrides: Partial<CodeRequest> = {}): CodeRequest => ({
  source,
  globals,
  timeoutMs: 2_000,
  memoryMb: 64,
  ...overrides,
});
const run = (source: string, overrides: Partial<CodeRequest> = {}) => sandbox.run(call(source, overrides));
const valueOf = async (source: string, overrides: Partial<CodeRequest> = {}) =>
  (await run(source, overrides)).value;
/** The CodeStepError a call fails with. */
async function failureOf(source: string, overrides: Partial<CodeRequest> = {}) {
  const error = await run(source, overrides).then(
    () => expect.unreachable(`${source} should fail`),
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(CodeStepError);
  return error as CodeStepError;
}

describe('the code sandbox', () => {
  it('answers the returned value, else the last expression’s', async () => {
    expect(
      await valueOf(
        'const total = input.items.reduce((sum, i) => sum + i.price, 0);\nreturn { total, large: total > vars.threshold };',
      ),
    ).toEqual({ total: 115, large: true });
    expect(await valueOf('const doubled = input.items.map((i) => i.price * 2);\ndoubled')).toEqual([80, 150]);
    expect(
      await valueOf('if (nodes.classify.data.category === "billing") return "to billing";\nreturn "other";'),
    ).toBe('to billing');
    // Nothing returned is null; a string stays a string.
    expect(await valueOf('let nothing;')).toBeNull();
    expect(await valueOf('nodes.classify.content.toUpperCase()')).toBe('BILLING');
  });

  it('awaits: a top-level await, and a promise as the last expression', async () => {
    expect(await valueOf('const x = await Promise.resolve(20);\nreturn x + 1;')).toBe(21);
    expect(await valueOf('Promise.all([1, 2].map(async (n) => n * 10))')).toEqual([10, 20]);
    await expect(run('await null;\nthrow new RangeError("after the await");')).rejects.toThrow(
      codeMessages.threw('RangeError: after the await (line 2)'),
    );
  });

  it('starts every call afresh: nothing the last one left is there', async () => {
    expect(await valueOf('globalThis.leftover = 1; Array.prototype.sneaky = 2; input.kept = 3; "set"')).toBe(
      'set',
    );
    expect(await valueOf('[typeof leftover, typeof [].sneaky, typeof input.kept]')).toEqual([
      'undefined',
      'undefined',
      'undefined',
    ]);
    // The host's globals are copies too.
    expect(globals.input).toEqual({ items: [{ price: 40 }, { price: 75 }] });
  });

  it('keeps console lines: arguments joined by a space, objects as JSON, capped', async () => {
    const { value, logs } = await run(
      'console.log("total", 115, { large: true }, [1, 2], null, undefined);\nconsole.warn(new TypeError("careful"));\nconsole.error("x".repeat(5000));\n"done"',
    );
    expect(value).toBe('done');
    expect(logs).toEqual([
      'total 115 {"large":true} [1,2] null undefined',
      'TypeError: careful',
      'x'.repeat(CODE_LOG_LINE_MAX - 1) + '…',
    ]);

    const many = await run(`for (let i = 1; i <= ${CODE_LOG_LINES_MAX + 12}; i++) console.info("line", i);`);
    expect(many.logs).toHaveLength(CODE_LOG_LINES_MAX + 1);
    expect(many.logs[CODE_LOG_LINES_MAX - 1]).toBe(`line ${CODE_LOG_LINES_MAX}`);
    expect(many.logs[CODE_LOG_LINES_MAX]).toBe('… 12 more lines not kept');
  });

  it('keeps the lines written before the code failed', async () => {
    const error = await failureOf('console.log("reading", input.items.length);\ninput.missing.price');
    expect(error.message).toBe(
      codeMessages.threw("TypeError: cannot read property 'price' of undefined (line 2)"),
    );
    expect(error.logs).toEqual(['reading 2']);
  });

  it('says which limit stopped the code', async () => {
    expect((await failureOf('while (true) {}', { timeoutMs: 150 })).message).toBe(
      'Code step stopped: it ran longer than 150 ms',
    );
    // Many small allocations as well as large ones: each counts towards the limit.
    for (const grows of [
      'kept.push({ row: kept.length, text: "row " + kept.length })',
      'kept.push(new Uint8Array(100_000))',
    ])
      expect((await failureOf(`const kept = [];\nfor (;;) ${grows};`, { memoryMb: 8 })).message).toBe(
        'Code step stopped: it needed more than 8 MiB of memory',
      );
    // The limit is on the total: caught refusals leave it at about 8 MiB and the module's first 16 MiB
    // (its static data and an empty heap), not at what WebAssembly could grow to (2 GiB).
    const kept = await valueOf(
      'const kept = [];\ntry { for (;;) kept.push(new Uint8Array(1024 * 1024)); } catch {}\nkept.length',
      { memoryMb: 8 },
    );
    expect(kept).toBeGreaterThanOrEqual(4);
    expect(kept).toBeLessThanOrEqual(8 + 16);
    expect((await failureOf('"x".repeat(2 * 1024 * 1024)')).message).toBe(
      'Code step stopped: its result is larger than 1 MiB',
    );
    expect((await failureOf('new Promise(() => {})')).message).toBe(
      'Code step stopped: it returned a promise that never settled',
    );
  });

  it('says why a result is not JSON', async () => {
    expect((await failureOf('return (x) => x;')).message).toBe(codeMessages.notJson('a function'));
    expect((await failureOf('({ big: 10n })')).message).toBe(
      codeMessages.notJson('Do not know how to serialize a BigInt'),
    );
    expect((await failureOf('const loop = {};\nloop.self = loop;\nloop')).message).toBe(
      codeMessages.notJson('circular reference'),
    );
    // JSON's own rules otherwise: a nested function is left out, a date is its ISO text.
    expect(await valueOf('({ keep: 1, drop: () => 1, at: new Date(0) })')).toEqual({
      keep: 1,
      at: '1970-01-01T00:00:00.000Z',
    });
  });

  it('says what the code threw, and where a syntax error is', async () => {
    expect((await failureOf('throw new Error("no items")')).message).toBe(
      codeMessages.threw('Error: no items (line 1)'),
    );
    expect((await failureOf('throw "plain text"')).message).toBe(codeMessages.threw('plain text'));
    expect((await failureOf('const a = 1;\nconst b = ;')).message).toMatch(
      /^Code step failed: SyntaxError: .+ \(line 2\)$/,
    );
    // A top-level return before the mistake: the mistake is the one reported.
    expect(
      (await failureOf('if (vars.threshold) return 1;\nreturn input.items.map((i) => i.price;')).message,
    ).toMatch(/^Code step failed: SyntaxError: .+ \(line 2\)$/);
    expect((await failureOf('const list = [1, 2')).message).toBe(
      codeMessages.threw('SyntaxError: unexpected end of the code (line 1)'),
    );
  });

  it('copies the result as JSON: a `__proto__` key is only a key on the host', async () => {
    const value = (await valueOf(
      'Object.prototype.polluted = "yes";\nconst evil = JSON.parse(\'{"__proto__": {"polluted": "yes"}, "a": 1}\');\nevil',
    )) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(value.polluted).toBeUndefined();
  });
});

describe('the pool', () => {
  it('queues calls beyond its threads; a call’s time limit starts when it runs', async () => {
    const single = createCodeSandbox({ threads: 1 });
    try {
      const done: string[] = [];
      const started = performance.now();
      const calls = [
        // Longer than the second's time limit and its grace (1 s): they must not count while it waits.
        // The others' limit leaves room for a new QuickJS context on a loaded machine (100 ms did not, in CI).
        single.run(
          call('const end = Date.now() + 2_000;\nwhile (Date.now() < end) {}\n"first"', { timeoutMs: 5_000 }),
        ),
        single.run(call('"second"', { timeoutMs: 500 })),
        single.run(call('"third"', { timeoutMs: 500 })),
      ].map((running) => running.then(({ value }) => done.push(value as string)));
      await Promise.all(calls);
      expect(done).toEqual(['first', 'second', 'third']);
      expect(performance.now() - started).toBeGreaterThanOrEqual(2_000);
    } finally {
      await single.close();
    }
  });

  it('replaces a thread grown to a large limit, so that the next call’s limit holds', async () => {
    const single = createCodeSandbox({ threads: 1 });
    const keepBuffers = (memoryMb: number) =>
      single.run(
        call(
          'const kept = [];\ntry { for (;;) kept.push(new Uint8Array(1024 * 1024)); } catch {}\nkept.length',
          {
            memoryMb,
          },
        ),
      );
    try {
      expect((await keepBuffers(128)).value).toBeGreaterThan(100);
      // On the same thread, 140 MiB of WebAssembly memory would stay free for this call to fill.
      expect((await keepBuffers(8)).value).toBeLessThanOrEqual(8 + 16);
    } finally {
      await single.close();
    }
  });

  it('ends an aborted call at once, running or waiting, and goes on with the next', async () => {
    const single = createCodeSandbox({ threads: 1 });
    try {
      expect((await single.run(call('"warm"'))).value).toBe('warm');
      const abort = new AbortController();
      const waitingAbort = new AbortController();
      const running = single.run(call('while (true) {}', { timeoutMs: 30_000 }), abort.signal);
      const waiting = single.run(call('"never run"'), waitingAbort.signal);
      const next = single.run(call('"next"'));
      waitingAbort.abort(new Error('the run was cancelled'));
      await expect(waiting).rejects.toThrow('the run was cancelled');
      const stopping = performance.now();
      abort.abort(new Error('the worker is stopping'));
      await expect(running).rejects.toThrow('the worker is stopping');
      expect(performance.now() - stopping).toBeLessThan(100);
      // Its thread was replaced: the next call runs on a new one.
      expect((await next).value).toBe('next');

      const already = AbortSignal.abort(new Error('already cancelled'));
      await expect(single.run(call('1'), already)).rejects.toThrow('already cancelled');
    } finally {
      await single.close();
    }
  });

  it('runs in a process started as `npm start` starts the server, which its idle threads do not keep alive', async () => {
    const module = fileURLToPath(new URL('./code-sandbox.ts', import.meta.url));
    // No close(): the process must end on its own once the call is answered.
    const script = `
      const { createCodeSandbox } = await import(${JSON.stringify(module)});
      const { value } = await createCodeSandbox().run({ source: 'return input.n * 2', globals: { input: { n: 21 }, nodes: {}, vars: {} }, timeoutMs: 2000, memoryMb: 64 });
      console.log(value);`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '--eval', script],
      { cwd: fileURLToPath(new URL('../../../../..', import.meta.url)), timeout: 20_000 },
    );
    expect(stdout.trim()).toBe('42');
  });

  it('fails the calls still waiting when it closes', async () => {
    const closing = createCodeSandbox({ threads: 1 });
    const running = expect(closing.run(call('while (true) {}', { timeoutMs: 30_000 }))).rejects.toThrow(
      'the code sandbox is closed',
    );
    const waiting = expect(closing.run(call('1'))).rejects.toThrow('the code sandbox is closed');
    await closing.close();
    await running;
    await waiting;
    await expect(closing.run(call('1'))).rejects.toThrow('the code sandbox is closed');
  });

  it('terminates a thread that does not answer within its time limit and a grace, then runs the next call on a new one', async () => {
    // A thread stuck in native code never reaches QuickJS's interrupt handler: the pool's own timer stops it.
    const stuck = createCodeSandbox({
      threads: 1,
      script: new URL('../../testing/stuck-sandbox-thread.ts', import.meta.url),
    });
    try {
      const started = Date.now();
      const error = await stuck.run(call('1', { timeoutMs: 300 })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CodeStepError);
      expect((error as Error).message).toBe(codeMessages.timedOut(300));
      // The time limit and the grace (1 s), then the thread was terminated, not waited for (60 s).
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_300);
      expect(Date.now() - started).toBeLessThan(20_000);
      // Its replacement takes the next call (and is stuck too, so it is stopped the same way).
      await expect(stuck.run(call('2', { timeoutMs: 300 }))).rejects.toThrow(codeMessages.timedOut(300));
    } finally {
      await stuck.close();
    }
  });
});
