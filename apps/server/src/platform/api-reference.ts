import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { OPENAPI_PATH } from './openapi';
import { lazySchemaController } from './schema-compilers';
import { contentSecurityPolicy } from './security-headers';

/**
 * The interactive API reference at /docs/api: Scalar's page, rendered in the browser from
 * /api/openapi.json. Everything it needs comes from this server (the plugin ships Scalar's bundle
 * and serves it at /docs/api/js/scalar.js); its default fonts, telemetry, agent and MCP features,
 * which would call Scalar's servers, are off. /docs itself, and every other /docs page, stay the web
 * app's (the SPA fallback in spa.ts).
 *
 * Scalar's plugin module holds its 4.4 MB bundle as a string (about 17 MB of heap once loaded), so it is
 * loaded on the first request for the reference, not at start-up: the three routes are this server's,
 * and answer with what the plugin, registered on a Fastify instance of its own, answers.
 */
export const API_REFERENCE_PATH = '/docs/api';

let fingerprint: string | undefined;
/** Scalar's bundle changes only with the package: its fingerprint lets browsers keep it for a year. */
function bundleFingerprint(): string {
  if (!fingerprint) {
    const file = createRequire(import.meta.url).resolve('@scalar/fastify-api-reference');
    fingerprint = createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 16);
  }
  return fingerprint;
}

/** The product's colours (apps/web/src/index.css: zinc neutrals, violet accent) and its system fonts. */
const customCss = `
:root {
  --scalar-font: ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif,
    'Apple Color Emoji', 'Segoe UI Emoji';
  --scalar-font-code: ui-monospace, SFMono-Regular, Menlo, Monaco, Consolas, 'Liberation Mono', monospace;
  --scalar-radius: 0.45rem;
  --scalar-radius-lg: 0.65rem;
  --scalar-radius-xl: 0.85rem;
}
.light-mode {
  --scalar-background-1: #ffffff;
  --scalar-background-2: #f8f8f9;
  --scalar-background-3: #ececef;
  --scalar-background-accent: #7c3aed14;
  --scalar-color-1: #09090b;
  --scalar-color-2: #52525b;
  --scalar-color-3: #71717a;
  --scalar-color-accent: #7c3aed;
  --scalar-border-color: #e4e4e7;
  --scalar-button-1: #7c3aed;
  --scalar-button-1-hover: #6d28d9;
  --scalar-button-1-color: #ffffff;
}
.dark-mode {
  --scalar-background-1: #09090b;
  --scalar-background-2: #141417;
  --scalar-background-3: #27272a;
  --scalar-background-accent: #8b5cf624;
  --scalar-color-1: #fafafa;
  --scalar-color-2: #a1a1aa;
  --scalar-color-3: #8b8b94;
  --scalar-color-accent: #a78bfa;
  --scalar-border-color: #ffffff1a;
  --scalar-button-1: #8b5cf6;
  --scalar-button-1-hover: #7c3aed;
  --scalar-button-1-color: #ffffff;
}
`;

/** The hashes of a page's inline scripts, for its script-src. */
function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(match[1])) continue;
    hashes.push(`'sha256-${createHash('sha256').update(match[2], 'utf8').digest('base64')}'`);
  }
  return hashes;
}

/**
 * The app's policy (security-headers.ts, without Stripe) with the page's own inline scripts allowed
 * by hash: Scalar's page starts the reference with one inline script. Nothing else is loosened.
 */
function apiReferencePolicy(html: string): string {
  const hashes = inlineScriptHashes(html);
  return contentSecurityPolicy()
    .split('; ')
    .map((directive) =>
      directive.startsWith('script-src ') && hashes.length > 0
        ? `${directive} ${hashes.join(' ')}`
        : directive,
    )
    .join('; ');
}

const ROUTE_OPTIONS = { schema: { hide: true }, logLevel: 'warn' } as const;

export async function registerApiReference(app: FastifyInstance) {
  // A scope of its own, so these hooks see only the reference's routes.
  await app.register(async (scope) => {
    scope.addHook('onSend', async (request, reply, payload) => {
      const type = String(reply.getHeader('content-type') ?? '');
      if (type.startsWith('text/html') && typeof payload === 'string') {
        reply.header('content-security-policy', apiReferencePolicy(payload));
        reply.header('cache-control', 'no-cache');
      } else if (type.startsWith('application/javascript')) {
        const query = request.query as Record<string, unknown> | undefined;
        reply.header(
          'cache-control',
          query?.v === bundleFingerprint() ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      }
      return payload;
    });
    // The plugin's routes: /docs/api redirects to /docs/api/, the page, and Scalar's bundle.
    for (const url of [API_REFERENCE_PATH, `${API_REFERENCE_PATH}/`, `${API_REFERENCE_PATH}/js/scalar.js`]) {
      scope.get(url, ROUTE_OPTIONS, answerFromScalar);
    }
  });
}

let scalar: Promise<FastifyInstance> | undefined;

/** Scalar's plugin on an instance of its own, made on first use (and again after a failed attempt). */
function scalarInstance(): Promise<FastifyInstance> {
  if (!scalar) {
    scalar = createScalarInstance();
    scalar.catch(() => (scalar = undefined));
  }
  return scalar;
}

async function createScalarInstance(): Promise<FastifyInstance> {
  const { default: scalarApiReference } = await import('@scalar/fastify-api-reference');
  const instance = Fastify({ logger: false, schemaController: lazySchemaController });
  await instance.register(scalarApiReference, {
    routePrefix: API_REFERENCE_PATH,
    configuration: {
      url: OPENAPI_PATH,
      pageTitle: 'Crewline API reference',
      // The bundle this server serves (relative to /docs/api/), never a CDN's.
      cdn: `js/scalar.js?v=${bundleFingerprint()}`,
      theme: 'default',
      customCss,
      withDefaultFonts: false,
      favicon: '/favicon.svg',
      telemetry: false,
      // The sidebar's "Open API Client" links to Scalar's hosted client; "Test Request" stays, in the page.
      hideClientButton: true,
      showDeveloperTools: 'never',
      agent: { disabled: true },
      mcp: { disabled: true },
      documentDownloadType: 'json',
      persistAuth: false,
      authentication: { preferredSecurityScheme: 'apiKey' },
    },
  });
  await instance.ready();
  return instance;
}

/**
 * What the plugin answers to the GET, with its status, body and headers (the connection's own left to
 * this server, which also answers HEAD from it).
 */
async function answerFromScalar(request: FastifyRequest, reply: FastifyReply) {
  const answer = await (
    await scalarInstance()
  ).inject({
    method: 'GET',
    url: request.url,
    headers: { host: request.headers.host ?? 'localhost' },
  });
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value !== undefined && !CONNECTION_HEADERS.has(name)) reply.header(name, value);
  }
  return reply.code(answer.statusCode).send(answer.body);
}

const CONNECTION_HEADERS = new Set([
  'connection',
  'content-length',
  'date',
  'keep-alive',
  'transfer-encoding',
]);
