import { z } from 'zod';
import {
  AUDIT_PAGE_DEFAULT,
  AUDIT_PAGE_MAX,
  auditEventSchema,
  auditFiltersObject,
  auditFiltersSchema,
  auditMessages,
  auditWindowIsValid,
} from '../index';
import { defineEndpoint } from './define-endpoint';
import * as paths from './paths';

/** The log's rule over its window: "from" before "to" (the error lands on `to`). */
export const withAuditWindowRule = <S extends z.ZodType<{ from?: string; to?: string }>>(schema: S) =>
  schema.refine(auditWindowIsValid, { message: auditMessages.window, path: ['to'] });

/**
 * The log's query before its window rule. `cursor` is opaque to clients (the `x-next-cursor` header
 * of the page before, as GET /api/executions pages); the server answers 400 to one it did not make.
 */
export const auditListQueryObject = auditFiltersObject.extend({
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).default(AUDIT_PAGE_DEFAULT),
  cursor: z.string().optional(),
});

/** Settings → Audit: owners only (an API key never passes a role above member). */
export const auditEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: paths.audit.list,
    query: withAuditWindowRule(auditListQueryObject),
    response: { 200: z.array(auditEventSchema) },
    summary: 'List audit events',
    tag: 'Audit',
    auth: 'token',
    role: 'owner',
  }),
  // The whole filtered range as text/csv, streamed (no schema: not JSON).
  csv: defineEndpoint({
    method: 'GET',
    path: paths.audit.csv,
    query: auditFiltersSchema,
    summary: 'Export audit events as CSV',
    tag: 'Audit',
    auth: 'token',
    role: 'owner',
  }),
};
