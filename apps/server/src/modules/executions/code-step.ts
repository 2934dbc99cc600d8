import type { CodeAnswer, CodeCall } from '@crewline/engine';
import { CodeStepError, type CodeSandbox } from '../../platform/sandbox/code-sandbox';
import type { RunLog } from './run-log';

/** Escaped NULs and lone surrogates, as JSON.stringify writes them: Postgres's jsonb refuses both. */
const UNSTORABLE =
  /\\u0000|\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f][0-9a-f]{2})|(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2}/gi;

/** A value the code returned, made storable: a NUL or a lone surrogate reads as U+FFFD. */
function storable(value: unknown): unknown {
  const json = JSON.stringify(value ?? null);
  const cleaned = json.replace(UNSTORABLE, '\\ufffd');
  return cleaned === json ? value : JSON.parse(cleaned);
}

/** The same in a console line, as the string it is. */
const storableLine = (line: string) =>
  line.replace(/\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

/**
 * One Code step of an attempt (or a step's test), the engine's `runCode` port: the source runs in the
 * WebAssembly sandbox (platform/sandbox, docs/decisions/0046-code-step-in-quickjs.md) under the run's
 * abort signal, and its `console.log` lines go to the step's log, those of a step that failed too. A
 * limit it exceeds or an error it throws is a CodeStepError, whose message the run shows as the step's.
 */
export function createCodeStep(deps: { sandbox: CodeSandbox; runLog?: RunLog; signal?: AbortSignal }) {
  const log = (lines: string[], nodeId: string) => {
    for (const line of lines) deps.runLog?.add('info', `console: ${storableLine(line)}`, nodeId);
  };
  return async function codeStep(call: CodeCall): Promise<CodeAnswer> {
    try {
      const answer = await deps.sandbox.run(
        { source: call.source, globals: call.globals, timeoutMs: call.timeoutMs, memoryMb: call.memoryMb },
        deps.signal,
      );
      log(answer.logs, call.step.nodeId);
      return { value: storable(answer.value), logs: answer.logs.map(storableLine) };
    } catch (error) {
      if (error instanceof CodeStepError) log(error.logs, call.step.nodeId);
      throw error;
    }
  };
}
