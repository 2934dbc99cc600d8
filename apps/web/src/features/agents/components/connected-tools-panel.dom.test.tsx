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
