// The shapes the engine hands to expressions (docs/decisions/0040-cel-expressions.md).

/** What an expression can read when the run evaluates it. */
export type ExpressionContext = {
  /** What the run started with (object or string). */
  input: unknown;
  /** Finished nodes by node id. */
  nodes: Record<string, { content: string; data: unknown; status: string }>;
  /** Values set by transform steps. */
  vars: Record<string, unknown>;
  run: { id: string; trigger: string; startedAt: string };
  /** A guardrail's custom rule only: the text it checks. */
  text?: string;
  /** Inside map/loop bodies only. */
  item?: unknown;
  index?: number;
  last?: unknown;
};

/** What an expression may refer to when it is checked at save time (type-checking). */
export type ExpressionScope = {
  /**
   * The nodes upstream of the node being checked, by id; `outputSchema` is the JSON Schema of their
   * `data` when declared (agent output schemas), else data is dynamic. `kind` is the node kind.
   */
  nodes: Record<string, { kind: string; outputSchema?: Record<string, unknown> }>;
  /** Names set by upstream transforms (their values are dynamic). */
  vars: string[];
  /** Inside map/loop bodies: item, index and last are defined. */
  iteration?: boolean;
  /** A guardrail's custom rule: `text` (a string) is defined. */
  text?: boolean;
};

/**
 * An expression that cannot be compiled or evaluated. `message` is for a user (the expression, then
 * the reason); `reason` alone is the one-line why.
 */
export class ExpressionError extends Error {
  override name = 'ExpressionError';
  readonly expression?: string;
  readonly reason: string;

  constructor(message: string, details: { expression?: string; reason?: string } = {}) {
    super(message);
    this.expression = details.expression;
    this.reason = details.reason ?? message;
  }
}
