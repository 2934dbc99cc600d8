import { parentPort } from 'node:worker_threads';
import variant from '@jitl/quickjs-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type CustomizeVariantOptions,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
} from 'quickjs-emscripten-core';

/*
 * A thread of the Code step's sandbox (code-sandbox.ts starts it, bounds its time and replaces it):
 * it loads QuickJS's WebAssembly module once, then runs one call at a time, each in a fresh QuickJS
 * runtime and context that is disposed when it answers. Nothing of the host is handed to the VM:
 * the globals go in as one JSON string parsed inside it, `console` is written in the VM's own
 * JavaScript, and the result comes out as a JSON string. So the code never touches a host object;
 * the only host functions QuickJS calls are the interrupt handler and the memory's `grow`
 * (docs/decisions/0046).
 */

/** What code-sandbox.ts asks of the thread. */
export type ThreadRequest = {
  id: number;
  source: string;
  /** `{ input, nodes, vars }` as JSON. */
  globalsJson: string;
  timeoutMs: number;
  memoryMb: number;
  logLinesMax: number;
  logLineMax: number;
  resultMaxBytes: number;
  /** The deepest nesting a result may have (the host walks it recursively later). */
  resultMaxDepth: number;
};

/** Why a call failed; code-sandbox.ts turns it into the step's message. */
export type ThreadFailure = 'threw' | 'timedOut' | 'outOfMemory' | 'tooLarge' | 'notJson' | 'neverSettled';

/**
 * The thread's answer: the result as JSON, a failure the user caused, or a bug of ours. `logs` are
 * the kept `console` lines and `dropped` how many more there were. `recycle`: the thread should be
 * replaced (its call hit the memory limit, its WebAssembly memory grew large, or QuickJS is broken).
 */
export type ThreadAnswer = {
  type: 'answer';
  id: number;
  logs: string[];
  dropped: number;
  recycle: boolean;
} & ({ json: string } | { failure: ThreadFailure; detail: string } | { bug: string });

export type ThreadMessage = { type: 'ready' } | ThreadAnswer;

const MiB = 1024 * 1024;
/**
 * QuickJS's own stack limit (its default). It must stop a deep recursion before V8's stack for the
 * WebAssembly frames runs out (which would unwind through QuickJS's C code and leave it broken):
 * code-sandbox.ts gives the thread 8 MiB of stack, several times what this much QuickJS stack takes.
 */
const MAX_STACK_BYTES = 1 * MiB;
/**
 * WebAssembly memory never shrinks: a thread whose module grew past twice the default limit is
 * replaced after it answers, so one large call does not keep its memory for good (nor lend it to
 * the next call, see `answer`).
 */
const RECYCLE_WASM_BYTES = 128 * MiB;
/** A thrown message longer than this is cut (a step's error is one line). */
const MESSAGE_MAX = 1_000;
/** Where the source says it is in stack traces and syntax errors (the prelude's `describe` reads it). */
const FILE = 'code.js';

/**
 * Evaluated in each fresh context before the code, with the builtins it uses captured, so that the
 * code replacing `JSON` or `Object` changes nothing here. It returns, to the host only (never on
 * `globalThis`): `start(json)` that defines `input`, `nodes`, `vars` and `console`; `describe(error)`
 * as `[name, message, line, column]`; `serialize(value)` as the result's JSON or `[reason]`; the kept log
 * lines; and `counts` (`dropped`).
 */
