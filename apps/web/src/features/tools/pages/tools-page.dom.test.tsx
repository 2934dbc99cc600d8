import type { CreateToolInput, McpToolList, Session, Tool } from '@crewline/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { clearStoredAuth, setAuthToken } from '@/lib/auth-token';
import { answerGet, ORIGIN, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';
import { aSession } from '@/testing/session';

import { ToolsPage } from './tools-page';

const created: Tool = {
  id: 't1',
  name: 'Linear',
  description: null,
  category: 'mcp',
  provider: null,
  config: { url: 'https://mcp.linear.app/mcp', auth: 'oauth', timeoutSeconds: 60 },
  isActive: true,
  organizationId: 'o1',
  createdBy: null,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};

const admin = aSession({ role: 'admin' });

beforeEach(() => setAuthToken('token'));
afterEach(() => clearStoredAuth());

describe('creating an OAuth MCP server on the Tools page', () => {
  it('opens its Server tools on Not signed in, with Sign in', async () => {
    const stored: Tool[] = [];
    const sent: CreateToolInput[] = [];
    server.use(
      answerGet<Session>('/api/auth/me', admin),
      http.get(`${ORIGIN}/api/tools`, () => HttpResponse.json(stored)),
      http.post(`${ORIGIN}/api/tools`, async ({ request }) => {
        sent.push((await request.json()) as CreateToolInput);
        stored.push(created);
        return HttpResponse.json(created, { status: 201 });
      }),
      answerGet<McpToolList>('/api/tools/t1/mcp-tools', {
        tools: [],
        listedAt: null,
        error: null,
        oauth: 'disconnected',
      }),
    );
    const user = userEvent.setup();
    renderWithApp(<ToolsPage />, { url: '/tools?new=mcp' });

    await user.type(await screen.findByLabelText(/Tool Name/), 'Linear');
    await user.type(screen.getByLabelText('Server URL'), 'https://mcp.linear.app/mcp');
    await user.click(screen.getByLabelText('Authentication'));
    await user.click(await screen.findByRole('option', { name: 'OAuth (sign in)' }));
    await user.click(screen.getByRole('button', { name: 'Create Tool' }));

    const dialog = await screen.findByRole('dialog', { name: 'Server tools' });
    expect(await within(dialog).findByText('Not signed in')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(within(dialog).queryByText('The server offers no tools.')).toBeNull();
    await waitFor(() => expect(sent[0]?.config).toMatchObject({ auth: 'oauth' }));
  });
});
