import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { INCLUDED_MODEL_SPEND_USD } from '@crewline/contracts';
import type { Config } from '../platform/env';

/** A complete Config for in-process tests: fixed secrets, a throwaway data folder, no web build. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'crewline-test-data-'));
  return {
    nodeEnv: 'test',
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: undefined,
    databasePoolSize: 10,
    jwtSecret: 'test-jwt-secret-that-is-long-enough-0123456789',
    encryptionKey: Buffer.alloc(32, 7),
    role: 'all',
    logLevel: 'silent',
    trustProxy: false,
    rateLimits: { loginMaxFailures: 10, loginWindowMinutes: 15, signupMaxPerHour: 1000 },
    sessionTtlDays: 30,
    auditRetentionDays: 365,
    webDistDir: path.join(dataDir, 'no-web-build'),
    providerKeys: { openai: undefined, anthropic: undefined },
    includedModelSpendUsd: INCLUDED_MODEL_SPEND_USD,
    // The fake model server and test tools listen on loopback.
    egressAllowList: ['127.0.0.1'],
    runs: { concurrency: 4, leaseMs: 30_000, maxAttempts: 3 },
    wsMaxPerUser: 20,
    publicUrl: 'http://localhost:5000',
    // No mail transport unless a test points it at an SMTP server of its own (testing/fake-smtp-server.ts).
    mail: { smtpUrl: undefined, from: 'Crewline <no-reply@localhost>' },
    sales: { operatorEmails: [], salesEmail: undefined },
    webhookMaxPerMinute: 120,
    apiKeyMaxPerMinute: 600,
    // Not configured unless a test points it at the fake Microsoft server (fake-microsoft-server.ts).
    microsoft: {
      clientId: undefined,
      clientSecret: undefined,
      tenant: 'common',
      authorityHost: 'https://login.microsoftonline.com',
      graphUrl: 'https://graph.microsoft.com/v1.0',
      pollSeconds: 60,
    },
    // Not configured unless a test points it at the fake Stripe server (fake-stripe-server.ts).
    stripe: {
      secretKey: undefined,
      publishableKey: undefined,
      webhookSecret: undefined,
      apiBase: 'https://api.stripe.com',
    },
    // Tests point it at the fake Pinecone server (fake-pinecone-server.ts).
    pineconeApiUrl: 'https://api.pinecone.io',
    knowledgeSearchMemoryBytes: 256 * 1024 * 1024,
    knowledgeAnn: { minChunks: 80_000, memoryBytes: 1024 * 1024 * 1024, efSearch: 1024 },
    knowledgeExtraction: { pdfMaxPages: 2000, timeoutMs: 120_000, memoryMb: 512 },
    // No /metrics unless a test configures it (platform/metrics).
    metrics: { port: undefined, token: undefined },
    ...overrides,
  };
}