const prelude = (logLinesMax: number, logLineMax: number, resultMaxBytes: number) => `(() => {
  const { parse, stringify } = JSON;
  const define = Reflect.defineProperty;
  const toText = String;
  const isError = (value) => value instanceof Error;
  const kept = [];
  const counts = { dropped: 0 };
  const cut = (text, max) => (text.length > max ? text.slice(0, max - 1) + '…' : text);
  const show = (value) => {
    if (typeof value === 'string') return value;
    if (isError(value)) return toText(value.name) + ': ' + toText(value.message);
    if (value !== null && typeof value === 'object') {
      const json = stringify(value);
      if (json !== undefined) return json;
    }
    return toText(value);
  };
  const log = (...args) => {
    if (kept.length >= ${logLinesMax}) return void counts.dropped++;
    let line = '';
    for (let i = 0; i < args.length && line.length <= ${logLineMax}; i++) {
      let text;
      try { text = show(args[i]); } catch { text = '[unprintable]'; }
      line += (i > 0 ? ' ' : '') + text;
    }
    // A NUL would end the line where the host reads it (a C string): it reads as U+FFFD.
    line = cut(line, ${logLineMax}).split('\\u0000').join('\\ufffd');
    define(kept, kept.length, { value: line, writable: true, enumerable: true, configurable: true });
  };
  const start = (json) => {
    const globals = parse(json);
    globalThis.input = globals.input;
    globalThis.nodes = globals.nodes;
    globalThis.vars = globals.vars;
    globalThis.console = { log, info: log, warn: log, error: log, debug: log };
  };
  const describe = (error) => {
    if (error !== null && (typeof error === 'object' || typeof error === 'function')) {
      const message = error.message;
      if (typeof message === 'string') {
        const name = typeof error.name === 'string' ? error.name : '';
        const stack = typeof error.stack === 'string' ? error.stack : '';
        const at = /code\\.js:(\\d+):(\\d+)/.exec(stack);
        return [cut(name, 100), cut(message, ${MESSAGE_MAX}), at ? +at[1] : 0, at ? +at[2] : 0];
      }
    }
    return ['', cut(show(error), ${MESSAGE_MAX}), 0, 0];
  };
  const serialize = (value) => {
    if (value === undefined) return 'null';
    if (typeof value === 'function') return ['a function'];
    if (typeof value === 'symbol') return ['a symbol'];
    if (typeof value === 'bigint') return ['a BigInt'];
    const json = stringify(value);
    if (json === undefined) return 'null';
    return json.length > ${resultMaxBytes} ? ['too large'] : json;
  };
  return [start, describe, serialize, kept, counts];
})()`;

/**
 * Emscripten prints QuickJS's aborts to stderr: a runtime QuickJS cannot free (after an interrupt
 * in a promise job, say) fails its own assertion; `answer` replaces the thread, and the abort's text
 * is in the error it catches anyway.
 */
const quiet = { printErr: () => {} } as NonNullable<CustomizeVariantOptions['emscriptenModule']>;
const QuickJS = await newQuickJSWASMModuleFromVariant(newVariant(variant, { emscriptenModule: quiet }));

/** The module's WebAssembly memory (the DOM's type is not in the server's libs). */
type WasmMemory = { readonly buffer: ArrayBuffer; grow(pages: number): number };
const memory = QuickJS.getWasmMemory() as unknown as WasmMemory;
/** The module's memory before any call: its static data, its stack and an empty heap. */
const BASELINE_BYTES = memory.buffer.byteLength;

/**
 * The memory limit, held by the WebAssembly memory itself. QuickJS's `setMemoryLimit` bounds only
 * each allocation in this build, not their total: it counts an allocation with `malloc_usable_size`,
 * which is 0 under Emscripten (quickjs-emscripten issues 255 and 271), so many small allocations pass
 * any limit. The module grows its memory with this object's `grow` and already copes with a grow
 * that fails (malloc answers NULL, QuickJS throws its 'out of memory'), so the thread refuses to
 * grow it past the call's limit (`answer` sets it).
 */
const growth = { capBytes: Infinity, refused: false };
const growMemory = memory.grow.bind(memory);
memory.grow = (pages: number) => {
  if (memory.buffer.byteLength + pages * 65_536 > growth.capBytes) {
    growth.refused = true;
    throw new RangeError("past the Code step's memory limit");
  }
  return growMemory(pages);
};

/** How a call ends other than with a result; `at` orders syntax errors (line, then column). */
class Stop extends Error {
  constructor(
    readonly failure: ThreadFailure,
    readonly detail = '',
    readonly at = 0,
  ) {
    super(failure);
  }
}

type Outcome = { json: string } | { failure: ThreadFailure; detail: string };

/**
 * Runs one call in `context` (fresh, in a fresh runtime): the prelude, the globals, the code, its
 * promise jobs, the result's JSON. Every handle it takes is disposed before it returns, so that the
 * runtime can be freed.
 */
