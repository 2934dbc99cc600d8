import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './testing/test-app';
import { loggerOptions } from './platform/logger';

const logLines: string[] = [];
const distDir = mkdtempSync(path.join(os.tmpdir(), 'crewline-dist-'));
mkdirSync(path.join(distDir, 'assets'));
writeFileSync(
  path.join(distDir, 'index.html'),
  '<!doctype html><title>Crewline</title><div id="root"></div>',
);
writeFileSync(path.join(distDir, 'assets', 'app-123.js'), 'console.log(1)');
writeFileSync(path.join(distDir, '.crewline-build.json'), '{"inputs":"stamp"}');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    config: { webDistDir: distDir },
    logger: {
      ...loggerOptions('trace'),
      stream: new Writable({ write: (chunk, _enc, done) => (logLines.push(String(chunk)), done()) }),
    },
  });
});
afterAll(() => t.close());

describe('platform', () => {
  it('answers the health check when the database answers', async () => {
    const res = await t.request({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await t.request({ method: 'GET', url: '/api/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toMatch(/not found/);
  });

  it('serves the SPA for client routes and real files for assets', async () => {
    const page = await t.request({ method: 'GET', url: '/workflows/edit/123?tab=x' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('<div id="root">');
    const asset = await t.request({ method: 'GET', url: '/assets/app-123.js' });
    expect(asset.body).toBe('console.log(1)');
    expect(asset.headers['cache-control']).toContain('immutable');
    const head = await t.request({ method: 'HEAD', url: '/assets/app-123.js' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe('14');
  });

  it('answers the SPA, never a file outside it, for the root, folders, dotfiles and escapes', async () => {
    for (const url of ['/', '/assets', '/assets/gone-1.js', '/.crewline-build.json']) {
      const res = await t.request({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<div id="root">');
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    const folder = await t.request({ method: 'GET', url: '/assets/' });
    expect(folder.body).not.toContain('app-123.js'); // no listing
    for (const url of [
      '/assets/..%2f..%2f..%2fetc%2fpasswd',
      '/..%2f..%2fetc/passwd',
      '/%2e%2e/%2e%2e/etc/passwd',
    ]) {
      const res = await t.request({ method: 'GET', url });
      expect(res.body, url).not.toContain('root:');
    }
  });

  it('sends security headers with a strict Content-Security-Policy', async () => {
    const res = await t.request({ method: 'GET', url: '/' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('answers malformed JSON with 400 and a message', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Malformed JSON in request body' });
  });

  it('answers a body over 1 MiB with 413', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toMatch(/1 MiB/);
  });

  it('answers ids that are not UUIDs with 404, never 500', async () => {
    const { token } = await t.signup();
    for (const id of ['abc', '1', "1' or '1'='1", '00000000-0000-0000-0000-00000000000g']) {
      const res = await t.request({
        method: 'GET',
        url: `/api/organizations/${encodeURIComponent(id)}/stats`,
        token,
      });
      expect(res.statusCode).toBe(404);
    }
  });

  it('never writes passwords or tokens to the log', async () => {
    const password = 'very-secret-password-42';
    const account = await t.signup({ password, confirmPassword: password });
    await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.user.email, password },
    });
    await t.request({ method: 'GET', url: '/api/auth/me', token: account.token });
    await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.user.email, password: `${password}-wrong` },
    });
    const log = logLines.join('');
    expect(log).toContain('/api/auth/me'); // the requests were logged…
    expect(log).not.toContain(password); // …without their secrets
    expect(log).not.toContain(account.token);
  });
});
