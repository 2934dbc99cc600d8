import type { FastifyInstance } from 'fastify';

/** A rolling mean of recent API response times, for the dashboard's System Status card. */
export function createRequestMetrics(size = 200) {
  const samples: number[] = [];
  let next = 0;
  return {
    record(ms: number) {
      if (samples.length < size) samples.push(ms);
      else samples[next] = ms;
      next = (next + 1) % size;
    },
    meanMs(): number {
      if (samples.length === 0) return 0;
      return Math.round((samples.reduce((a, b) => a + b, 0) / samples.length) * 10) / 10;
    },
  };
}
export type RequestMetrics = ReturnType<typeof createRequestMetrics>;

export function registerRequestMetrics(app: FastifyInstance, metrics: RequestMetrics) {
  app.addHook('onResponse', async (request, reply) => {
    if (request.url.startsWith('/api/')) metrics.record(reply.elapsedTime);
  });
}