function run(request: ThreadRequest, runtime: QuickJSRuntime, context: QuickJSContext) {
  const handles: QuickJSHandle[] = [];
  const keep = (handle: QuickJSHandle) => (handles.push(handle), handle);
  const state = { logs: [] as string[], dropped: 0, memoryHit: false };
  let interrupted = false;
  const deadline = performance.now() + request.timeoutMs;
  runtime.setInterruptHandler(() => (interrupted ||= performance.now() > deadline));
  let describe: QuickJSHandle | undefined;

  /** What an exception is: the time limit, the memory limit, or the code's own error. */
  const stopFor = (error: QuickJSHandle, failure: 'threw' | 'notJson' = 'threw'): Stop => {
    keep(error);
    if (interrupted) return new Stop('timedOut');
    const described = describe && context.callFunction(describe, context.undefined, error);
    if (!described || described.error) {
      if (described?.error) keep(described.error);
      if (interrupted) return new Stop('timedOut');
      // Nothing could run any more to read the error: the runtime has no memory left.
      state.memoryHit = true;
      return new Stop('outOfMemory');
    }
    const [name, message, line, column] = context.dump(keep(described.value)) as [
      string,
      string,
      number,
      number,
    ];
    if (name === 'InternalError' && message === 'out of memory') {
      state.memoryHit = true;
      return new Stop('outOfMemory');
    }
    if (failure === 'notJson') return new Stop('notJson', message);
    const text =
      name === 'InternalError' && message === 'stack overflow'
        ? STACK_OVERFLOW
        : name
          ? `${name}: ${message}`
          : message;
    return new Stop('threw', line > 0 ? `${text} (line ${line})` : text, line * 1e6 + column);
  };

  let outcome: Outcome;
  try {
    const made = context.evalCode(prelude(request.logLinesMax, request.logLineMax, request.resultMaxBytes));
    if (made.error) throw stopFor(made.error);
    const tools = keep(made.value);
    const [start, serialize, kept, counts] = [0, 2, 3, 4].map((i) => keep(context.getProp(tools, i)));
    describe = keep(context.getProp(tools, 1));
    try {
      const started = context.callFunction(
        start,
        context.undefined,
        keep(context.newString(request.globalsJson)),
      );
      if (started.error) throw stopFor(started.error);
      keep(started.value);

      let value = keep(evaluate(request.source, context, stopFor));
      // The promise jobs the code queued (its awaits and thens), until there are none left.
      while (runtime.hasPendingJob()) {
        const jobs = runtime.executePendingJobs();
        if (jobs.error) throw stopFor(jobs.error);
      }
      // A promise job the interrupt stopped rejects its promise rather than throwing here.
      if (interrupted) throw new Stop('timedOut');
      const settled = context.getPromiseState(value);
      if (settled.type === 'pending') throw new Stop('neverSettled');
      if (settled.type === 'rejected') throw stopFor(settled.error);
      if (!settled.notAPromise) value = keep(settled.value);

      const serialized = context.callFunction(serialize, context.undefined, value);
      if (serialized.error) throw stopFor(serialized.error, 'notJson');
      const out = keep(serialized.value);
      if (context.typeof(out) !== 'string') {
        const reason = context.getString(keep(context.getProp(out, 0)));
        throw reason === 'too large' ? new Stop('tooLarge') : new Stop('notJson', reason);
      }
      const json = context.getString(out);
      if (Buffer.byteLength(json) > request.resultMaxBytes) throw new Stop('tooLarge');
      if (depthOf(json) > request.resultMaxDepth)
        throw new Stop('notJson', `it is nested deeper than ${request.resultMaxDepth} levels`);
      outcome = { json };
    } finally {
      try {
        // Own data properties of an array the code cannot reach: reading them runs none of its code.
        const length = context.getNumber(keep(context.getProp(kept, 'length')));
        for (let i = 0; i < Math.min(length, request.logLinesMax); i++)
          state.logs.push(context.getString(keep(context.getProp(kept, i))).slice(0, request.logLineMax));
        state.dropped = context.getNumber(keep(context.getProp(counts, 'dropped')));
      } catch {
        // No memory left to read them: the lines read so far are kept.
      }
    }
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    outcome = { failure: error.failure, detail: error.detail };
  } finally {
    for (const handle of handles.reverse())
      try {
        if (handle.alive) handle.dispose();
      } catch {
        // QuickJS is broken (V8's stack ran out inside it): the thread is replaced anyway.
      }
  }
  return { state, outcome };
}

