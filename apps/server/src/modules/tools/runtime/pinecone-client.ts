import type { Egress, EgressResponse } from '../../../platform/egress';

/**
 * Pinecone's REST API, the part the Vector Store tool uses: describe an index on the control plane
 * (its host, dimension and metric), then query that host. Every request goes through the egress
 * module, the index's host too (it comes from Pinecone's answer, so it is checked like any URL).
 */

/** The API version these requests are written against (Pinecone dates its versions). */
export const PINECONE_API_VERSION = '2025-04';

export type PineconeIndex = {
  name: string;
  dimension: number;
  metric: string;
  /** The data plane's origin, e.g. https://docs-abc123.svc.aped-4627-b74a.pinecone.io. */
  origin: string;
  ready: boolean;
};

export type PineconeMatch = { id: string; score: number; metadata?: Record<string, unknown> };

/** Pinecone refused or could not be reached; the message is Pinecone's own (never the key). */
export class PineconeError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'PineconeError';
  }
}

type Json = Record<string, unknown>;

/** Pinecone's message from either plane's error shape: `{ error: { message } }` or `{ message }`. */
function messageOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as Json;
    const error = parsed.error as Json | undefined;
    const message = (error && typeof error === 'object' ? error.message : undefined) ?? parsed.message;
    if (typeof message === 'string' && message) return message;
  } catch {
    // Not JSON: the text itself, shortened.
  }
  return body.trim().slice(0, 300) || 'no details';
}

async function answer(response: EgressResponse, what: string): Promise<Json> {
  const text = await response.text();
  if (response.status >= 200 && response.status < 300) {
    try {
      return JSON.parse(text) as Json;
    } catch {
      throw new PineconeError(`Pinecone answered ${what} with something that is not JSON`);
    }
  }
  throw new PineconeError(
    `Pinecone refused ${what} (${response.status}): ${messageOf(text)}`,
    response.status,
  );
}

/**
 * Pinecone gives an index's host without a scheme; it is reached as the control plane is (https for
 * the real service, http for the suite's fake). Anything but a host name with an optional port is
 * refused, so the answer can only name a host, never a path or credentials.
 */
function dataPlaneOrigin(host: unknown, controllerUrl: string): string {
  if (typeof host !== 'string' || !/^[A-Za-z0-9.-]+(:\d{1,5})?$/.test(host)) {
    throw new PineconeError('Pinecone described the index without a usable host');
  }
  return `${new URL(controllerUrl).protocol}//${host}`;
}

export function createPineconeClient(deps: { egress: Egress; controllerUrl: string; apiKey: string }) {
  const headers = (json: boolean): Record<string, string> => ({
    'Api-Key': deps.apiKey,
    'X-Pinecone-API-Version': PINECONE_API_VERSION,
    Accept: 'application/json',
    ...(json ? { 'Content-Type': 'application/json' } : {}),
  });
  const controllerUrl = deps.controllerUrl.replace(/\/+$/, '');

  return {
    async describeIndex(name: string, signal?: AbortSignal): Promise<PineconeIndex> {
      const response = await deps.egress.fetch(`${controllerUrl}/indexes/${encodeURIComponent(name)}`, {
        headers: headers(false),
        signal,
      });
      const body = await answer(response, `to describe the index "${name}"`);
      const dimension = body.dimension;
      if (typeof dimension !== 'number') {
        throw new PineconeError(`The index "${name}" has no dimension (a sparse index cannot be searched)`);
      }
      const status = body.status as Json | undefined;
      return {
        name,
        dimension,
        metric: typeof body.metric === 'string' ? body.metric : 'cosine',
        origin: dataPlaneOrigin(body.host, controllerUrl),
        ready: status?.ready !== false,
      };
    },

    async query(
      index: PineconeIndex,
      request: { vector: number[]; topK: number; namespace?: string },
      signal?: AbortSignal,
    ): Promise<PineconeMatch[]> {
      const response = await deps.egress.fetch(`${index.origin}/query`, {
        method: 'POST',
        headers: headers(true),
        body: JSON.stringify({
          vector: request.vector,
          topK: request.topK,
          includeMetadata: true,
          includeValues: false,
          ...(request.namespace ? { namespace: request.namespace } : {}),
        }),
        signal,
      });
      const body = await answer(response, `the search of the index "${index.name}"`);
      const matches = Array.isArray(body.matches) ? (body.matches as Json[]) : [];
      return matches.map((match) => ({
        id: String(match.id ?? ''),
        score: typeof match.score === 'number' ? match.score : 0,
        metadata: match.metadata && typeof match.metadata === 'object' ? (match.metadata as Json) : undefined,
      }));
    },
  };
}
