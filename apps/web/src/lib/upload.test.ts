import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { parseApiError } from './api';
import { uploadJson } from './upload';

/** A stand-in XMLHttpRequest the test answers by hand. */
class FakeXhr {
  static last: FakeXhr;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  withCredentials = false;
  sent: string | null = null;
  status = 0;
  statusText = '';
  responseText = '';
  aborted = false;
  upload: {
    onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null;
  } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: string) {
    this.sent = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  answer(status: number, text = '', statusText = '') {
    this.status = status;
    this.statusText = statusText;
    this.responseText = text;
    this.onload?.();
  }
}

const storage = new Map<string, string>();

beforeEach(() => {
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => storage.set(key, value),
    removeItem: (key: string) => storage.delete(key),
  });
  storage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('uploadJson', () => {
  it('sends JSON with the stored token and cookies, reports progress and resolves to the answer', async () => {
    storage.set('authToken', 'tok-1');
    const progress: [number, number][] = [];
    const done = uploadJson(
      'POST',
      '/api/x',
      { name: 'a.md' },
      { onProgress: (l, t) => progress.push([l, t]) },
    );
    const xhr = FakeXhr.last;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/x');
    expect(xhr.withCredentials).toBe(true);
    expect(xhr.headers).toEqual({ Authorization: 'Bearer tok-1', 'Content-Type': 'application/json' });
    expect(JSON.parse(xhr.sent ?? '')).toEqual({ name: 'a.md' });
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 5, total: 10 });
    xhr.upload.onprogress?.({ lengthComputable: false, loaded: 7, total: 0 });
    expect(progress).toEqual([[5, 10]]);
    xhr.answer(201, '{"id":"d1"}');
    await expect(done).resolves.toEqual({ id: 'd1' });
  });

  it('sends no Authorization header when signed out by cookie only', () => {
    void uploadJson('POST', '/api/x', {});
    expect(FakeXhr.last.headers).toEqual({ 'Content-Type': 'application/json' });
  });

  it('throws the shared error shape, so the server message reaches the user', async () => {
    const done = uploadJson('POST', '/api/x', {});
    FakeXhr.last.answer(400, '{"message":"The document is empty","errors":[]}');
    const error = await done.catch((e: unknown) => e);
    expect(parseApiError(error)).toEqual({ status: 400, message: 'The document is empty', errors: [] });
  });

  it('falls back to the status text, and resolves null for an empty answer', async () => {
    const failed = uploadJson('POST', '/api/x', {});
    FakeXhr.last.answer(502, '', 'Bad Gateway');
    await expect(failed).rejects.toThrow('502: Bad Gateway');
    const empty = uploadJson('PUT', '/api/x', {});
    FakeXhr.last.answer(204);
    await expect(empty).resolves.toBeNull();
  });

  it('rejects on a lost connection and when cancelled', async () => {
    const lost = uploadJson('POST', '/api/x', {});
    FakeXhr.last.onerror?.();
    await expect(lost).rejects.toThrow('Network error');
    expect(parseApiError(await lost.catch((e: unknown) => e)).status).toBeNull();

    const controller = new AbortController();
    const cancelled = uploadJson('POST', '/api/x', {}, { signal: controller.signal });
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' });
    expect(FakeXhr.last.aborted).toBe(true);
  });
});
