import { createHash, timingSafeEqual } from 'node:crypto';
import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { http } from '../node-http';
import type { MetricsRegistry } from './registry';

/*
 * Where Prometheus scrapes a process (docs/decisions/0052-prometheus-metrics.md):
 * - METRICS_PORT set: GET /metrics on that port, a plain node:http server of its own in the same
 *   process (a worker process has no other port), without a token: the port is the operator's to
 *   keep private. The main port's /metrics then answers 404.
 * - Otherwise GET /metrics on the main port, with `Authorization: Bearer $METRICS_TOKEN`; 404 when no
 *   token is configured, so a default install exposes nothing.
 * Outside /api and the OpenAPI document: it is the operator's, not the product's API.
 */

const METRICS_PATH = '/metrics';

export type MetricsSettings = {
  /** The port of the separate metrics server; undefined: none. */
  port: number | undefined;
  /** The bearer token of /metrics on the main port; undefined: not served there. */
  token: string | undefined;
};

/** Compares in constant time: both sides are hashed first, so their lengths tell nothing either. */
function sameToken(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

const notFound = { message: `Route GET ${METRICS_PATH} not found` };

/**
 * GET /metrics on the main port: served behind the token when one is configured and no metrics port
 * is, else 404 (as for any unknown path outside the web app). `registry` is undefined exactly when
 * it is not served here.
 */
export function metricsRoutes(settings: MetricsSettings, registry: MetricsRegistry | undefined) {
  const token = settings.port === undefined ? settings.token : undefined;
  return async function routes(app: FastifyInstance) {
    app.get(METRICS_PATH, async (request, reply) => {
      if (!token || !registry) return reply.status(404).send(notFound);
      const [scheme, given] = (request.headers.authorization ?? '').split(' ', 2);
      if (scheme?.toLowerCase() !== 'bearer' || !given || !sameToken(given, token))
        return reply
          .status(401)
          .header('www-authenticate', 'Bearer realm="metrics"')
          .send({ message: 'A valid metrics token is required (Authorization: Bearer METRICS_TOKEN)' });
      const text = await registry.text();
      return reply.header('cache-control', 'no-store').type(registry.contentType).send(text);
    });
  };
}

/**
 * The separate metrics server (METRICS_PORT): GET /metrics, and 404 for anything else. Resolves once
 * it listens; `port` is the one it got (0 asks for a free one, as tests do).
 */
export async function startMetricsServer(options: {
  port: number;
  host: string;
  registry: MetricsRegistry;
  onError?: (error: unknown) => void;
}): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = http.createServer((request, response) => {
    const pathname = (request.url ?? '').split('?')[0];
    if (pathname !== METRICS_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
      response.end(JSON.stringify({ message: `Route ${request.method} ${pathname} not found` }));
      return;
    }
    options.registry.text().then(
      (text) => {
        response.writeHead(200, {
          'content-type': options.registry.contentType,
          'cache-control': 'no-store',
        });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        options.onError?.(error);
        response.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        response.end(JSON.stringify({ message: 'The metrics could not be collected' }));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
