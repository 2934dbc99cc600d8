// The default query function of the app's query client (lib/query-client.ts). A key is a request
// path (lib/queries/keys.ts): its string and number parts are joined with '/', and an object part
// becomes the query string, so a filtered list needs no query function of its own.
import type { QueryFunction, QueryKey } from '@tanstack/react-query';

import { apiRequest, queryKeyToPath } from '../api';

/** The URL a key stands for: ['/api/executions', { workflowId: 'w1', limit: 1 }] → /api/executions?workflowId=w1&limit=1. */
export function requestUrlOf(queryKey: QueryKey): string {
  const search = new URLSearchParams();
  for (const part of queryKey) {
    if (part === null || typeof part !== 'object') continue;
    for (const [name, value] of Object.entries(part)) {
      if (value !== undefined && value !== null) search.set(name, String(value));
    }
  }
  const query = search.toString();
  return query ? `${queryKeyToPath(queryKey)}?${query}` : queryKeyToPath(queryKey);
}

/** GET on the key's URL with the shared request rules (lib/api.ts); a 401 throws. */
export const getByQueryKey: QueryFunction = ({ queryKey, signal }) =>
  apiRequest('GET', requestUrlOf(queryKey), undefined, { signal });
