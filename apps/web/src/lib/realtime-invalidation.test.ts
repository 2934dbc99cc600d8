import type { RealtimeEvent } from '@crewline/contracts';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';

import { invalidateForRealtimeEvent, invalidationsFor } from './realtime-invalidation';

const base = { organizationId: 'org-1', executionId: 'e1', workflowId: 'w1' };

function clientWithQueries() {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  const keys = [
    ['/api/executions'],
    ['/api/executions', 'e1', 'logs'],
    ['/api/organizations', 'org-1', 'stats'],
    ['/api/organizations', 'org-1', 'activity'],
    ['/api/organizations', 'org-1', 'analytics?days=7'],
    ['/api/agents'],
    ['/api/agents', 'a1'],
    ['/api/workflows'],
    ['/api/workflows', 'w1'],
    ['/api/auth/microsoft/status'],
  ];
  for (const key of keys) client.setQueryData(key, { cached: true });
  const stale = () =>
    client
      .getQueryCache()
      .getAll()
      .filter((query) => query.isStale())
      .map((query) => query.queryKey.join('/'))
      .sort();
  return { client, stale };
}

describe('realtime invalidation', () => {
  it('an execution event refreshes the organization figures and leaves the run lists to be patched', () => {
    for (const type of [
      'workflow_execution_created',
      'workflow_execution_started',
      'workflow_execution_completed',
      'workflow_execution_cancelled',
    ] as const) {
      const { client, stale } = clientWithQueries();
      invalidateForRealtimeEvent(client, { type, ...base });
      // The lists stay: the one run is read and patched in (lib/execution-summaries.test.ts).
      expect(stale()).toEqual([
        '/api/organizations/org-1/activity',
        '/api/organizations/org-1/analytics?days=7',
        '/api/organizations/org-1/stats',
      ]);
    }
    const { client, stale } = clientWithQueries();
    invalidateForRealtimeEvent(client, { type: 'workflow_execution_failed', ...base, error: 'x' });
    expect(stale()).not.toContain('/api/executions');
    expect(stale()).toContain('/api/organizations/org-1/stats');
  });

  it('an agent event refreshes the agent list and the figures, not an agent being edited', () => {
    for (const type of ['agent_created', 'agent_updated', 'agent_deleted'] as const) {
      const { client, stale } = clientWithQueries();
      invalidateForRealtimeEvent(client, { type, organizationId: 'org-1', agentId: 'a1' });
      expect(stale()).toEqual([
        '/api/agents',
        '/api/organizations/org-1/activity',
        '/api/organizations/org-1/analytics?days=7',
        '/api/organizations/org-1/stats',
      ]);
    }
  });

  it("a trigger's failure refreshes the workflows, so the card and the builder show it", () => {
    const { client, stale } = clientWithQueries();
    invalidateForRealtimeEvent(client, {
      type: 'workflow_trigger_failed',
      organizationId: 'org-1',
      workflowId: 'w1',
      error: 'This workflow is paused and cannot be run.',
    });
    expect(stale()).toEqual(['/api/workflows', '/api/workflows/w1']);
  });

  it('a broken Microsoft 365 connection refreshes its status, so Settings offers Reconnect', () => {
    const { client, stale } = clientWithQueries();
    invalidateForRealtimeEvent(client, { type: 'microsoft_connection_broken', organizationId: 'org-1' });
    expect(stale()).toEqual(['/api/auth/microsoft/status']);
  });

  it("a members change refreshes that organization's members and invitations only", () => {
    const { client, stale } = clientWithQueries();
    for (const key of [
      ['/api/organizations', 'org-1', 'members'],
      ['/api/organizations', 'org-1', 'invitations'],
      ['/api/organizations', 'org-2', 'members'],
    ]) {
      client.setQueryData(key, { cached: true });
    }
    invalidateForRealtimeEvent(client, { type: 'organization_members_changed', organizationId: 'org-1' });
    expect(stale()).toEqual(['/api/organizations/org-1/invitations', '/api/organizations/org-1/members']);
  });

  it('a role change of the viewer refreshes their session too (the role and the controls it allows)', () => {
    const { client, stale } = clientWithQueries();
    client.setQueryData(['/api/auth/me'], { user: { id: 'u-me' }, organization: { role: 'member' } });
    client.setQueryData(['/api/organizations', 'org-1', 'members'], { cached: true });
    invalidateForRealtimeEvent(client, {
      type: 'organization_members_changed',
      organizationId: 'org-1',
      userId: 'u-other',
    });
    expect(stale()).toEqual(['/api/organizations/org-1/members']);
    invalidateForRealtimeEvent(client, {
      type: 'organization_members_changed',
      organizationId: 'org-1',
      userId: 'u-me',
    });
    expect(stale()).toEqual(['/api/auth/me', '/api/organizations/org-1/members']);
    expect(
      invalidationsFor(
        { type: 'organization_members_changed', organizationId: 'org-1', userId: 'u-me' },
        'u-me',
      ),
    ).toContainEqual({ queryKey: ['/api/auth/me'] });
  });

  it('a subscription change refreshes the billing status, the session (its plan and trial end) and the invoices', () => {
    const { client, stale } = clientWithQueries();
    client.setQueryData(['/api/subscription-status'], { cached: true });
    client.setQueryData(['/api/auth/me'], { cached: true });
    client.setQueryData(['/api/billing/invoices'], { cached: true });
    client.setQueryData(['/api/billing/config'], { cached: true });
    invalidateForRealtimeEvent(client, { type: 'subscription_updated', organizationId: 'org-1' });
    expect(stale()).toEqual(['/api/auth/me', '/api/billing/invoices', '/api/subscription-status']);
  });

  it('an approval requested or decided refreshes every approval list (the Inbox, its count, a run’s), nothing else', () => {
    const events: RealtimeEvent[] = [
      { type: 'approval_requested', ...base, approvalId: 'ap1' },
      { type: 'approval_decided', ...base, approvalId: 'ap1', status: 'approved' },
    ];
    for (const event of events) {
      const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
      client.setQueryData(['/api/approvals', { status: 'pending', mine: 'true' }], []);
      client.setQueryData(['/api/approvals', 'ap1'], {});
      client.setQueryData(['/api/executions'], []);
      invalidateForRealtimeEvent(client, event);
      const stale = client
        .getQueryCache()
        .getAll()
        .filter((query) => query.isStale())
        .map((query) => JSON.stringify(query.queryKey));
      expect(stale.sort()).toEqual([
        '["/api/approvals","ap1"]',
        '["/api/approvals",{"status":"pending","mine":"true"}]',
      ]);
    }
  });

  it('a cancelled run refreshes the approval lists too: its pending approval was cancelled with it', () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
    client.setQueryData(['/api/approvals', { status: 'pending', mine: 'true' }], []);
    invalidateForRealtimeEvent(client, { type: 'workflow_execution_cancelled', ...base });
    expect(
      client
        .getQueryCache()
        .find({ queryKey: ['/api/approvals'], exact: false })
        ?.isStale(),
    ).toBe(true);
  });

  it('node progress refreshes nothing', () => {
    const events: RealtimeEvent[] = [
      { type: 'execution_node_started', ...base, nodeId: 'n1', baseNodeId: 'n1' },
      {
        type: 'execution_node_completed',
        ...base,
        nodeId: 'n1',
        baseNodeId: 'n1',
        executionTime: 1,
        totalTokens: 1,
      },
    ];
    for (const event of events) {
      expect(invalidationsFor(event)).toEqual([]);
      const { client, stale } = clientWithQueries();
      invalidateForRealtimeEvent(client, event);
      expect(stale()).toEqual([]);
    }
  });
});
