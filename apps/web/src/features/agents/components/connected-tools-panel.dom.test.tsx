import type { AgentToolLink, updateAgentToolSchema } from '@crewline/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';

import { Toaster } from '@/components/ui/toaster';
import { ORIGIN, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { ConnectedToolsPanel } from './connected-tools-panel';

const AGENT = 'a1';

/** The body of PUT /api/agents/:agentId/tools/:toolId. */
type UpdateAgentToolInput = z.infer<typeof updateAgentToolSchema>;

const stored: AgentToolLink = {
  id: 'l1',
  agentId: AGENT,
  toolId: 't1',
  tool: { name: 'Orders API', description: 'Reads and refunds orders', category: 'api' },
  isEnabled: true,
  config: {},
  approval: 'writes',
  createdAt: '2026-01-01T00:00:00Z',
};

/** The agent's one link as the server keeps it: GET answers it, PUT changes it (or fails). */
function answerLinks({ fail = false } = {}) {
  let link = { ...stored };
  const sent: UpdateAgentToolInput[] = [];
  server.use(
    http.get(`${ORIGIN}/api/agents/${AGENT}/tools`, () => HttpResponse.json([link])),
    http.put(`${ORIGIN}/api/agents/${AGENT}/tools/t1`, async ({ request }) => {
      const body = (await request.json()) as UpdateAgentToolInput;
      sent.push(body);
      if (fail) return HttpResponse.json({ error: 'Internal error' }, { status: 500 });
      link = { ...link, ...(body.approval ? { approval: body.approval } : {}) };
      return HttpResponse.json(link);
    }),
  );
  return sent;
}

async function openPanel() {
  const user = userEvent.setup();
  renderWithApp(
    <>
      <ConnectedToolsPanel agentId={AGENT} />
      <Toaster />
    </>,
  );
  const row = await screen.findByRole('listitem');
  return { user, row, select: () => within(row).getByLabelText('Ask before running') };
}

describe('a connected tool’s Ask before running', () => {
  it('shows the link’s policy, and choosing Always saves only { approval } and shows it', async () => {
    const sent = answerLinks();
    const { user, select } = await openPanel();
    expect(select().textContent).toBe('Writes');
    expect(
      screen.getByText(
        'A call that needs approval waits for a person in the Inbox; the run holds no worker meanwhile.',
      ),
    ).toBeTruthy();

    await user.click(select());
    // The open list says which calls Writes means.
    expect(
      screen.getByRole('option', { name: /Calls that change something: HTTP other than GET\/HEAD/ }),
    ).toBeTruthy();
    await user.click(screen.getByRole('option', { name: 'Always' }));

    await waitFor(() => expect(sent).toEqual([{ approval: 'always' }]));
    await waitFor(() => expect(select().textContent).toBe('Always'));
  });

  it('goes back to the saved policy and says so when the change fails', async () => {
    const sent = answerLinks({ fail: true });
    const { user, select } = await openPanel();

    await user.click(select());
    await user.click(screen.getByRole('option', { name: 'Never' }));

    await waitFor(() => expect(sent).toEqual([{ approval: 'never' }]));
    expect(await screen.findByText('Failed to update tool configuration.')).toBeTruthy();
    await waitFor(() => expect(select().textContent).toBe('Writes'));
  });
});

describe('a linked MCP server’s tools', () => {
  const mcpLink: AgentToolLink = {
    ...stored,
    id: 'l2',
    toolId: 'm1',
    tool: { name: 'Everything', description: null, category: 'mcp' },
    config: {},
  };
  const serverTool = (name: string, readOnly: boolean) => ({
    name,
    title: null,
    description: `The ${name} tool`,
    inputSchema: { type: 'object' },
    readOnly,
    destructive: false,
  });

  /** The connection allows echo and add (not get-env); PUT keeps the config it is sent. */
  function answerMcpLink() {
    let link = { ...mcpLink };
    const sent: UpdateAgentToolInput[] = [];
    server.use(
      http.get(`${ORIGIN}/api/agents/${AGENT}/tools`, () => HttpResponse.json([link])),
      http.get(`${ORIGIN}/api/tools`, () =>
        HttpResponse.json([
          {
            id: 'm1',
            name: 'Everything',
            description: null,
            category: 'mcp',
            provider: null,
            config: { url: 'https://mcp.example.com/mcp', enabledTools: ['echo', 'add'] },
            isActive: true,
            organizationId: 'o1',
            createdBy: null,
            createdAt: '2026-01-01T00:00:00Z',
            updatedAt: '2026-01-01T00:00:00Z',
          },
        ]),
      ),
      http.get(`${ORIGIN}/api/tools/m1/mcp-tools`, () =>
        HttpResponse.json({
          tools: [serverTool('echo', true), serverTool('get-env', true), serverTool('add', false)],
          listedAt: '2026-01-01T00:00:00Z',
          error: null,
        }),
      ),
      http.put(`${ORIGIN}/api/agents/${AGENT}/tools/m1`, async ({ request }) => {
        const body = (await request.json()) as UpdateAgentToolInput;
        sent.push(body);
        link = { ...link, config: body.config ?? link.config };
        return HttpResponse.json(link);
      }),
    );
    return sent;
  }

  const toolSwitch = (name: string) => screen.getByRole('switch', { name: `Use ${name}` });

  it('shows the tools the connection allows, each on, and switching one off writes the others as config.tools', async () => {
    const sent = answerMcpLink();
    const user = userEvent.setup();
    renderWithApp(<ConnectedToolsPanel agentId={AGENT} />);

    const list = await screen.findByRole('list', { name: 'Everything tools' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('aria-label')),
    ).toEqual(['echo', 'add']);
    expect(within(list).getByText('Read-only')).toBeTruthy();
    expect(toolSwitch('echo').getAttribute('aria-checked')).toBe('true');
    expect(toolSwitch('add').getAttribute('aria-checked')).toBe('true');

    await user.click(toolSwitch('add'));
    await waitFor(() => expect(sent).toEqual([{ config: { tools: ['echo'] } }]));
    await waitFor(() => expect(toolSwitch('add').getAttribute('aria-checked')).toBe('false'));

    // Every allowed tool on again: the link names none (all, also those allowed later).
    await user.click(toolSwitch('add'));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toEqual({ config: {} });
  });

  it('says what Writes asks for on an MCP server', async () => {
    answerMcpLink();
    const user = userEvent.setup();
    renderWithApp(<ConnectedToolsPanel agentId={AGENT} />);
    await screen.findByRole('list', { name: 'Everything tools' });
    await user.click(screen.getByLabelText('Ask before running'));
    expect(screen.getByRole('option', { name: /Ask first: tools not marked read-only/ })).toBeTruthy();
  });
});