/**
 * How deeply a JSON text nests, read without parsing it: the host parses a result of any depth, but
 * what reads it later (JSON.stringify, the expressions, the database) recurses, and a 1 MiB result
 * can nest half a million levels.
 */
function depthOf(json: string) {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

const STACK_OVERFLOW = 'InternalError: stack overflow (a recursion too deep)';

/**
 * The code's value: run as a script (its last expression is its value); if it does not compile as
 * one (a top-level `return` or `await`), as the body of an async function starting on the same line
 * (so line numbers stay the source's), whose promise `run` awaits. A syntax error is the one of
 * whichever form the parser got further into (past `return 1; foo(`'s return, say).
 */
function evaluate(source: string, context: QuickJSContext, stopFor: (error: QuickJSHandle) => Stop) {
  const asScript = context.evalCode(source, FILE, { type: 'global', compileOnly: true });
  if (!asScript.error) {
    asScript.value.dispose();
    const ran = context.evalCode(source, FILE, { type: 'global' });
    if (ran.error) throw stopFor(ran.error);
    return ran.value;
  }
  const asFunction = context.evalCode(`(async function () {${source}\n})`, FILE, { type: 'global' });
  if (asFunction.error) {
    const script = stopFor(asScript.error);
    let body = stopFor(asFunction.error);
    if (script.failure !== 'threw') throw script;
    if (body.failure !== 'threw') throw body;
    // Past the source's last line is the wrapper's closing brace: the code ended too early.
    const lastLine = source.split('\n').length;
    if (body.at >= (lastLine + 1) * 1e6)
      body = new Stop(
        'threw',
        `SyntaxError: unexpected end of the code (line ${lastLine})`,
        (lastLine + 1) * 1e6 - 1,
      );
    throw script.at > body.at ? script : body;
  }
  asScript.error.dispose();
  const called = context.callFunction(asFunction.value, context.undefined);
  asFunction.value.dispose();
  if (called.error) throw stopFor(called.error);
  return called.value;
}

/** V8's own stack ran out inside QuickJS: a recursion QuickJS's limit did not catch. */
const isHostStackOverflow = (error: unknown) =>
  error instanceof RangeError && error.message === 'Maximum call stack size exceeded';

function answer(request: ThreadRequest): ThreadAnswer {
  const base = { type: 'answer' as const, id: request.id, logs: [], dropped: 0, recycle: true };
  // Memory an earlier call left grown is free again for this one: its size cannot be taken back, and
  // a thread grown past RECYCLE_WASM_BYTES is replaced, which bounds what a call gets beyond its limit.
  growth.capBytes = Math.max(memory.buffer.byteLength, BASELINE_BYTES + request.memoryMb * MiB);
  growth.refused = false;
  let context: QuickJSContext;
  const runtime = QuickJS.newRuntime();
  try {
    runtime.setMemoryLimit(request.memoryMb * MiB);
    runtime.setMaxStackSize(MAX_STACK_BYTES);
    context = runtime.newContext();
  } catch {
    // Its builtins alone do not fit in the memory limit.
    return { ...base, failure: 'outOfMemory', detail: '' };
  }
  let result: ReturnType<typeof run>;
  try {
    result = run(request, runtime, context);
  } catch (error) {
    if (isHostStackOverflow(error)) return { ...base, failure: 'threw', detail: STACK_OVERFLOW };
    // QuickJS gave up on a failed allocation in a way it does not recover from: still the limit.
    if (growth.refused) return { ...base, failure: 'outOfMemory', detail: '' };
    return { ...base, bug: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
  const { state, outcome } = result;
  let freed = true;
  try {
    // Jobs still queued (the code was stopped) hold its context: past the deadline they end at once.
    for (let i = 0; i < 1_000 && runtime.hasPendingJob(); i++) runtime.executePendingJobs().error?.dispose();
    context.dispose();
    runtime.dispose();
  } catch {
    // A runtime QuickJS cannot free (an allocation failed midway, say): the answer stands, the thread goes.
    freed = false;
  }
  const recycle =
    !freed || state.memoryHit || growth.refused || memory.buffer.byteLength > RECYCLE_WASM_BYTES;
  return { ...base, logs: state.logs, dropped: state.dropped, recycle, ...outcome };
}

parentPort!.on('message', (request: ThreadRequest) => parentPort!.postMessage(answer(request)));
parentPort!.postMessage({ type: 'ready' } satisfies ThreadMessage);
