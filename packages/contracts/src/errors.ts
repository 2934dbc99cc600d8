import { z } from 'zod';

/** The JSON body of every non-2xx API answer (docs/architecture.md, Request path). */
export const apiErrorSchema = z.object({
  message: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
