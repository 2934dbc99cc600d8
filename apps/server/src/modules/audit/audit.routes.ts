import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AUDIT_NEXT_CURSOR_HEADER } from '@crewline/contracts';
import { auditListQueryObject, endpoints, withAuditWindowRule } from '@crewline/contracts/endpoints';
import { route } from '../../platform/route';
import { encodeTimeCursor, timeCursorField } from '../../platform/time-cursor';
import type { AuditService } from './audit.service';

const { audit: api } = endpoints;

/** The descriptor's query, with the cursor (as the run list's) decoded. */
const listQuery = withAuditWindowRule(
  auditListQueryObject.extend({
    cursor: timeCursorField,
  }),
);

export function auditRoutes(audit: AuditService): FastifyPluginAsyncZod {
  return async (app) => {
    route(
      app,
      api.list,
      async (request, reply) => {
        const { cursor, ...query } = request.query;
        const page = await audit.list(request.auth.organizationId, { ...query, after: cursor });
        if (page.next) reply.header(AUDIT_NEXT_CURSOR_HEADER, encodeTimeCursor(page.next));
        return page.items;
      },
      { schema: { querystring: listQuery } },
    );
    route(app, api.csv, async (request, reply) => {
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-${day}.csv"`)
        .header('cache-control', 'no-store')
        .send(audit.csv(request.auth.organizationId, request.query));
    });
  };
}
