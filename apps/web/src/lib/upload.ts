// A JSON request whose upload progress the caller follows (a knowledge document's text can be 20 MiB):
// XMLHttpRequest, because fetch reports no upload progress. The same rules as lib/api.ts: the stored
// token as `Authorization: Bearer`, cookies included, a non-OK answer throws
// `Error("<status>: <body text or status text>")` (so parseApiError reads it), 204 or an empty body → null.
import { getAuthToken } from './auth-token';

export interface UploadOptions {
  /** Bytes of the request body sent so far, of `total`. */
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
}

/** Sends `body` as JSON and resolves to the parsed answer. A lost connection throws `Error('Network error')`. */
export function uploadJson<T = unknown>(
  method: 'POST' | 'PUT',
  path: string,
  body: unknown,
  options: UploadOptions = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const { signal, onProgress } = options;
    if (signal?.aborted) {
      reject(new DOMException('The upload was cancelled', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open(method, path);
    xhr.withCredentials = true;
    const token = getAuthToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Content-Type', 'application/json');

    if (onProgress) {
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress(event.loaded, event.total);
      };
    }
    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal?.removeEventListener('abort', onAbort);

    xhr.onload = () => {
      settle();
      const text = xhr.responseText ?? '';
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(new Error(`${xhr.status}: ${text || xhr.statusText}`));
        return;
      }
      if (xhr.status === 204 || !text) {
        resolve(null as T);
        return;
      }
      try {
        resolve(JSON.parse(text) as T);
      } catch (error) {
        reject(error instanceof Error ? error : new Error('The answer was not JSON'));
      }
    };
    xhr.onerror = () => {
      settle();
      reject(new Error('Network error'));
    };
    xhr.onabort = () => {
      settle();
      reject(new DOMException('The upload was cancelled', 'AbortError'));
    };
    xhr.send(JSON.stringify(body));
  });
}
