import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { nodeKindValues, workflowNodeSchema } from '@crewline/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';
import { API_KEY_SCHEME, OPENAPI_PATH, SESSION_SCHEME } from './openapi';

type Operation = {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string; required?: boolean; schema?: Record<string, unknown> }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<
    string,
    {
      description: string;
      headers?: Record<string, unknown>;
      content?: Record<string, { schema: Record<string, unknown> }>;
    }
  >;
};
type Document = {
  openapi: string;
  info: { title: string; version: string };
  servers: { url: string }[];
  tags: { name: string }[];
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Record<string, unknown>>; securitySchemes: Record<string, unknown> };
};

let t: TestApp;
let document: Document;
beforeAll(async () => {
  t = await createTestApp();
  const res = await t.request({ method: 'GET', url: OPENAPI_PATH });
  expect(res.statusCode).toBe(200);
  document = res.json();
});
afterAll(() => t.close());

/** The /api routes as registered (`:id`), as the document names them (`{id}`). */
const apiRoutes = () =>
  t.app.routeInventory.filter(
    (r) =>
      r.url.startsWith('/api/') && r.method !== 'HEAD' && r.method !== 'OPTIONS' && r.url !== OPENAPI_PATH,
  );
const openApiPath = (url: string) => url.replace(/:([A-Za-z]+)/g, '{$1}');
const operation = (method: string, url: string) => document.paths[openApiPath(url)]?.[method.toLowerCase()];
const operations = () =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
  );

