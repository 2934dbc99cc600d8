import type { EndpointSpec } from '@crewline/contracts/endpoints';
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyContextConfig,
  FastifyInstance,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

type Part<E, K extends string> = E extends { [key in K]: infer T } ? T : undefined;

/** An endpoint's parts under Fastify's schema names: what its handler's request and reply are typed by. */
type EndpointSchema<E extends EndpointSpec> = {
  params: Part<E, 'params'>;
  querystring: Part<E, 'query'>;
  body: Part<E, 'body'>;
  response: Part<E, 'response'>;
};

type Merged<E extends EndpointSpec, O> = Omit<EndpointSchema<E>, keyof O> & O;

type EndpointHandler<S extends FastifySchema> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  S,
  ZodTypeProvider,
  FastifyBaseLogger
>;

/**
 * What a route may add to its descriptor: hooks, a body limit, an error handler, and schema parts the
 * server alone can check (a cursor it decodes). Method, path, auth config and schema come from the descriptor.
 */
type RouteExtras<O extends Partial<FastifySchema>> = Omit<
  RouteShorthandOptions,
  'schema' | 'config' | 'handler'
> & { schema?: O };

type RouteConfig = Pick<FastifyContextConfig, 'public' | 'role' | 'sessionOnly' | 'membershipOptional'>;

/** The config the auth and role guards read (auth.guard.ts, role.guard.ts), from the descriptor's auth mode. */
export function routeConfig(endpoint: EndpointSpec): RouteConfig {
  return {
    ...(endpoint.auth === 'public' ? { public: true } : {}),
    ...(endpoint.auth === 'session' ? { sessionOnly: true } : {}),
    ...(endpoint.role ? { role: endpoint.role } : {}),
    ...(endpoint.membershipOptional ? { membershipOptional: true } : {}),
  };
}

/** The descriptor's schema parts under Fastify's names, leaving out the ones it has not. */
export function endpointSchema(endpoint: EndpointSpec): FastifySchema {
  const schema: FastifySchema = {};
  if (endpoint.params) schema.params = endpoint.params;
  if (endpoint.query) schema.querystring = endpoint.query;
  if (endpoint.body) schema.body = endpoint.body;
  if (endpoint.response) schema.response = endpoint.response;
  return schema;
}

/**
 * Registers a handler against its endpoint descriptor (packages/contracts/src/endpoints): the method,
 * path, auth config and zod schemas all come from the descriptor, so the route, the OpenAPI document
 * and the web client cannot disagree about them.
 */
export function route<E extends EndpointSpec, O extends Partial<FastifySchema> = Record<never, never>>(
  app: ZodApp,
  endpoint: E,
  handler: EndpointHandler<Merged<E, O>>,
  extras: RouteExtras<O> = {},
): void {
  const { schema: serverSchema, ...options } = extras;
  const status = successStatus(endpoint);
  const handle = handler as RouteHandlerMethod;
  (app as FastifyInstance).route({
    ...options,
    method: endpoint.method,
    url: endpoint.path,
    config: routeConfig(endpoint),
    schema: { ...endpointSchema(endpoint), ...serverSchema },
    handler:
      status === undefined
        ? handle
        : function (request, reply) {
            reply.code(status);
            return handle.call(this, request, reply);
          },
  });
}

/**
 * The success status a handler's result is sent with, when the descriptor names one other than 200
 * (201 Created): the handler returns its result and the descriptor says how it is answered.
 */
export function successStatus(endpoint: EndpointSpec): number | undefined {
  const success = Object.keys(endpoint.response ?? {})
    .map(Number)
    .filter((code) => code >= 200 && code < 300);
  return success.length === 1 && success[0] !== 200 ? success[0] : undefined;
}
