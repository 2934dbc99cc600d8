import type { Egress } from './egress';

/**
 * A WHATWG `fetch` on top of the egress module, for libraries that take a fetch (the AI SDK): their
 * requests to tenant-chosen base URLs get the same SSRF checks, pinning and limits as our own.
 * Response bodies are handed over as they arrive, so a model's streamed answer is read piece by piece.
 */
export function egressFetch(
  egress: Egress,
  /** Limits of every request of this fetch instead of the egress module's defaults (an MCP connection's timeout). */
  limits: { timeoutMs?: number; maxResponseBytes?: number } = {},
): typeof fetch {
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
      stream: true,
      ...limits,
    });
    const noBody = response.status === 204 || response.status === 304;
    // Read to its end all the same, which gives the connection back to its pool.
    if (noBody) await response.text();
    return new Response(noBody ? null : response.body, {
      status: response.status,
      headers: response.headers,
    });
  };
}