describe('GET /api/openapi.json', () => {
  it('answers signed out with an OpenAPI 3.1 document titled and versioned after the server', async () => {
    const res = await t.request({ method: 'GET', url: OPENAPI_PATH });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toMatchObject({ title: 'Crewline API', version: pkg.version });
    // Examples name the server's public address.
    expect(document.servers).toEqual([expect.objectContaining({ url: t.config.publicUrl })]);
  });

  it('validates against the OpenAPI 3.1 schema, with every $ref resolving', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    const refs = JSON.stringify(document).match(/"\$ref":"[^"]*"/g) ?? [];
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of new Set(refs)) {
      const name = ref.slice('"$ref":"#/components/schemas/'.length, -1);
      expect({ ref, found: name in document.components.schemas }).toEqual({ ref, found: true });
    }
  });

  it('documents every /api route with its method, and nothing else', () => {
    const routes = apiRoutes().map((r) => `${r.method} ${openApiPath(r.url)}`);
    expect(routes.length).toBeGreaterThan(50);
    const documented = operations().map((o) => o.name);
    expect(documented.sort()).toEqual([...new Set(routes)].sort());
  });

  it('marks public routes `security: []` and the others bearer, session-only ones without API keys', () => {
    expect(document.components.securitySchemes).toMatchObject({
      [SESSION_SCHEME]: { type: 'http', scheme: 'bearer' },
      [API_KEY_SCHEME]: { type: 'http', scheme: 'bearer' },
    });
    for (const route of apiRoutes()) {
      const op = operation(route.method, route.url)!;
      const name = `${route.method} ${route.url}`;
      const keyAllowed = !route.public && !route.sessionOnly && !route.membershipOptional && !route.role;
      const expected = route.public
        ? []
        : keyAllowed
          ? [{ [SESSION_SCHEME]: [] }, { [API_KEY_SCHEME]: [] }]
          : [{ [SESSION_SCHEME]: [] }];
      expect({ name, security: op.security }).toEqual({ name, security: expected });
      const sentence = route.public
        ? 'Public: no token needed.'
        : keyAllowed
          ? 'A session token or an organization API key.'
          : 'Not available to API keys: needs a signed-in session.';
      expect({ name, description: op.description }).toEqual({
        name,
        description: expect.stringContaining(sentence),
      });
      if (route.role) expect(op.description).toContain(`Needs the ${route.role} role.`);
      if (!route.public) expect(op.responses['401']).toBeDefined();
    }
    expect(operation('GET', '/api/health')!.security).toEqual([]);
    expect(operation('PUT', '/api/organizations/:orgId')!.description).toContain('Needs the admin role.');
    expect(operation('GET', '/api/auth/me')!.description).toContain('Not available to API keys');
  });

  it('gives every operation one module tag, a summary, a success answer and `{ message, errors? }` errors', () => {
    const tagNames = document.tags.map((tag) => tag.name);
    expect(document.components.schemas.ApiError).toMatchObject({
      type: 'object',
      properties: { message: { type: 'string' }, errors: { type: 'array' } },
      required: ['message'],
    });
    for (const { name, op } of operations()) {
      expect({ name, tags: op.tags?.length, known: tagNames.includes(op.tags?.[0] ?? '') }).toEqual({
        name,
        tags: 1,
        known: true,
      });
      expect({ name, summary: typeof op.summary }).toEqual({ name, summary: 'string' });
      const statuses = Object.keys(op.responses);
      expect({ name, success: statuses.some((s) => s.startsWith('2')) }).toEqual({ name, success: true });
      for (const status of statuses.filter((s) => s.startsWith('4'))) {
        const schema = op.responses[status].content?.['application/json']?.schema;
        const expected =
          status === '402' ? '#/components/schemas/PlanLimitError' : '#/components/schemas/ApiError';
        expect({ name, status, schema }).toEqual({ name, status, schema: { $ref: expected } });
      }
    }
    // The modules land under their own tags.
    expect(operation('GET', '/api/agents')!.tags).toEqual(['Agents']);
    expect(operation('POST', '/api/workflows/:id/execute')!.tags).toEqual(['Executions']);
    expect(operation('GET', '/api/organizations/:orgId/api-keys')!.tags).toEqual(['API keys']);
    // System is also where a route without an endpoint descriptor falls (platform/openapi.ts).
    expect(
      operations()
        .filter((o) => o.op.tags?.[0] === 'System')
        .map((o) => o.name)
        .sort(),
    ).toEqual([
      'GET /api/health',
      'GET /api/system/sales-inquiries',
      'GET /api/system/status',
      'POST /api/sales-inquiries',
    ]);
  });

  it('takes request bodies, parameters and answers from the route schemas', () => {
    const create = operation('POST', '/api/agents')!;
    const body = create.requestBody!.content['application/json'].schema as {
      required: string[];
      properties: Record<string, unknown>;
    };
    expect(body.required).toEqual(expect.arrayContaining(['name', 'role', 'goal']));
    expect(body.properties.temperature).toMatchObject({ type: 'integer', minimum: 0, maximum: 100 });
    // zod's ±(2^53 − 1) for `.int()` is left out (the reference would show it as the example).
    expect(JSON.stringify(document)).not.toContain(String(Number.MAX_SAFE_INTEGER));
    expect(create.responses['201'].content!['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Agent',
    });
    expect(document.components.schemas.Agent).toMatchObject({ type: 'object' });
    expect(create.responses['400']).toBeDefined();
    expect(create.responses['402']).toBeDefined();

    const signup = operation('POST', '/api/auth/signup')!;
    expect(signup.security).toEqual([]);
    expect(signup.requestBody!.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['email', 'password']),
    );
    expect(Object.keys(signup.responses)).toEqual(expect.arrayContaining(['201', '400', '409', '429']));

    const get = operation('GET', '/api/agents/:id')!;
    expect(get.parameters).toEqual([expect.objectContaining({ in: 'path', name: 'id', required: true })]);
    expect(Object.keys(get.responses)).toEqual(expect.arrayContaining(['200', '401', '404']));

    const list = operation('GET', '/api/executions')!;
    expect(list.parameters!.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(
      expect.arrayContaining(['limit', 'cursor', 'workflowId', 'status']),
    );

    expect(list.responses['200']).toMatchObject({ headers: { 'x-next-cursor': expect.any(Object) } });

    expect(Object.keys(operation('DELETE', '/api/agents/:id')!.responses)).toContain('204');
    expect(operation('DELETE', '/api/agents/:id')!.responses['204'].content).toBeUndefined();
  });

  it('describes every node kind with its data and an example node that the API accepts', () => {
    type Variant = {
      title: string;
      properties: { type: { const: string }; data: { description?: string; examples?: unknown[] } };
      examples: { type: string }[];
    };
    const body = operation('POST', '/api/workflows')!.requestBody!.content['application/json'].schema as {
      properties: { nodes: { items: { $ref: string } } };
    };
    // The request's nodes and the answers' nodes both name their kinds.
    const inputRef = body.properties.nodes.items.$ref;
    expect(inputRef).toBe('#/components/schemas/WorkflowNodeInput');
    for (const name of ['WorkflowNodeInput', 'WorkflowNode']) {
      const node = document.components.schemas[name] as { oneOf: Variant[]; examples: unknown[] };
      const kinds = node.oneOf.map((variant) => variant.properties.type.const);
      expect({ name, kinds }).toEqual({ name, kinds: nodeKindValues });
      for (const variant of node.oneOf) {
        const kind = variant.properties.type.const;
        expect({ kind, described: typeof variant.properties.data.description }).toEqual({
          kind,
          described: 'string',
        });
        expect({ kind, examples: variant.properties.data.examples?.length }).toEqual({ kind, examples: 1 });
        expect(variant.examples).toEqual([expect.objectContaining({ type: kind })]);
        // An example the API would refuse is worse than none.
        expect({ kind, issues: workflowNodeSchema.safeParse(variant.examples[0]).error?.issues }).toEqual({
          kind,
          issues: undefined,
        });
      }
      expect(node.examples).toHaveLength(nodeKindValues.length);
    }
    const condition = (document.components.schemas.WorkflowNode as { oneOf: Variant[] }).oneOf.find(
      (v) => v.properties.type.const === 'condition',
    )!;
    expect(JSON.stringify(condition.properties.data)).toContain(
      'nodes.classify.data.category == \\"billing\\"',
    );

    const edge = document.components.schemas.WorkflowEdge as {
      properties: { sourceHandle: { description: string } };
    };
    expect(edge.properties.sourceHandle.description).toMatch(/branch.*`else`/);

    // A run's output map: each entry's kind, data (with each kind's shape) and status.
    const execution = document.components.schemas.Execution as {
      properties: { output: { additionalProperties: { $ref: string } } };
    };
    expect(execution.properties.output.additionalProperties.$ref).toBe('#/components/schemas/NodeOutput');
    const output = document.components.schemas.NodeOutput as {
      properties: Record<string, { description?: string; enum?: string[]; anyOf?: { title: string }[] }>;
    };
    expect(output.properties.kind.enum).toEqual(nodeKindValues);
    expect(output.properties.status).toMatchObject({ enum: ['completed', 'failed', 'skipped'] });
    expect(output.properties.status.description).toContain('skipped');
    expect(output.properties.data.description).toContain('`{ branch }`');
    expect(output.properties.data.anyOf!.map((shape) => shape.title)).toEqual([
      'Condition',
      'Map or loop',
      'Merge (all)',
      'Agent, tool or transform',
    ]);
  });

  it('describes the routes that read their own bodies', () => {
    const webhook = operation('POST', '/api/webhooks/:workflowId')!;
    expect(webhook.security).toEqual([]);
    expect(Object.keys(webhook.requestBody!.content)).toEqual(
      expect.arrayContaining(['application/json', 'application/x-www-form-urlencoded', 'text/plain']),
    );
    expect(webhook.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ in: 'header', name: 'X-Webhook-Secret' }),
        expect.objectContaining({ in: 'query', name: 'secret' }),
      ]),
    );
    expect(Object.keys(webhook.responses)).toEqual(expect.arrayContaining(['200', '202', '401', '409']));

    const stripe = operation('POST', '/api/stripe/webhook')!;
    expect(stripe.security).toEqual([]);
    expect(stripe.requestBody!.content['application/json']).toBeDefined();
    expect(stripe.parameters).toEqual([expect.objectContaining({ in: 'header', name: 'Stripe-Signature' })]);

    expect(operation('GET', '/api/health')!.responses['503']).toBeDefined();
    expect(Object.keys(operation('GET', '/api/auth/microsoft/callback')!.responses['200'].content!)).toEqual([
      'text/html',
    ]);
  });
});
