import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { INCLUDED_MODEL_SPEND_USD, isPlanId, type PlanId } from '@crewline/contracts';
import { checkAllowList } from './egress/address-policy';
import type { MetricsSettings } from './metrics/metrics-routes';
import { tracingConfigOf, tracingEnv, type TracingConfig } from './telemetry/tracing-config';

// The one place that reads the environment. Everything else receives a Config.
const intFromEnv = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);
const boolFromEnv = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .optional()
    .transform((v) => (v === undefined ? fallback : ['true', '1', 'yes'].includes(v)));

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: intFromEnv(5000, 0, 65535),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'ENCRYPTION_KEY must be 64 hexadecimal characters (32 bytes)')
    .optional(),
  ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: boolFromEnv(false),
  AUTH_LOGIN_MAX_FAILURES: intFromEnv(10, 1, 100_000),
  AUTH_SIGNUP_MAX_PER_HOUR: intFromEnv(100, 1, 1_000_000),
  SESSION_TTL_DAYS: intFromEnv(30, 1, 365),
  // How long the audit log keeps an event (modules/audit), in days.
  AUDIT_RETENTION_DAYS: intFromEnv(365, 1, 3650),
  WEB_DIST_DIR: z.string().optional(),
  /**
   * Hosts, IPs or CIDRs that tenants' connections may reach although they are private, each for one use
   * (`model:127.0.0.1:11434`) or, without one, for every use (platform/egress/address-policy.ts).
   */
  EGRESS_ALLOW_LIST: z
    .string()
    .optional()
    .transform((list) =>
      (list ?? '')
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .superRefine((entries, ctx) => {
      try {
        checkAllowList(entries);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
      }
    }),
  WORKER_CONCURRENCY: intFromEnv(16, 1, 64),
  /** Connections this process may open to the database; by default from its role (loadConfig). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(1000).optional(),
  RUN_LEASE_SECONDS: intFromEnv(30, 1, 3600),
  RUN_MAX_ATTEMPTS: intFromEnv(3, 1, 20),
  WS_MAX_PER_USER: intFromEnv(20, 1, 10_000),
  /** Where callers reach this server (webhook URLs); http://localhost:PORT when absent. */
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * The server's own mail transport for system messages (verification, password reset, invitations):
   * smtp://user:pass@host:port (STARTTLS when offered) or smtps://… (TLS from the start).
   */
  SMTP_URL: z
    .url({
      protocol: /^smtps?$/,
      error: 'SMTP_URL must be a URL like smtp://user:pass@host:587 or smtps://…',
    })
    .optional(),
  /** The sender of system messages: an address, or a name and an address (`Crewline <no-reply@…>`). */
  MAIL_FROM: z
    .string()
    .trim()
    .regex(/^(?:[^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/, {
      error: 'MAIL_FROM must be an email address, or a name and an address: Crewline <no-reply@example.com>',
    })
    .optional(),
  /**
   * The operator's administrators: accounts with one of these emails (comma-separated, any case) read
   * the Talk to Sales messages (GET /api/system/sales-inquiries).
   */
  OPERATOR_EMAILS: z
    .string()
    .optional()
    .transform((list) =>
      (list ?? '')
        .split(',')
        .map((entry) => entry.trim().toLowerCase())
        .filter(Boolean),
    ),
  /** Where a Talk to Sales message is also mailed, when a mail transport (SMTP_URL) is configured. */
  SALES_EMAIL: z.email({ error: 'SALES_EMAIL must be an email address' }).optional(),
  WEBHOOK_MAX_PER_MINUTE: intFromEnv(120, 1, 1_000_000),
  API_KEY_MAX_PER_MINUTE: intFromEnv(600, 1, 1_000_000),
  OPENAI_API_KEY: z.string().optional(),
  ANTHROPIC_API_KEY: z.string().optional(),
  /**
   * The monthly use of those keys each plan includes, in USD, where it is not the product's default:
   * `free=1,starter=10,professional=50,enterprise=200` (any of the four).
   */
  INCLUDED_MODEL_SPEND_USD: z
    .string()
    .optional()
    .transform((list, ctx) => {
      const amounts: Partial<Record<PlanId | 'free', number>> = {};
      for (const entry of (list ?? '')
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean)) {
        const [plan, amount] = entry.split('=').map((part) => part.trim());
        const usd = Number(amount);
        if (
          !(plan === 'free' || isPlanId(plan)) ||
          amount === undefined ||
          !Number.isFinite(usd) ||
          usd < 0
        ) {
          ctx.addIssue({
            code: 'custom',
            message: `INCLUDED_MODEL_SPEND_USD takes plan=amount pairs (free, starter, professional, enterprise; USD, 0 or more), not "${entry}"`,
          });
          return z.NEVER;
        }
        amounts[plan] = usd;
      }
      return { ...INCLUDED_MODEL_SPEND_USD, ...amounts };
    }),
  /** The Microsoft Entra app registration the Microsoft 365 connection signs in with. */
  MICROSOFT_CLIENT_ID: z.string().trim().min(1).optional(),
  MICROSOFT_CLIENT_SECRET: z.string().min(1).optional(),
  MICROSOFT_TENANT: z
    .string()
    .regex(/^[A-Za-z0-9.-]+$/, 'MICROSOFT_TENANT must be a tenant id, a domain, common or organizations')
    .default('common'),
  MICROSOFT_AUTHORITY_HOST: z.url({ protocol: /^https?$/ }).default('https://login.microsoftonline.com'),
  MICROSOFT_GRAPH_URL: z.url({ protocol: /^https?$/ }).default('https://graph.microsoft.com/v1.0'),
  MICROSOFT_POLL_SECONDS: intFromEnv(60, 10, 86_400),
  /** Stripe billing: on when the secret key is set (docs/decisions/0013-stripe-billing.md). */
  STRIPE_SECRET_KEY: z.string().trim().min(1).optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().trim().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().trim().min(1).optional(),
  /** Where the Stripe SDK sends its requests (tests point it at the fake Stripe server). */
  STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).default('https://api.stripe.com'),
  /** Pinecone's control plane, which Vector Store tools describe their index on (tests use a fake). */
  PINECONE_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.pinecone.io'),
  /**
   * Memory each process may keep knowledge bases' vectors in for search (6 KiB a chunk of 1,536
   * dimensions): a knowledge base larger than it is read again from Postgres for every search.
   */
  KNOWLEDGE_SEARCH_MEMORY_MB: intFromEnv(1024, 16, 1_048_576),
  /**
   * Chunks from which a knowledge base is searched through an approximate nearest-neighbour index
   * (HNSW, kept in DATA_DIR/knowledge-index) instead of the exact scan (modules/knowledge/ann-index.ts).
   */
  KNOWLEDGE_ANN_MIN_CHUNKS: intFromEnv(80_000, 1, 1_000_000_000),
  /** Memory each process may keep approximate indexes in (about 3.6 KiB a chunk of 1,536 dimensions). */
  KNOWLEDGE_ANN_MEMORY_MB: intFromEnv(4096, 16, 1_048_576),
  /** Candidates an approximate search weighs (HNSW's ef): more finds more of the exact top k, slower. */
  KNOWLEDGE_ANN_EF_SEARCH: intFromEnv(1280, 16, 65_536),
  /** Pages a PDF may have; a longer one fails (its text is read page by page, on a worker thread). */
  KNOWLEDGE_PDF_MAX_PAGES: intFromEnv(2000, 1, 1_000_000),
  /** How long reading one document's text may take before its thread is stopped and it fails. */
  KNOWLEDGE_EXTRACT_TIMEOUT_SECONDS: intFromEnv(120, 1, 86_400),
  /** The heap of the thread that reads a document's text; past it the thread stops and the document fails. */
  KNOWLEDGE_EXTRACT_MEMORY_MB: intFromEnv(512, 64, 65_536),
  /**
   * Prometheus metrics (platform/metrics): GET /metrics on a port of its own (no token: keep the port
   * private), or else on the main port behind `Authorization: Bearer METRICS_TOKEN`; neither: not served.
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_TOKEN: z.string().trim().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  // OpenTelemetry traces: the standard OTEL_* variables (platform/telemetry/tracing-config.ts).
  ...tracingEnv,
});

export type Config = {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** The most connections this process opens to the database at once. */
  databasePoolSize: number;
  jwtSecret: string;
  encryptionKey: Buffer;
  role: 'all' | 'api' | 'worker';
  logLevel: string;
  trustProxy: boolean;
  rateLimits: { loginMaxFailures: number; loginWindowMinutes: number; signupMaxPerHour: number };
  sessionTtlDays: number;
  /** Days the audit log keeps an event (AUDIT_RETENTION_DAYS); older ones are pruned hourly. */
  auditRetentionDays: number;
  webDistDir: string;
  providerKeys: { openai: string | undefined; anthropic: string | undefined };
  /** The monthly use of the provider keys each plan includes, in USD (INCLUDED_MODEL_SPEND_USD). */
  includedModelSpendUsd: Record<PlanId | 'free', number>;
  egressAllowList: string[];
  /** OpenTelemetry traces over OTLP/HTTP (platform/telemetry); undefined: off, nothing of the SDK loaded. */
  tracing?: TracingConfig;
  /** Runs one worker process works on at once; how long a run's lease lasts; attempts before giving up. */
  runs: { concurrency: number; leaseMs: number; maxAttempts: number };
  /** Open realtime websockets one user may hold (per API process). */
  wsMaxPerUser: number;
  /** The server's public origin, without a trailing slash (webhook URLs are built on it). */
  publicUrl: string;
  /** The server's mail transport for system messages (platform/mail); off without an SMTP URL. */
  mail: MailSettings;
  /** Talk to Sales (modules/sales): who reads the messages, and where they are mailed. */
  sales: { operatorEmails: string[]; salesEmail: string | undefined };
  /** Webhook calls one workflow accepts per minute (all API processes together). */
  webhookMaxPerMinute: number;
  /** Calls one API key may make per minute, across all API processes. */
  apiKeyMaxPerMinute: number;
  /** Microsoft 365 (OAuth app and endpoints); configured when both the client id and secret are set. */
  microsoft: MicrosoftConfig;
  /** Stripe billing; without a secret key no payment is collected (the 'none' provider). */
  stripe: StripeSettings;
  /** Pinecone's control plane origin, without a trailing slash (index hosts come from its answers). */
  pineconeApiUrl: string;
  /** Bytes of knowledge base vectors a process keeps loaded for search. */
  knowledgeSearchMemoryBytes: number;
  /** Approximate search of large knowledge bases (modules/knowledge/ann-index.ts). */
  knowledgeAnn: { minChunks: number; memoryBytes: number; efSearch: number };
  /** Bounds of reading a document's text (modules/knowledge/extract-in-worker.ts). */
  knowledgeExtraction: KnowledgeExtractionLimits;
  /** Where /metrics is served: its own port, or the main port behind a bearer token (platform/metrics). */
  metrics: MetricsSettings;
};

