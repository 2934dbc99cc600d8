import type { McpServerInfo } from '@crewline/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { answerGet, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { McpServerCard } from './mcp-server-card';

const URL = 'https://crewline.example.com/mcp';

function showCard(answer: McpServerInfo) {
  server.use(answerGet<McpServerInfo>('/api/mcp-server', answer));
  return renderWithApp(<McpServerCard />);
}

describe("Settings' MCP server card", () => {
  it('shows the endpoint, each published tool with its workflow and state, and copies the client configuration', async () => {
    const { router } = showCard({
      url: URL,
      tools: [
        {
          workflowId: 'wf-1',
          workflowName: 'Weekly report',
          toolName: 'weekly_report',
          description: 'Writes the weekly report',
          active: true,
        },
        {
          workflowId: 'wf-2',
          workflowName: 'Support triage',
          toolName: 'triage',
          description: 'Sorts tickets',
          active: false,
        },
      ],
    });
    expect((await screen.findByLabelText('MCP endpoint URL')).textContent).toBe(URL);

    const tools = screen.getByRole('list', { name: 'Published tools' });
    const report = within(tools).getByRole('listitem', { name: 'weekly_report' });
    expect(within(report).getByText('Active')).toBeTruthy();
    expect(within(report).getByRole('link', { name: 'Weekly report' }).getAttribute('href')).toBe(
      '/workflows/edit/wf-1',
    );
    expect(
      within(within(tools).getByRole('listitem', { name: 'triage' })).getByText('Not active'),
    ).toBeTruthy();

    // The snippet: the server's URL and a placeholder key, the shape MCP clients read.
    const snippet = screen.getByLabelText('Client configuration');
    expect(JSON.parse(snippet.textContent ?? '')).toEqual({
      mcpServers: {
        crewline: { type: 'http', url: URL, headers: { Authorization: 'Bearer crw_your_api_key' } },
      },
    });
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(screen.getByRole('button', { name: 'Copy client configuration' }));
    expect(writeText).toHaveBeenCalledWith(snippet.textContent);

    await user.click(screen.getByRole('link', { name: /Read the MCP server guide/ }));
    expect(router.state.location.pathname).toBe('/docs/mcp-server');
  });

  it('says how to publish one when no workflow is published', async () => {
    showCard({ url: URL, tools: [] });
    expect(await screen.findByText(/No workflow is published yet/)).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Published tools' })).toBeNull();
    expect(screen.getByLabelText('Client configuration').textContent).toContain(URL);
  });
});
