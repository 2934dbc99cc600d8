import { z } from 'zod';

/**
 * What every node's `data` is on the wire: an object of any keys (the builder's fields, which the
 * server keeps as they come). A kind whose data needs stricter rules declares its own schema.
 */
export const nodeDataSchema = z.record(z.string(), z.unknown());

/** One kind of workflow node: its name on the wire, the name people read, and its `data`. */
export type NodeKindDefinition<Kind extends string = string> = {
  kind: Kind;
  label: string;
  /** Whether a node of this kind can be deleted from a workflow (Start and End always stay). */
  removable: boolean;
  data: z.ZodType<Record<string, unknown>>;
};
