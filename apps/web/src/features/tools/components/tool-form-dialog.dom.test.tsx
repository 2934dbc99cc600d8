import type { CreateToolInput, Tool, UpdateToolInput } from '@crewline/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { Toaster } from '@/components/ui/toaster';
import { ORIGIN, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { ToolFormDialog } from './tool-form-dialog';

const stored: Tool = {
  id: 't1',
  name: 'Everything',
  description: null,
  category: 'mcp',
  provider: null,
  config: {
    url: 'https://mcp.example.com/mcp',
    timeoutSeconds: 30,
    enabledTools: ['echo'],
    headerName: 'Authorization',
    headerValue: '••••••••abcd',
  },
  isActive: true,
  organizationId: 'o1',
  createdBy: null,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};

/** POST and PUT /api/tools answer the tool; each body is pushed onto `sent`. */
function answerSaves() {
  const sent: (CreateToolInput | UpdateToolInput)[] = [];
  server.use(
    http.post(`${ORIGIN}/api/tools`, async ({ request }) => {
      sent.push((await request.json()) as CreateToolInput);
      return HttpResponse.json({ ...stored, id: 't2' }, { status: 201 });
    }),
    http.put(`${ORIGIN}/api/tools/t1`, async ({ request }) => {
      sent.push((await request.json()) as UpdateToolInput);
      return HttpResponse.json(stored);
    }),
  );
  return sent;
}

function open(tool: Tool | null) {
  const user = userEvent.setup();
  renderWithApp(
    <>
      <ToolFormDialog open tool={tool} category="mcp" onOpenChange={() => {}} />
      <Toaster />
    </>,
  );
  return user;
}

describe('the tool form of an MCP server', () => {
  it('sends the header as credentials and the URL and timeout as config', async () => {
    const sent = answerSaves();
    const user = open(null);

    // Preset to the MCP Server category, without a header until one is chosen.
    expect(screen.getByLabelText('Category').textContent).toContain('MCP Server');
    expect(screen.queryByLabelText('Header value')).toBeNull();
    expect((screen.getByLabelText('Timeout (seconds)') as HTMLInputElement).value).toBe('60');

    await user.type(screen.getByLabelText(/Tool Name/), 'Everything');
    await user.type(screen.getByLabelText('Server URL'), 'https://mcp.example.com/mcp');
    await user.click(screen.getByLabelText('Authentication'));
    await user.click(await screen.findByRole('option', { name: 'Header' }));
    expect((screen.getByLabelText('Header name') as HTMLInputElement).value).toBe('Authorization');
    const value = screen.getByLabelText('Header value') as HTMLInputElement;
    expect(value.type).toBe('password');
    await user.type(value, 'Bearer s3cret');
    await user.clear(screen.getByLabelText('Timeout (seconds)'));
    await user.type(screen.getByLabelText('Timeout (seconds)'), '90');
    await user.click(screen.getByRole('button', { name: 'Create Tool' }));

    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({
      name: 'Everything',
      category: 'mcp',
      config: { url: 'https://mcp.example.com/mcp', auth: 'header', timeoutSeconds: 90 },
      credentials: { headerName: 'Authorization', headerValue: 'Bearer s3cret' },
    });
    expect(sent[0].config).not.toHaveProperty('headerValue');
  });

  it('asks for the header value before sending a header without one', async () => {
    const sent = answerSaves();
    const user = open(null);
    await user.type(screen.getByLabelText(/Tool Name/), 'Everything');
    await user.type(screen.getByLabelText('Server URL'), 'https://mcp.example.com/mcp');
    await user.click(screen.getByLabelText('Authentication'));
    await user.click(await screen.findByRole('option', { name: 'Header' }));
    await user.click(screen.getByRole('button', { name: 'Create Tool' }));

    expect(await screen.findByText('Enter the header value, e.g. Bearer and your token')).toBeTruthy();
    expect(sent).toEqual([]);
  });

  it('shows a stored header masked and sends the mask back (kept), with the allowed tools', async () => {
    const sent = answerSaves();
    const user = open(stored);
    expect(screen.getByLabelText('Authentication').textContent).toBe('Header');
    expect((screen.getByLabelText('Header value') as HTMLInputElement).value).toBe('••••••••abcd');
    expect((screen.getByLabelText('Timeout (seconds)') as HTMLInputElement).value).toBe('30');

    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({
      config: { url: 'https://mcp.example.com/mcp', timeoutSeconds: 30, enabledTools: ['echo'] },
      credentials: { headerName: 'Authorization', headerValue: '••••••••abcd' },
    });
  });

  it('clears a stored header when Authentication becomes None', async () => {
    const sent = answerSaves();
    const user = open(stored);
    await user.click(screen.getByLabelText('Authentication'));
    await user.click(await screen.findByRole('option', { name: 'None' }));
    expect(screen.queryByLabelText('Header value')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ config: { auth: 'none' }, credentials: { headerValue: '' } });
    expect(sent[0].credentials).not.toHaveProperty('headerName');
    expect(sent[0].config).not.toHaveProperty('headerName');
  });

  it('sends OAuth as config.auth, without a header or credentials', async () => {
    const sent = answerSaves();
    const user = open(null);
    await user.type(screen.getByLabelText(/Tool Name/), 'Linear');
    await user.type(screen.getByLabelText('Server URL'), 'https://mcp.linear.app/mcp');
    await user.click(screen.getByLabelText('Authentication'));
    await user.click(await screen.findByRole('option', { name: 'OAuth (sign in)' }));
    expect(screen.queryByLabelText('Header name')).toBeNull();
    expect(screen.queryByLabelText('Header value')).toBeNull();
    expect(screen.getByText(/signs in once in a popup after saving/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Create Tool' }));

    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({
      category: 'mcp',
      config: { url: 'https://mcp.linear.app/mcp', auth: 'oauth', timeoutSeconds: 60 },
    });
    expect(sent[0]).not.toHaveProperty('credentials');
    expect(sent[0].config).not.toHaveProperty('headerName');
    expect(sent[0].config).not.toHaveProperty('headerValue');
  });

  it('clears a stored header when Authentication becomes OAuth', async () => {
    const sent = answerSaves();
    const user = open(stored);
    await user.click(screen.getByLabelText('Authentication'));
    await user.click(await screen.findByRole('option', { name: 'OAuth (sign in)' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ config: { auth: 'oauth' }, credentials: { headerValue: '' } });
    expect(sent[0].credentials).not.toHaveProperty('headerName');
  });

  it('opens a connection on its stored Authentication', async () => {
    open({ ...stored, config: { url: 'https://mcp.linear.app/mcp', auth: 'oauth' } });
    expect(screen.getByLabelText('Authentication').textContent).toBe('OAuth (sign in)');
    expect(screen.queryByLabelText('Header value')).toBeNull();
  });
});
