import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazySchemaController } from './schema-compilers';

describe('lazySchemaController', () => {
  it('still gives a JSON Schema route Fastify’s own validator and serializer, loaded when asked for', async () => {
    const app = Fastify({ logger: false, schemaController: lazySchemaController });
    app.post(
      '/echo',
      {
        schema: {
          body: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
          response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } },
        },
      },
      async (request) => ({ ...(request.body as object), secret: 'not in the response schema' }),
    );
    try {
      const bad = await app.inject({ method: 'POST', url: '/echo', payload: { n: 'x' } });
      expect(bad.statusCode).toBe(400);
      const good = await app.inject({ method: 'POST', url: '/echo', payload: { n: 2 } });
      expect(good.statusCode).toBe(200);
      expect(good.json()).toEqual({ n: 2 });
    } finally {
      await app.close();
    }
  });
});
