import { Transform } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { route } from '../../platform/route';
import { requestActor } from '../../platform/request-actor';
import type { WebhookService } from './webhook.service';

const { webhooks: api } = endpoints;

/** A form body as an object; a repeated field becomes a list. No prototype, so `__proto__` is just a name. */
export function formToObject(text: string): Record<string, unknown> {
  const object = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of new URLSearchParams(text)) {
    const previous = object[key];
    object[key] =
      previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return object;
}

/** The run input a body becomes: a JSON object as it is, anything else (other JSON, form, text) as `payload`. */
export function webhookInput(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (body !== null && typeof body === 'object' && !Array.isArray(body))
    return body as Record<string, unknown>;
  return { payload: body };
}

/** The bytes of a signed call's body as they arrived (a signature covers them, not the parsed value). */
const rawBodies = new WeakMap<FastifyRequest, Buffer[]>();

const headerValue = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);

/**
 * The public route, in a scope of its own: only here do form and text bodies parse (any other route
 * still answers 415 to them). The app's JSON parser, input guard and 1 MiB limit apply as everywhere;
 * a call with a signature header also keeps its body's bytes, copied on their way to the parser.
 */
const publicWebhookRoute =
  (webhooks: WebhookService): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('preParsing', async (request, _reply, payload) => {
      if (!request.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()]) return payload;
      const chunks: Buffer[] = [];
      rawBodies.set(request, chunks);
      const copy = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          chunks.push(chunk);
          done(null, chunk);
        },
      });
      payload.on('error', (error) => copy.destroy(error));
      return Object.assign(payload.pipe(copy), {
        receivedEncodedLength: (payload as { receivedEncodedLength?: number }).receivedEncodedLength,
      });
    });
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => done(null, { payload: formToObject(body as string) }),
    );
    // text/plain, XML, anything else: the text itself.
    app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

    route(app, api.trigger, async (request, reply) => {
      const header = request.headers['x-webhook-secret'];
      const wait = request.query.wait === 'true' || request.query.wait === '1';
      const { execution, finished } = await webhooks.receive({
        workflowId: request.params.workflowId,
        secret: typeof header === 'string' && header ? header : request.query.secret,
        signed: {
          timestamp: headerValue(request.headers[WEBHOOK_TIMESTAMP_HEADER.toLowerCase()]),
          signature: headerValue(request.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()]),
          body: Buffer.concat(rawBodies.get(request) ?? []),
        },
        input: webhookInput(request.body),
        wait,
      });
      if (!finished) return reply.status(202).send({ executionId: execution.id, status: execution.status });
      return reply.status(200).send({
        executionId: execution.id,
        status: execution.status,
        output: execution.output,
        ...(execution.error ? { error: execution.error } : {}),
      });
    });
  };

/** The secret's reveal and rotation (members of the workflow's organization), and the public trigger route. */
export function webhookRoutes(webhooks: WebhookService): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, api.secret, async (request) =>
      webhooks.reveal(request.auth.organizationId, request.params.id, requestActor(request)),
    );
    route(app, api.rotateSecret, async (request) =>
      webhooks.rotate(request.auth.organizationId, request.params.id, requestActor(request)),
    );
    await app.register(publicWebhookRoute(webhooks));
  };
}
