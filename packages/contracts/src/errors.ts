import { z } from 'zod';

/** The JSON body of every non-2xx API answer (DESIGN.md §7). */
export const apiErrorSchema = z.object({
  message: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
