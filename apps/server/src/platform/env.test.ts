import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env';

const tempDir = () => mkdtempSync(path.join(os.tmpdir(), 'crewline-env-'));

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({ DATA_DIR: tempDir() });
    expect(config).toMatchObject({
      port: 5000,
      host: '0.0.0.0',
      role: 'all',
      logLevel: 'info',
      databaseUrl: undefined,
      wsMaxPerUser: 20,
    });
    expect(config.rateLimits).toEqual({
      loginMaxFailures: 10,
      loginWindowMinutes: 15,
      signupMaxPerHour: 100,
    });
  });

  it('sizes the database pool to the worker loops, unless told', () => {
    const dataDir = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir }).databasePoolSize).toBe(20);
    expect(loadConfig({ DATA_DIR: dataDir, WORKER_CONCURRENCY: '40' }).databasePoolSize).toBe(44);
    expect(loadConfig({ DATA_DIR: dataDir, ROLE: 'api' }).databasePoolSize).toBe(10);
    expect(loadConfig({ DATA_DIR: dataDir, DATABASE_POOL_SIZE: '8' }).databasePoolSize).toBe(8);
    expect(() => loadConfig({ DATA_DIR: dataDir, DATABASE_POOL_SIZE: '1' })).toThrow(/DATABASE_POOL_SIZE/);
  });

  it('takes the plans’ included use of the server’s model keys from INCLUDED_MODEL_SPEND_USD, where it says', () => {
    const dataDir = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir }).includedModelSpendUsd).toEqual({
      free: 1,
      starter: 10,
      professional: 50,
      enterprise: 200,
    });
    expect(
      loadConfig({ DATA_DIR: dataDir, INCLUDED_MODEL_SPEND_USD: 'free=0, enterprise=1000' })
        .includedModelSpendUsd,
    ).toEqual({ free: 0, starter: 10, professional: 50, enterprise: 1000 });
    expect(() => loadConfig({ DATA_DIR: dataDir, INCLUDED_MODEL_SPEND_USD: 'gold=5' })).toThrow(
      /INCLUDED_MODEL_SPEND_USD takes plan=amount pairs .* not "gold=5"/,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir, INCLUDED_MODEL_SPEND_USD: 'free=-1' })).toThrow(
      /INCLUDED_MODEL_SPEND_USD/,
    );
  });

  it('generates the secrets once into DATA_DIR/secrets.json, readable only by the owner', () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir });
    const file = path.join(dataDir, 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(first.encryptionKey).toHaveLength(32);
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect(second.encryptionKey.equals(first.encryptionKey)).toBe(true);
    expect(readFileSync(file, 'utf8')).toContain(first.jwtSecret);
  });

  it('prefers secrets from the environment and then writes no file', () => {
    const dataDir = tempDir();
    const config = loadConfig({
      DATA_DIR: dataDir,
      JWT_SECRET: 'x'.repeat(40),
      ENCRYPTION_KEY: 'ab'.repeat(32),
    });
    expect(config.jwtSecret).toBe('x'.repeat(40));
    expect(config.encryptionKey.toString('hex')).toBe('ab'.repeat(32));
    expect(() => statSync(path.join(dataDir, 'secrets.json'))).toThrow();
  });

  it('refuses invalid values with a message naming each variable', () => {
    const attempt = () =>
      loadConfig({
        DATA_DIR: tempDir(),
        PORT: '70000',
        ROLE: 'boss',
        DATABASE_URL: 'mysql://x',
        JWT_SECRET: 'short',
      });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      for (const name of ['PORT', 'ROLE', 'DATABASE_URL', 'JWT_SECRET']) expect(message).toContain(name);
    }
  });

  it('reads the rate limits and roles from the environment', () => {
    const config = loadConfig({
      DATA_DIR: tempDir(),
      AUTH_LOGIN_MAX_FAILURES: '3',
      AUTH_SIGNUP_MAX_PER_HOUR: '7',
      ROLE: 'worker',
      TRUST_PROXY: 'true',
      WS_MAX_PER_USER: '5',
    });
    expect(config.wsMaxPerUser).toBe(5);
    expect(config.rateLimits.loginMaxFailures).toBe(3);
    expect(config.rateLimits.signupMaxPerHour).toBe(7);
    expect(config.role).toBe('worker');
    expect(config.trustProxy).toBe(true);
  });

  it("reads the Microsoft 365 settings, with Microsoft's endpoints by default", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).microsoft).toEqual({
      clientId: undefined,
      clientSecret: undefined,
      tenant: 'common',
      authorityHost: 'https://login.microsoftonline.com',
      graphUrl: 'https://graph.microsoft.com/v1.0',
      pollSeconds: 60,
    });
    const config = loadConfig({
      DATA_DIR: tempDir(),
      MICROSOFT_CLIENT_ID: 'app-id',
      MICROSOFT_CLIENT_SECRET: 'app-secret',
      MICROSOFT_TENANT: 'contoso.onmicrosoft.com',
      MICROSOFT_AUTHORITY_HOST: 'http://127.0.0.1:5399/',
      MICROSOFT_GRAPH_URL: 'http://127.0.0.1:5399/v1.0/',
      MICROSOFT_POLL_SECONDS: '30',
    });
    expect(config.microsoft).toEqual({
      clientId: 'app-id',
      clientSecret: 'app-secret',
      tenant: 'contoso.onmicrosoft.com',
      authorityHost: 'http://127.0.0.1:5399',
      graphUrl: 'http://127.0.0.1:5399/v1.0',
      pollSeconds: 30,
    });
    expect(() => loadConfig({ DATA_DIR: tempDir(), MICROSOFT_TENANT: 'a/b' })).toThrow(/MICROSOFT_TENANT/);
    expect(() => loadConfig({ DATA_DIR: tempDir(), MICROSOFT_GRAPH_URL: 'ftp://x' })).toThrow(
      /MICROSOFT_GRAPH_URL/,
    );
  });

  it('reads the egress allow-list, entries with and without a use, and refuses a malformed one', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).egressAllowList).toEqual([]);
    const config = loadConfig({
      DATA_DIR: tempDir(),
      EGRESS_ALLOW_LIST: ' model:127.0.0.1:11434, tool:10.0.0.0/8 ,db.internal:5432,, ',
    });
    expect(config.egressAllowList).toEqual(['model:127.0.0.1:11434', 'tool:10.0.0.0/8', 'db.internal:5432']);
    const attempt = () => loadConfig({ DATA_DIR: tempDir(), EGRESS_ALLOW_LIST: 'models:127.0.0.1:11434' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/EGRESS_ALLOW_LIST: Invalid egress allow-list entry "models:127.0.0.1:11434"/);
  });
});
