import { z } from 'zod';

/**
 * What every node's `data` is on the wire: an object of any keys (the builder's fields, which the
 * server keeps as they come). A kind whose data needs stricter rules declares its own schema.
 */
export const nodeDataSchema = z.record(z.string(), z.unknown());

/**
 * A kind's own fields, typed, beside any other key the builder keeps (`label`, `color`, …). Only
 * the shapes are checked here; what the values mean (a required else path, a range, an expression
 * that compiles) is the engine's validation, which names the node in its messages.
 */
export const kindData = <Shape extends z.ZodRawShape>(shape: Shape) =>
  z.looseObject({ label: z.string().optional(), ...shape });

/** One kind of workflow node: its name on the wire, the name people read, and its `data`. */
export type NodeKindDefinition<Kind extends string = string> = {
  kind: Kind;
  label: string;
  /** One line of help, shown in the builder's palette. */
  help: string;
  /** Whether a node of this kind can be deleted from a workflow (Start and End always stay). */
  removable: boolean;
  /** Whether a run executes it as a recorded step (Start, End and Note are not steps). */
  step: boolean;
  /** Whether only sequential workflows may use it (parallel and hierarchical runs have no paths). */
  sequentialOnly: boolean;
  data: z.ZodType<Record<string, unknown>>;
};
