import {
  mcpMessages,
  type OrganizationRole,
  type Session,
  type UpdateWorkflowPublishing,
  type Workflow,
  type WorkflowPublishing,
} from '@crewline/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { clearStoredAuth, setAuthToken } from '@/lib/auth-token';
import { agentFixture, openBuilder, workflowFixture } from '@/testing/builder';
import { answerGet, ORIGIN } from '@/testing/msw-server';
import { aSession } from '@/testing/session';

const agents = [agentFixture({ id: 'a1', name: 'Writer', role: 'Writes', goal: 'Reports' })];

const workflow = (fields: Partial<Workflow> = {}) =>
  workflowFixture({
    name: 'Weekly Report',
    description: 'Writes the weekly report',
    nodes: [
      { id: 'start', type: 'start', position: { x: 100, y: 100 }, data: { label: 'Start' } },
      { id: 'n1', type: 'agent', agentId: 'a1', position: { x: 100, y: 250 }, data: { label: 'Writer' } },
      { id: 'end', type: 'end', position: { x: 100, y: 400 }, data: { label: 'End' } },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'n1' },
      { id: 'e2', source: 'n1', target: 'end' },
    ],
    ...fields,
  });

const session = (role: OrganizationRole) => aSession({ role });

beforeEach(() => setAuthToken('token'));
afterEach(() => clearStoredAuth());

/**
 * The builder's Settings tab on `wf` for a viewer of `role`, its MCP section once shown; PUT
 * …/publishing answers `answer` (a status and body, or the body sent back) and records each body.
 */
async function openMcp({
  wf = workflow({ status: 'active' }),
  role = 'admin',
  saved = { mcp: null, chat: null },
  answer,
}: {
  wf?: Workflow;
  role?: OrganizationRole;
  saved?: WorkflowPublishing;
  answer?: { status: number; body: unknown };
} = {}) {
  const puts: UpdateWorkflowPublishing[] = [];
  const opened = await openBuilder({
    workflow: wf,
    agents,
    handlers: [
      answerGet<Session>('/api/auth/me', session(role)),
      answerGet<WorkflowPublishing>('/api/workflows/wf-1/publishing', saved),
      http.put(`${ORIGIN}/api/workflows/wf-1/publishing`, async ({ request }) => {
        const body = (await request.json()) as UpdateWorkflowPublishing;
        puts.push(body);
        return answer
          ? HttpResponse.json(answer.body as object, { status: answer.status })
          : HttpResponse.json(body);
      }),
    ],
  });
  await opened.user.click(screen.getByRole('tab', { name: 'Settings' }));
  const section = await screen.findByRole('region', { name: 'MCP' });
  return { ...opened, puts, section };
}

describe("the builder's MCP section (Settings tab)", () => {
  it('publishes an active workflow with the tool name from its name, the default schema and 60 s', async () => {
    const { user, section, puts } = await openMcp();
    const publish = await within(section).findByRole('switch', { name: 'Publish on the MCP server' });
    expect(within(section).queryByText(mcpMessages.notActive)).toBeNull();
    await waitFor(() => expect(publish.hasAttribute('disabled')).toBe(false));
    await user.click(publish);

    expect((within(section).getByLabelText('Tool name') as HTMLInputElement).value).toBe('weekly_report');
    expect((within(section).getByLabelText('Description') as HTMLTextAreaElement).value).toBe(
      'Writes the weekly report',
    );
    expect((within(section).getByLabelText('Time limit (seconds)') as HTMLInputElement).value).toBe('60');
    await user.clear(within(section).getByLabelText('Time limit (seconds)'));
    await user.type(within(section).getByLabelText('Time limit (seconds)'), '90');
    await user.click(within(section).getByRole('button', { name: 'Save publishing' }));

    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      mcp: {
        enabled: true,
        toolName: 'weekly_report',
        description: 'Writes the weekly report',
        inputSchema: { type: 'object', properties: { input: { type: 'string' } } },
        timeoutSeconds: 90,
      },
    });
    // Saved: nothing left to save, and the form shows what the server answered.
    await waitFor(() =>
      expect(within(section).getByRole('button', { name: 'Save publishing' }).hasAttribute('disabled')).toBe(
        true,
      ),
    );
    expect((within(section).getByLabelText('Time limit (seconds)') as HTMLInputElement).value).toBe('90');
  });

  it('shows the 409 of a taken tool name under Tool name, and stops publishing with null', async () => {
    const taken = mcpMessages.toolNameTaken('weekly_report');
    const { user, section, puts } = await openMcp({
      saved: {
        mcp: {
          enabled: true,
          toolName: 'report',
          description: 'Writes the weekly report',
          inputSchema: { type: 'object' },
          timeoutSeconds: 60,
        },
        chat: null,
      },
      answer: { status: 409, body: { message: taken } },
    });
    const toolName = (await within(section).findByLabelText('Tool name')) as HTMLInputElement;
    expect(toolName.value).toBe('report');
    await user.clear(toolName);
    await user.type(toolName, 'weekly_report');
    await user.click(within(section).getByRole('button', { name: 'Save publishing' }));

    const message = await within(section).findByText(taken);
    expect(toolName.getAttribute('aria-invalid')).toBe('true');
    expect(toolName.getAttribute('aria-describedby')).toContain(message.id);
    // Typing again clears it.
    await user.type(toolName, '_eu');
    expect(within(section).queryByText(taken)).toBeNull();

    await user.click(within(section).getByRole('switch', { name: 'Publish on the MCP server' }));
    expect(within(section).queryByLabelText('Tool name')).toBeNull();
    await user.click(within(section).getByRole('button', { name: 'Save publishing' }));
    await waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1]).toEqual({ mcp: null });
  });

  it('says a draft cannot be published and keeps its switch off', async () => {
    const { section } = await openMcp({ wf: workflow({ status: 'draft' }) });
    expect(await within(section).findByText(mcpMessages.notActive)).toBeTruthy();
    const publish = within(section).getByRole('switch', { name: 'Publish on the MCP server' });
    expect(publish.getAttribute('aria-checked')).toBe('false');
    expect(publish.hasAttribute('disabled')).toBe(true);
  });

  it('shows a member the published tool read-only, with no Save', async () => {
    const { section } = await openMcp({
      role: 'member',
      saved: {
        mcp: {
          enabled: true,
          toolName: 'weekly_report',
          description: 'Writes the weekly report',
          inputSchema: { type: 'object' },
          timeoutSeconds: 60,
        },
        chat: null,
      },
    });
    expect(await within(section).findByText('Only owners and admins can publish workflows.')).toBeTruthy();
    const toolName = (await within(section).findByLabelText('Tool name')) as HTMLInputElement;
    expect(toolName.value).toBe('weekly_report');
    expect(toolName.disabled).toBe(true);
    expect(
      within(section).getByRole('switch', { name: 'Publish on the MCP server' }).hasAttribute('disabled'),
    ).toBe(true);
    expect(within(section).queryByRole('button', { name: 'Save publishing' })).toBeNull();
  });
});
