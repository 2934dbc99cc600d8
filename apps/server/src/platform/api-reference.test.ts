import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';
import { API_REFERENCE_PATH } from './api-reference';

// A stand-in for the built web app, so /docs and its other pages reach the SPA fallback.
const distDir = mkdtempSync(path.join(os.tmpdir(), 'crewline-dist-'));
mkdirSync(path.join(distDir, 'assets'));
writeFileSync(
  path.join(distDir, 'index.html'),
  '<!doctype html><title>Crewline SPA</title><div id="root"></div>',
);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ config: { webDistDir: distDir } });
});
afterAll(() => t.close());

const directives = (policy: string) =>
  new Map(
    policy.split(';').map((directive) => {
      const [name, ...sources] = directive.trim().split(/\s+/);
      return [name, sources] as const;
    }),
  );

describe('API reference at /docs/api', () => {
  it('sends /docs/api to /docs/api/', async () => {
    const res = await t.request({ method: 'GET', url: API_REFERENCE_PATH });
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe(`${API_REFERENCE_PATH}/`);
  });

  it('answers signed out with a page whose scripts all come from this server', async () => {
    const res = await t.request({ method: 'GET', url: `${API_REFERENCE_PATH}/` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const html = res.body;
    // Scalar, reading the document from this server.
    expect(html).toContain('Scalar.createApiReference');
    expect(html).toContain('"url": "/api/openapi.json"');
    expect(html).toContain('"withDefaultFonts": false');
    const sources = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]*)"/g)].map((m) => m[1]);
    expect(sources).toHaveLength(1);
    for (const src of sources) {
      const url = new URL(src, `http://crewline.test${API_REFERENCE_PATH}/`);
      expect(url.origin).toBe('http://crewline.test');
      expect(url.pathname).toBe(`${API_REFERENCE_PATH}/js/scalar.js`);
    }
    // No stylesheet, font or module from elsewhere either.
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html).not.toMatch(/cdn\.jsdelivr|fonts\.scalar|@import/);
  });

  it('keeps a strict policy: no unsafe-eval, no other origin, its one inline script allowed by hash', async () => {
    const res = await t.request({ method: 'GET', url: `${API_REFERENCE_PATH}/` });
    const policy = String(res.headers['content-security-policy']);
    expect(policy).not.toContain('unsafe-eval');
    const parsed = directives(policy);
    expect(parsed.get('default-src')).toEqual(["'self'"]);
    expect(parsed.get('frame-ancestors')).toEqual(["'none'"]);
    expect(parsed.get('object-src')).toEqual(["'none'"]);
    const scriptSources = parsed.get('script-src') ?? [];
    expect(scriptSources[0]).toBe("'self'");
    // Nothing but this origin and hashes: no host, no scheme, no 'unsafe-inline', no 'strict-dynamic'.
    for (const source of scriptSources.slice(1)) expect(source).toMatch(/^'sha256-[A-Za-z0-9+/]+=*'$/);
    for (const sources of parsed.values()) {
      for (const source of sources) expect(source).not.toMatch(/^(https?:|\*|\/\/)|\.[a-z]+(:|\/|$)/);
    }
    // The hashes are exactly those of the page's inline scripts.
    const inline = [...res.body.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
      (m) => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`,
    );
    expect(inline).toHaveLength(1);
    expect(scriptSources.slice(1)).toEqual(inline);
    // Every other answer keeps the app's policy: no hash is admitted there.
    const spa = await t.request({ method: 'GET', url: '/docs' });
    expect(String(spa.headers['content-security-policy'])).not.toContain('sha256-');
  });

  it('serves Scalar itself from here, cacheable for as long as its fingerprint holds', async () => {
    const page = await t.request({ method: 'GET', url: `${API_REFERENCE_PATH}/` });
    const src = /<script\b[^>]*\bsrc="([^"]*)"/.exec(page.body)![1];
    const res = await t.request({ method: 'GET', url: `${API_REFERENCE_PATH}/${src}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body).toContain('createApiReference');
    const stale = await t.request({ method: 'GET', url: `${API_REFERENCE_PATH}/js/scalar.js?v=old` });
    expect(stale.headers['cache-control']).toBe('no-cache');
  });

  it('leaves /docs and its other pages to the web app', async () => {
    for (const url of ['/docs', '/docs/', '/docs/getting-started', '/docs/api-keys']) {
      const res = await t.request({ method: 'GET', url });
      expect({ url, status: res.statusCode }).toEqual({ url, status: 200 });
      expect(res.body).toContain('Crewline SPA');
    }
  });
});
