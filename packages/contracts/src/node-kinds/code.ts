// The Code node: a few lines of JavaScript, run in a WebAssembly sandbox (docs/decisions/0046-code-step-in-quickjs.md).
import { z } from 'zod';
import { kindData, type NodeKindDefinition } from './data';

/** The sandbox's limits: the default and the most a step may ask for. */
export const CODE_TIMEOUT_MS = { default: 2_000, max: 30_000 } as const;
export const CODE_MEMORY_MB = { default: 64, max: 256 } as const;
/** The longest source a Code step keeps, in characters. */
export const CODE_SOURCE_MAX = 50_000;
/** A Code step's result: at most this many bytes of JSON. */
export const CODE_RESULT_MAX_BYTES = 1024 * 1024;
/** `console.log` lines a step keeps (each cut at CODE_LOG_LINE_MAX characters); later ones are counted, not kept. */
export const CODE_LOG_LINES_MAX = 100;
export const CODE_LOG_LINE_MAX = 1_000;

/** Why a Code step failed, in the words its run shows. */
export const codeMessages = {
  timedOut: (ms: number) =>
    `Code step stopped: it ran longer than ${ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`}`,
  outOfMemory: (mb: number) => `Code step stopped: it needed more than ${mb} MiB of memory`,
  tooLarge: 'Code step stopped: its result is larger than 1 MiB',
  notJson: (why: string) => `Code step stopped: its result is not JSON (${why})`,
  threw: (message: string) => `Code step failed: ${message}`,
  noSource: (name: string) => `Code "${name}" has no code to run`,
  neverSettled: 'Code step stopped: it returned a promise that never settled',
} as const;

/**
 * `{ language: 'javascript', source, timeoutMs?, memoryMb? }`: the source receives `input`, `nodes`
 * and `vars` as plain JSON; its `return` (or last expression) is the step's `data`.
 */
export const codeNodeKind = {
  kind: 'code',
  label: 'Code',
  help: 'Runs a few lines of JavaScript on the data so far, in a sandbox; no model.',
  removable: true,
  step: true,
  sequentialOnly: true,
  data: kindData({
    language: z.literal('javascript').default('javascript'),
    source: z.string().max(CODE_SOURCE_MAX).default('').meta({
      description:
        "JavaScript (ES2023). It reads `input`, `nodes` and `vars` (plain JSON); its `return` value, else its last expression, is the step's `data`. `console.log` lines go to the step's logs.",
    }),
    timeoutMs: z
      .number()
      .int()
      .min(10)
      .max(CODE_TIMEOUT_MS.max)
      .optional()
      .meta({
        description: `Time limit in milliseconds (default ${CODE_TIMEOUT_MS.default}).`,
      }),
    memoryMb: z
      .number()
      .int()
      .min(1)
      .max(CODE_MEMORY_MB.max)
      .optional()
      .meta({
        description: `Memory limit in MiB (default ${CODE_MEMORY_MB.default}).`,
      }),
  }).meta({
    description:
      "Runs JavaScript in a WebAssembly sandbox (no network, files or host objects). Its step's `data` is the returned JSON value.",
    examples: [
      {
        label: 'Total',
        language: 'javascript',
        source:
          'const total = input.items.reduce((sum, i) => sum + i.price, 0);\nreturn { total, large: total > 100 };',
      },
    ],
  }),
} as const satisfies NodeKindDefinition<'code'>;
