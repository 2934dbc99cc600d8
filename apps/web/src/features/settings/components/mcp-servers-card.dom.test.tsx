import {
  mcpMessages,
  type McpToolList,
  type OrganizationRole,
  type Session,
  type Tool,
} from '@crewline/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { Toaster } from '@/components/ui/toaster';
import { clearStoredAuth, setAuthToken } from '@/lib/auth-token';
import { answerGet, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';
import { aSession } from '@/testing/session';

import { McpServersCard } from './mcp-servers-card';

const connection = (id: string, name: string, auth: 'header' | 'oauth'): Tool => ({
  id,
  name,
  description: null,
  category: 'mcp',
  provider: null,
  config: { url: `https://${id}.example.com/mcp`, auth },
  isActive: true,
  organizationId: 'o1',
  createdBy: null,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});

const echo = {
  name: 'echo',
  title: null,
  description: 'Echoes',
  inputSchema: { type: 'object' },
  readOnly: true,
  destructive: false,
};

const session = (role: OrganizationRole) => aSession({ role });

beforeEach(() => setAuthToken('token'));
afterEach(() => clearStoredAuth());

/** Three connections: a header one, an OAuth one to reconnect, an OAuth one never signed in. */
function open(role: OrganizationRole = 'admin', url = '/settings/profile?tab=tools') {
  server.use(
    answerGet<Session>('/api/auth/me', session(role)),
    answerGet<Tool[]>('/api/tools', [
      connection('h1', 'Wiki', 'header'),
      connection('o1', 'Linear', 'oauth'),
      connection('o2', 'Notion', 'oauth'),
    ]),
    answerGet<McpToolList>('/api/tools/h1/mcp-tools', {
      tools: [echo],
      listedAt: '2026-01-01T00:00:00Z',
      error: null,
      oauth: null,
    }),
    answerGet<McpToolList>('/api/tools/o1/mcp-tools', {
      tools: [echo],
      listedAt: '2026-01-01T00:00:00Z',
      error: mcpMessages.reconnect('Linear'),
      oauth: 'reconnect',
    }),
    answerGet<McpToolList>('/api/tools/o2/mcp-tools', {
      tools: [],
      listedAt: null,
      error: null,
      oauth: 'disconnected',
    }),
  );
  return renderWithApp(
    <>
      <McpServersCard />
      <Toaster />
    </>,
    { url },
  );
}

const row = (name: string) => screen.findByRole('listitem', { name });

describe('the MCP servers card', () => {
  it("shows each OAuth connection's state and its sign-in to an admin", async () => {
    open();
    const linear = await row('Linear');
    expect(await within(linear).findByText('Needs reconnecting')).toBeTruthy();
    expect(within(linear).getByText(/no longer accepts its sign-in: reconnect/)).toBeTruthy();
    expect(within(linear).getByRole('button', { name: 'Reconnect' })).toBeTruthy();

    const notion = await row('Notion');
    expect(await within(notion).findByText('Not signed in')).toBeTruthy();
    expect(within(notion).getByRole('button', { name: 'Sign in' })).toBeTruthy();

    const wiki = await row('Wiki');
    expect(await within(wiki).findByText('1 tool')).toBeTruthy();
    expect(within(wiki).queryByRole('button', { name: /Sign in|Reconnect/ })).toBeNull();
  });

  it('shows a member the states without the buttons', async () => {
    open('member');
    const linear = await row('Linear');
    expect(await within(linear).findByText('Needs reconnecting')).toBeTruthy();
    expect(within(linear).getByText(/an owner or admin reconnects it/)).toBeTruthy();
    expect(within(linear).queryByRole('button', { name: 'Reconnect' })).toBeNull();
    expect(within(await row('Notion')).queryByRole('button', { name: 'Sign in' })).toBeNull();
  });

  it('back from a sign-in without its popup: says how it went and drops the parameter', async () => {
    const { router } = open('admin', '/settings/profile?tab=tools&mcp_connected=true');
    expect(await screen.findByText('MCP server connected')).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe('?tab=tools'));
  });

  it('says so when the sign-in failed', async () => {
    const { router } = open('admin', '/settings/profile?tab=tools&mcp_error=true');
    expect(await screen.findByText('Could not sign in to the MCP server.')).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toBe('?tab=tools'));
  });
});
