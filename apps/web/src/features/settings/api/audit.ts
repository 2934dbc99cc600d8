// Settings → Audit: GET /api/audit a page at a time (its X-Next-Cursor header is where the next page
// starts, as the run list pages) and GET /api/audit.csv downloaded with the same filters.
import { AUDIT_NEXT_CURSOR_HEADER, type AuditEvent } from '@crewline/contracts';
import * as paths from '@crewline/contracts/paths';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';

import { apiGetWithHeaders, getAuthToken, throwIfResNotOk } from '@/lib/api';
import { endpointUrl } from '@/lib/api-call';
import { queryKeys, type AuditListFilter } from '@/lib/queries/keys';

/** Events a page holds. */
const AUDIT_PAGE_SIZE = 50;

export type AuditPage = { items: AuditEvent[]; next: string | null };

/** The events `filter` selects, newest first, AUDIT_PAGE_SIZE at a time (owners only). */
export function useAuditPages(filter: AuditListFilter, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: queryKeys.audit.pages(filter),
    queryFn: async ({ pageParam, signal }): Promise<AuditPage> => {
      const query = { ...filter, limit: AUDIT_PAGE_SIZE, cursor: pageParam ?? undefined };
      const { data, headers } = await apiGetWithHeaders<AuditEvent[]>(
        endpointUrl(paths.audit.list, {}, query),
        {
          signal,
        },
      );
      return { items: data ?? [], next: headers.get(AUDIT_NEXT_CURSOR_HEADER) || null };
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last: AuditPage) => last.next,
    enabled,
    // The previous filter's events stay while the next filter's first page loads.
    placeholderData: keepPreviousData,
  });
}

/**
 * Downloads the whole filtered range as CSV. The API takes the session's bearer token, which a plain
 * link cannot send: the file is fetched, then saved from a blob under the server's file name.
 */
export async function downloadAuditCsv(filter: AuditListFilter): Promise<void> {
  const { limit: _limit, ...filters } = filter;
  const token = getAuthToken();
  const res = await fetch(endpointUrl(paths.audit.csv, {}, filters), {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    credentials: 'include',
  });
  await throwIfResNotOk(res);
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'audit.csv';
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has handed the file to the browser.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
