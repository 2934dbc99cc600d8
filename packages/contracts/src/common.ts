import { z } from 'zod';

/** Route parameter `:id` — anything that is not a UUID answers 404 like a missing row. */
export const idParamsSchema = z.object({ id: z.string() });
export const orgIdParamsSchema = z.object({ orgId: z.string() });
