import type { Egress } from './egress';

/**
 * A WHATWG `fetch` on top of the egress module, for libraries that take a fetch (the AI SDK): their
 * requests to tenant-chosen base URLs get the same SSRF checks, pinning and limits as our own.
 * Bodies are buffered, which suits JSON APIs; it is not meant for streaming responses.
 */
export function egressFetch(egress: Egress): typeof fetch {
  return async (input, init) => {
    const request = input instanceof Request ? input : undefined;
    const url = request ? request.url : input instanceof URL ? input : String(input);
    const headers: Record<string, string> = {};
    new Headers(init?.headers ?? request?.headers).forEach((value, key) => (headers[key] = value));
    const rawBody = init?.body ?? (request ? await request.arrayBuffer() : undefined);
    const body =
      rawBody === undefined || rawBody === null
        ? undefined
        : typeof rawBody === 'string'
          ? rawBody
          : new Uint8Array(
              await new Response(rawBody as ConstructorParameters<typeof Response>[0]).arrayBuffer(),
            );
    const response = await egress.fetch(url, {
      method: init?.method ?? request?.method ?? 'GET',
      headers,
      body,
      signal: init?.signal ?? request?.signal ?? undefined,
    });
    const text = await response.text();
    const noBody = response.status === 204 || response.status === 304;
    return new Response(noBody ? null : text, { status: response.status, headers: response.headers });
  };
}
