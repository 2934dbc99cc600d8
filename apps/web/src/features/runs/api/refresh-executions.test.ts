import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';

import { queryKeys } from '@/lib/queries/keys';

import { refreshExecutions } from './refresh-executions';

describe('refreshExecutions', () => {
  it('marks every executions query and the organization figures stale, and nothing else', () => {
    const client = new QueryClient();
    const run = [...queryKeys.executions.all, 'detail', 'r1'];
    const organization = [...queryKeys.organizations.all, 'stats'];
    const other = ['agents'];
    for (const key of [run, organization, other]) client.setQueryData(key, { loaded: true });

    refreshExecutions(client);

    const stale = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
    expect([stale(run), stale(organization), stale(other)]).toEqual([true, true, false]);
  });
});
