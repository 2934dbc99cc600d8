import { defineEndpoint } from '@crewline/contracts/endpoints';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpointSchema, route, routeConfig, successStatus } from './route';

const echo = defineEndpoint({
  method: 'POST',
  path: '/api/things/:id',
  params: z.object({ id: z.string() }),
  query: z.object({ loud: z.enum(['yes', 'no']).optional() }),
  body: z.object({ name: z.string().min(1) }),
  response: { 201: z.object({ id: z.string(), name: z.string() }) },
  summary: 'Make a thing',
  tag: 'System',
  auth: 'token',
});

function makeApp() {
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const configs: Record<string, unknown> = {};
  app.addHook('onRoute', (r) => {
    configs[`${String(r.method)} ${r.url}`] = r.config;
  });
  return { app, configs };
}

let close: (() => Promise<unknown>) | undefined;
afterEach(async () => close?.());

describe('routeConfig', () => {
  it('turns each auth mode into the config the guards read', () => {
    const base = { method: 'GET', path: '/api/x', summary: 'x', tag: 'System' } as const;
    expect(routeConfig({ ...base, auth: 'public' })).toEqual({ public: true });
    expect(routeConfig({ ...base, auth: 'token' })).toEqual({});
    expect(routeConfig({ ...base, auth: 'session' })).toEqual({ sessionOnly: true });
    expect(routeConfig({ ...base, auth: 'session', role: 'admin' })).toEqual({
      sessionOnly: true,
      role: 'admin',
    });
    expect(routeConfig({ ...base, auth: 'token', role: 'owner', membershipOptional: true })).toEqual({
      role: 'owner',
      membershipOptional: true,
    });
  });
});

describe('endpointSchema', () => {
  it("names the descriptor's parts as Fastify does, leaving out the missing ones", () => {
    expect(endpointSchema(echo)).toEqual({
      params: echo.params,
      querystring: echo.query,
      body: echo.body,
      response: echo.response,
    });
    expect(
      endpointSchema({ method: 'GET', path: '/api/x', summary: 'x', tag: 'System', auth: 'public' }),
    ).toEqual({});
  });
});

describe('route', () => {
  it('answers a returned result with the descriptor’s one success status (201 Created), 200 otherwise', async () => {
    const { app } = makeApp();
    close = () => app.close();
    route(app, echo, async (request) => ({ id: request.params.id, name: request.body.name }));
    await app.ready();
    const created = await app.inject({ method: 'POST', url: '/api/things/7', payload: { name: 'seven' } });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ id: '7', name: 'seven' });
    const base = { method: 'GET', path: '/api/x', summary: 'x', tag: 'System', auth: 'token' } as const;
    expect(successStatus(echo)).toBe(201);
    expect(successStatus({ ...base, response: { 200: z.object({}) } })).toBeUndefined();
    expect(successStatus({ ...base, response: { 200: z.object({}), 201: z.object({}) } })).toBeUndefined();
    expect(successStatus(base)).toBeUndefined();
  });

  it('registers the handler at the descriptor’s method and path, validating with its schemas', async () => {
    const { app, configs } = makeApp();
    close = () => app.close();
    route(app, echo, async (request, reply) =>
      reply.status(201).send({ id: request.params.id, name: request.body.name }),
    );
    await app.ready();
    expect(configs['POST /api/things/:id']).toEqual({});

    const ok = await app.inject({ method: 'POST', url: '/api/things/7', payload: { name: 'seven' } });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toEqual({ id: '7', name: 'seven' });

    const bad = await app.inject({ method: 'POST', url: '/api/things/7', payload: { name: '' } });
    expect(bad.statusCode).toBe(400);
    const badQuery = await app.inject({
      method: 'POST',
      url: '/api/things/7?loud=maybe',
      payload: { name: 'x' },
    });
    expect(badQuery.statusCode).toBe(400);
    expect((await app.inject({ method: 'GET', url: '/api/things/7' })).statusCode).toBe(404);
  });

  it('keeps per-route extras: hooks, a body limit, and schema parts only the server checks', async () => {
    const { app } = makeApp();
    close = () => app.close();
    const seen: string[] = [];
    route(
      app,
      echo,
      async (request, reply) => reply.status(201).send({ id: request.params.id, name: request.body.name }),
      {
        bodyLimit: 64,
        onRequest: async (request) => {
          seen.push(request.url);
        },
        // The server's own params: only numeric ids.
        schema: { params: z.object({ id: z.string().regex(/^\d+$/) }) },
      },
    );
    await app.ready();
    const ok = await app.inject({ method: 'POST', url: '/api/things/7', payload: { name: 'seven' } });
    expect(ok.statusCode).toBe(201);
    expect(
      (await app.inject({ method: 'POST', url: '/api/things/x', payload: { name: 'x' } })).statusCode,
    ).toBe(400);
    const large = await app.inject({
      method: 'POST',
      url: '/api/things/7',
      payload: { name: 'x'.repeat(100) },
    });
    expect(large.statusCode).toBe(413);
    expect(seen).toEqual(['/api/things/7', '/api/things/x', '/api/things/7']);
  });

  it('gives a public or session-only descriptor its config', async () => {
    const { app, configs } = makeApp();
    close = () => app.close();
    const open = defineEndpoint({
      method: 'GET',
      path: '/api/open',
      summary: 'Open',
      tag: 'System',
      auth: 'public',
    });
    const mine = defineEndpoint({
      method: 'PUT',
      path: '/api/mine',
      summary: 'Mine',
      tag: 'Profile',
      auth: 'session',
      role: 'admin',
    });
    route(app, open, async () => ({ ok: true }));
    route(app, mine, async () => ({ ok: true }));
    await app.ready();
    expect(configs['GET /api/open']).toEqual({ public: true });
    expect(configs['PUT /api/mine']).toEqual({ sessionOnly: true, role: 'admin' });
  });
});