export type KnowledgeExtractionLimits = {
  /** Pages a PDF may have. */
  pdfMaxPages: number;
  /** How long one document's reading may take. */
  timeoutMs: number;
  /** The reading thread's heap (its old generation), in MiB. */
  memoryMb: number;
};

export type MailSettings = {
  /** smtp:// or smtps:// with the credentials in it; undefined when no transport is configured. */
  smtpUrl: string | undefined;
  /** The From of every system message. */
  from: string;
};

export type StripeSettings = {
  secretKey: string | undefined;
  publishableKey: string | undefined;
  webhookSecret: string | undefined;
  /** Origin of the Stripe API, without a trailing slash. */
  apiBase: string;
};

export type MicrosoftConfig = {
  clientId: string | undefined;
  clientSecret: string | undefined;
  tenant: string;
  /** Origin (and optional path) of the sign-in service, without a trailing slash. */
  authorityHost: string;
  /** Microsoft Graph base URL, without a trailing slash. */
  graphUrl: string;
  /** How often connected inboxes are read (email triggers). */
  pollSeconds: number;
};

export class ConfigError extends Error {}

/** Parses the environment once. Missing secrets are generated into DATA_DIR/secrets.json (0600). */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const secrets = e.JWT_SECRET && e.ENCRYPTION_KEY ? {} : readOrCreateSecrets(dataDir);
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    // Each worker loop holds a connection while its statement runs: fewer connections than loops
    // left loops waiting for one and cost Postgres a quarter more CPU a run (bench, 10 clients). Four
    // more serve the requests, lease renewals and events of a process that also runs the API.
    databasePoolSize: e.DATABASE_POOL_SIZE ?? (e.ROLE === 'api' ? 10 : e.WORKER_CONCURRENCY + 4),
    jwtSecret: e.JWT_SECRET ?? secrets.jwtSecret!,
    encryptionKey: Buffer.from(e.ENCRYPTION_KEY ?? secrets.encryptionKey!, 'hex'),
    role: e.ROLE,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    rateLimits: {
      loginMaxFailures: e.AUTH_LOGIN_MAX_FAILURES,
      loginWindowMinutes: 15,
      signupMaxPerHour: e.AUTH_SIGNUP_MAX_PER_HOUR,
    },
    sessionTtlDays: e.SESSION_TTL_DAYS,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? new URL('../../../web/dist', import.meta.url).pathname),
    providerKeys: { openai: e.OPENAI_API_KEY, anthropic: e.ANTHROPIC_API_KEY },
    includedModelSpendUsd: e.INCLUDED_MODEL_SPEND_USD,
    runs: {
      concurrency: e.WORKER_CONCURRENCY,
      leaseMs: e.RUN_LEASE_SECONDS * 1000,
      maxAttempts: e.RUN_MAX_ATTEMPTS,
    },
    wsMaxPerUser: e.WS_MAX_PER_USER,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM ?? defaultMailFrom(e.PUBLIC_URL) },
    sales: { operatorEmails: e.OPERATOR_EMAILS, salesEmail: e.SALES_EMAIL },
    webhookMaxPerMinute: e.WEBHOOK_MAX_PER_MINUTE,
    apiKeyMaxPerMinute: e.API_KEY_MAX_PER_MINUTE,
    microsoft: {
      clientId: e.MICROSOFT_CLIENT_ID,
      clientSecret: e.MICROSOFT_CLIENT_SECRET,
      tenant: e.MICROSOFT_TENANT,
      authorityHost: e.MICROSOFT_AUTHORITY_HOST.replace(/\/+$/, ''),
      graphUrl: e.MICROSOFT_GRAPH_URL.replace(/\/+$/, ''),
      pollSeconds: e.MICROSOFT_POLL_SECONDS,
    },
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY,
      publishableKey: e.STRIPE_PUBLISHABLE_KEY,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
      apiBase: e.STRIPE_API_BASE.replace(/\/+$/, ''),
    },
    pineconeApiUrl: e.PINECONE_API_URL.replace(/\/+$/, ''),
    knowledgeSearchMemoryBytes: e.KNOWLEDGE_SEARCH_MEMORY_MB * 1024 * 1024,
    knowledgeAnn: {
      minChunks: e.KNOWLEDGE_ANN_MIN_CHUNKS,
      memoryBytes: e.KNOWLEDGE_ANN_MEMORY_MB * 1024 * 1024,
      efSearch: e.KNOWLEDGE_ANN_EF_SEARCH,
    },
    knowledgeExtraction: {
      pdfMaxPages: e.KNOWLEDGE_PDF_MAX_PAGES,
      timeoutMs: e.KNOWLEDGE_EXTRACT_TIMEOUT_SECONDS * 1000,
      memoryMb: e.KNOWLEDGE_EXTRACT_MEMORY_MB,
    },
    metrics: { port: e.METRICS_PORT, token: e.METRICS_TOKEN },
    egressAllowList: e.EGRESS_ALLOW_LIST,
    tracing: tracingConfigOf(e),
  };
}

/** Crewline <no-reply@the public URL's host>, or @localhost without one. */
function defaultMailFrom(publicUrl: string | undefined): string {
  const host = publicUrl ? new URL(publicUrl).hostname : 'localhost';
  return `Crewline <no-reply@${host}>`;
}

type Secrets = { jwtSecret?: string; encryptionKey?: string };

function readOrCreateSecrets(dataDir: string): Secrets {
  const file = path.join(dataDir, 'secrets.json');
  let secrets: Secrets = {};
  if (existsSync(file)) secrets = JSON.parse(readFileSync(file, 'utf8')) as Secrets;
  if (secrets.jwtSecret && secrets.encryptionKey) return secrets;
  secrets = {
    jwtSecret: secrets.jwtSecret ?? randomBytes(48).toString('base64url'),
    encryptionKey: secrets.encryptionKey ?? randomBytes(32).toString('hex'),
  };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  chmodSync(file, 0o600);
  return secrets;
}
